/** Raw SQL rows from either driver: postgres.js answers an array, PGlite `{ rows }`. */
import { type SQL, sql } from "drizzle-orm";
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
 * prepared one takes one from its second run on. `text` numbers its parameters ($1, $2, …). Inside
 * a transaction (whose handle has no client of its own) and on PGlite (in the process: no round
 * trip to save) the same statement runs through drizzle.
 */
export async function preparedRows<Row>(
  db: Database | Transaction,
  text: string,
  params: readonly unknown[],
): Promise<Row[]> {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (typeof client === "function") {
    const postgres = client as Sql;
    return [...(await postgres.unsafe(text, params as never[], { prepare: true }))] as Row[];
  }
  return queryRows<Row>(db, statementSql(text, params));
}

/** A statement whose parameters are numbered ($1, $2, …) as drizzle's SQL: each `$n` bound to `params[n - 1]`. */
export function statementSql(text: string, params: readonly unknown[]): SQL {
  const pieces = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  pieces.forEach((piece, index) => {
    if (index % 2 === 0) {
      if (piece) chunks.push(sql.raw(piece));
      return;
    }
    const at = Number(piece) - 1;
    if (!(at >= 0 && at < params.length)) throw new RangeError(`$${piece} has no parameter`);
    chunks.push(sql`${params[at]}`);
  });
  return sql.join(chunks);
}
