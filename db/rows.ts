/** Raw SQL rows from either driver: postgres.js answers an array, PGlite `{ rows }`. */
import type { SQL } from "drizzle-orm";
import type { Database, Transaction } from "./client";

export async function queryRows<Row>(db: Database | Transaction, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
}
