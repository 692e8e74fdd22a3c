/**
 * The answer a reading gives when asked for some fields of each product only (`fields`, a sparse
 * fieldset: server/2-readings/narrowing.ts), declared as what it is: a variant of the reading's own
 * schema whose product items keep `productId`, `name` and `available` (where the reading has it) and may lack any other field, and which
 * says which fields it kept (`fields`, required here and absent from the complete reading, whose
 * schema is closed). A reading that takes `fields` answers one of the two; the OpenAPI document,
 * the MCP output schema and the typed client all say so, and every answer validates.
 */
import { z } from "zod";
import { ALWAYS_KEPT_FIELDS, IDENTITY_FIELDS, type NarrowingSpec } from "../2-readings/narrowing";

type AnyObject = z.ZodObject<z.ZodRawShape>;

/** What a sparse answer adds: the fields each product kept. */
export const keptFieldsSchema = z.array(z.string()).meta({
  description:
    "Present only when `fields` was asked: the product fields kept (productId, name and, where the reading has it, available always).",
});

/** The schema with the items of the list at `path` (dotted, through objects) made partial but for their identity. */
function withSparseItems(schema: AnyObject, path: string[]): AnyObject {
  const [key, ...rest] = path;
  if (key === undefined) return schema;
  const field = schema.shape[key] as z.ZodType | undefined;
  if (!field) throw new Error(`the schema has no ${key} for a sparse list`);
  return schema.extend({ [key]: sparseField(field, rest) });
}

function sparseField(field: z.ZodType, rest: string[]): z.ZodType {
  const def = field._zod.def as { type: string; innerType?: z.ZodType; element?: z.ZodType };
  if (def.type === "optional") return sparseField(def.innerType as z.ZodType, rest).optional();
  if (def.type === "nullable") return sparseField(def.innerType as z.ZodType, rest).nullable();
  if (rest.length > 0) return withSparseItems(field as AnyObject, rest);
  if (def.type !== "array") throw new Error("a sparse list must be an array");
  const item = def.element as AnyObject;
  // Its identity, and `available` where the item has it: kept whatever `fields` asks.
  const kept = [...IDENTITY_FIELDS, ...ALWAYS_KEPT_FIELDS.filter((name) => name in item.shape)];
  const identity = Object.fromEntries(kept.map((name) => [name, true as const]));
  return z.array(item.partial().required(identity));
}

/** The sparse variant of a reading's schema, named after it (`SparseSnapshot` for `Snapshot`). */
export function sparseVariantOf(full: AnyObject, spec: NarrowingSpec): AnyObject {
  let sparse = full;
  for (const path of spec.lists) sparse = withSparseItems(sparse, path.split("."));
  const meta = z.globalRegistry.get(full) as { id?: string; description?: string } | undefined;
  return sparse.extend({ fields: keptFieldsSchema }).meta({
    ...(meta?.id ? { id: `Sparse${meta.id}` } : {}),
    description: `${meta?.description ? `${meta.description} ` : ""}Sparse: asked with \`fields\`, each product keeps only those fields and its identity.`,
  });
}

/** What a reading that takes `fields` answers over REST: its complete schema, or its sparse variant. */
export const completeOrSparse = (full: AnyObject, spec: NarrowingSpec) => z.union([full, sparseVariantOf(full, spec)]);

/**
 * The same as one object, for MCP, whose output schemas must be objects: products may lack any
 * field but their identity, and `fields` says when they do. Complete and sparse answers both fit.
 */
export function eitherAnswer(full: AnyObject, spec: NarrowingSpec): AnyObject {
  let either = full;
  for (const path of spec.lists) either = withSparseItems(either, path.split("."));
  return either.extend({ fields: keptFieldsSchema.optional() });
}
