/** Raw SQL rows from either driver: postgres.js answers an array, PGlite `{ rows }`. */
import type { SQL } from "drizzle-orm";
import type { Sql } from "postgres";
import type { Database, Transaction } from "./client";

export async function queryRows<Row>(db: Database | Transaction, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
}

/**
 * The rows of one statement the service runs many times a second (the batched debit), prepared
 * once per connection. drizzle sends `db.execute` as an unnamed statement, and postgres.js
 * describes an unnamed statement with parameters before it binds them: two round trips, where a
 * prepared one takes one from its second run on. `text` numbers its parameters ($1, $2, …);
 * `query` is the same statement for drizzle, run as it is inside a transaction (whose handle has
 * no client of its own) and on PGlite (in the process: no round trip to save).
 */
export async function preparedRows<Row>(
  db: Database | Transaction,
  statement: { text: string; params: readonly unknown[]; query: SQL },
): Promise<Row[]> {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (typeof client === "function") {
    const postgres = client as Sql;
    return [...(await postgres.unsafe(statement.text, statement.params as never[], { prepare: true }))] as Row[];
  }
  return queryRows<Row>(db, statement.query);
}
