/**
 * What the schema's JSON columns hold. A market file, a product's scores or a notification's
 * content is the domain's to define (server/1-domain/), and db/ takes nothing from server/: it sits
 * below every room there. So db/ names each column's shape here, and the room of server/ that
 * writes the column says what the shape is, by declaration merging (`declare module`):
 * server/3-catalog/stored-shapes.ts for the catalogue, server/4-following/stored-shapes.ts for
 * notifications and the mail owed. The dependency points from server/ down to db/, as every other.
 *
 * A shape no room has declared (or a name misspelt) is `NoStoredShape<Name>`, which nothing else
 * is and which is nothing else: writing the column and reading it as anything both fail the type
 * check.
 */

// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging from server/.
export interface StoredShapes {}

export type StoredShape<Name extends string> = Name extends keyof StoredShapes
  ? StoredShapes[Name]
  : NoStoredShape<Name>;

/** What an undeclared shape reads as: says which, in the error that names it. */
export interface NoStoredShape<Name extends string> {
  readonly "no room of server/ declared this JSON column's shape (db/stored-shapes.ts)": Name;
}
