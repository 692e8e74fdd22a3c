/**
 * E-mails owed (mail_deliveries): written once per person and reason by the fan-out or the weekly
 * summary, sent by the mail job. A row is sent when `sent_at` is set; the job claims it before
 * each attempt, so the count of attempts and the last error are there for the operator.
 */
import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { mailDeliveries } from "../../db/schema";

export type Delivery = typeof mailDeliveries.$inferSelect;

/** How long an attempt holds its delivery: longer than any SMTP exchange, short enough to retry a crash soon. */
export const DELIVERY_LEASE_SECONDS = 120;

/**
 * Claims an unsent delivery for one attempt (counted) and returns it; undefined when it has been
 * sent or another attempt holds it. Two senders can therefore never send one delivery at once.
 */
export async function claimDelivery(db: Database, id: number): Promise<Delivery | undefined> {
  const [row] = await db
    .update(mailDeliveries)
    .set({ attempts: sql`${mailDeliveries.attempts} + 1`, claimedAt: sql`now()` })
    .where(
      and(
        eq(mailDeliveries.id, id),
        isNull(mailDeliveries.sentAt),
        or(
          isNull(mailDeliveries.claimedAt),
          lt(mailDeliveries.claimedAt, sql`now() - make_interval(secs => ${DELIVERY_LEASE_SECONDS})`),
        ),
      ),
    )
    .returning();
  return row;
}

export async function markDelivered(db: Database, id: number): Promise<void> {
  await db
    .update(mailDeliveries)
    .set({ sentAt: sql`now()`, claimedAt: null, lastError: null })
    .where(eq(mailDeliveries.id, id));
}

/** Records why an attempt failed and frees the delivery for the next one. */
export async function noteDeliveryFailure(db: Database, id: number, error: string): Promise<void> {
  await db
    .update(mailDeliveries)
    .set({ lastError: error.slice(0, 1000), claimedAt: null })
    .where(eq(mailDeliveries.id, id));
}

/**
 * Deliveries never attempted and older than `olderThanSeconds`: their job was lost (a crash between
 * writing them and queuing it), so the sweep queues one again.
 */
export async function unsentDeliveries(db: Database, olderThanSeconds: number, limit = 500): Promise<number[]> {
  const rows = await db
    .select({ id: mailDeliveries.id })
    .from(mailDeliveries)
    .where(
      and(
        isNull(mailDeliveries.sentAt),
        eq(mailDeliveries.attempts, 0),
        lt(mailDeliveries.createdAt, sql`now() - make_interval(secs => ${olderThanSeconds})`),
      ),
    )
    .orderBy(asc(mailDeliveries.id))
    .limit(limit);
  return rows.map((r) => r.id);
}
