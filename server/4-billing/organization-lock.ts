/**
 * Every change of an organization's billing (a grant, a take-back, a top-up's failure, its
 * settings) first locks the organization's row, as debits do: changes of one organization never
 * interleave, and taking this lock first everywhere keeps them from deadlocking.
 */
import { sql } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client";
import { queryRows } from "../../db/rows";

/** Locks the organization's row (the balance's) till the end of `tx`'s transaction, or says it is gone. */
export async function lockOrganization(
  tx: Database | Transaction,
  organizationId: string,
): Promise<{ name: string } | null> {
  const [row] = await queryRows<{ name: string }>(
    tx,
    sql`select name from organizations where id = ${organizationId} for update`,
  );
  return row ?? null;
}
