/**
 * An organization's usage read from its credits ledger: the credits spent and the metered calls
 * over a period, per UTC day or hour, optionally per operation or per token. Every figure is a sum
 * of ledger rows (debits), so usage adds up to the ledger to the credit. Whole hours come from
 * usage_hourly, the ledger's debits summed per hour by debit_batch in the debits' transaction
 * (db/migrations/0015): a period costs its hours, not its calls. The hour not yet over is summed
 * from the ledger rows themselves.
 */
import { type AnyColumn, and, eq, gte, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { creditLedger, usageHourly } from "../../db/schema";
import { sharedRead } from "../../db/shared-read";

export type UsageBucket = "day" | "hour";
export type UsageGrouping = "operation" | "token";

export const BUCKET_MS: Record<UsageBucket, number> = { day: 86_400_000, hour: 3_600_000 };

/** The most buckets one answer holds: a year of days, a month of hours. */
export const MAX_BUCKETS: Record<UsageBucket, number> = { day: 366, hour: 744 };

export interface UsageFigures {
  credits: number;
  calls: number;
}

export interface UsageRow extends UsageFigures {
  /** The bucket's first instant (UTC). */
  start: Date;
  /** The operation or token id when grouped; null when not, and for a debit without a token. */
  key: string | null;
}

/** The start of the bucket holding `instant` (UTC). */
export const bucketStart = (instant: Date, bucket: UsageBucket) =>
  new Date(Math.floor(instant.getTime() / BUCKET_MS[bucket]) * BUCKET_MS[bucket]);

/** Debits in [from, to) summed per bucket (and per operation or token), oldest first; empty buckets left out. */
export async function usageRows(
  db: Database,
  organizationId: string,
  {
    from,
    to,
    bucket,
    groupBy,
    endsNow = false,
  }: {
    from: Date;
    to: Date;
    bucket: UsageBucket;
    groupBy?: UsageGrouping;
    /** `to` is now: no debit is later, so the hour not yet over is read from its sum too. */
    endsNow?: boolean;
  },
): Promise<UsageRow[]> {
  // Identical reads in one turn share their statements (db/shared-read.ts): a period that ends now
  // reads the same rows whatever its last millisecond, so its key names the hour, not the instant.
  const hour = bucketStart(to, "hour").getTime();
  const end = endsNow ? `now ${hour < to.getTime() ? hour + BUCKET_MS.hour : hour}` : `${to.getTime()}`;
  const key = `usage ${organizationId} ${from.getTime()} ${end} ${bucket} ${groupBy ?? "-"}`;
  return sharedRead(db, key, () => readUsageRows(db, organizationId, { from, to, bucket, groupBy, endsNow }));
}

async function readUsageRows(
  db: Database,
  organizationId: string,
  { from, to, bucket, groupBy, endsNow }: Period & { endsNow: boolean },
): Promise<UsageRow[]> {
  // [from, hour of `to`) from the hourly sums; [that hour, to) from the ledger, unless the period
  // ends now, when the current hour's sum is all of it. `from` starts a bucket.
  const hourOfTo = bucketStart(to, "hour");
  const sumsUntil =
    endsNow && hourOfTo.getTime() < to.getTime() ? new Date(hourOfTo.getTime() + BUCKET_MS.hour) : hourOfTo;
  const wholeUntil = sumsUntil.getTime() > from.getTime() ? sumsUntil : from;
  const [summed, recent] = await Promise.all([
    wholeUntil.getTime() > from.getTime()
      ? hourlyRows(db, organizationId, { from, to: wholeUntil, bucket, groupBy })
      : [],
    wholeUntil.getTime() < to.getTime()
      ? ledgerRows(db, organizationId, { from: wholeUntil, to, bucket, groupBy })
      : [],
  ]);
  // A bucket may hold both (a day whose last hour is not over): one row per bucket and key.
  const merged = new Map<string, UsageRow>();
  for (const row of [...summed, ...recent]) {
    const id = `${row.start.getTime()} ${row.key ?? ""}`;
    const seen = merged.get(id);
    if (seen) {
      seen.credits += row.credits;
      seen.calls += row.calls;
    } else merged.set(id, { ...row });
  }
  // Oldest first; within a bucket by key, no key last (as ORDER BY puts NULL).
  const byKey = (a: string | null, b: string | null) =>
    a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;
  return [...merged.values()].sort((a, b) => a.start.getTime() - b.start.getTime() || byKey(a.key, b.key));
}

type Period = { from: Date; to: Date; bucket: UsageBucket; groupBy?: UsageGrouping };

const rowOf = (row: { start: string; key: string | null; credits: number | string; calls: number | string }) => ({
  start: new Date(row.start),
  // The hourly sums write no operation and no token as '': the ledger's null.
  key: row.key === "" ? null : (row.key ?? null),
  credits: Number(row.credits),
  calls: Number(row.calls),
});

/** The columns every usage query selects first: its bucket's start and its key. */
function bucketAndKey(instant: AnyColumn, operation: AnyColumn, token: AnyColumn, { bucket, groupBy }: Period) {
  const start = sql<string>`date_trunc(${bucket}, ${instant} at time zone 'UTC')`;
  return {
    start: sql<string>`to_char(${start}, 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
    key: sql<string | null>`${groupBy === "operation" ? operation : groupBy === "token" ? token : sql`null`}`,
  };
}

/** Whole hours from usage_hourly, summed per bucket. */
async function hourlyRows(db: Database, organizationId: string, period: Period) {
  const { from, to } = period;
  const rows = await db
    .select({
      ...bucketAndKey(usageHourly.hour, usageHourly.operation, usageHourly.tokenId, period),
      credits: sql<number>`sum(${usageHourly.credits})::bigint`,
      calls: sql<number>`sum(${usageHourly.calls})::int`,
    })
    .from(usageHourly)
    .where(and(eq(usageHourly.organizationId, organizationId), gte(usageHourly.hour, from), lt(usageHourly.hour, to)))
    .groupBy(sql`1`, sql`2`);
  return rows.map(rowOf);
}

/** Debits in [from, to) read row by row from the ledger (the hour not yet over). */
async function ledgerRows(db: Database, organizationId: string, period: Period) {
  const { from, to } = period;
  const rows = await db
    .select({
      ...bucketAndKey(creditLedger.createdAt, creditLedger.operation, creditLedger.tokenId, period),
      credits: sql<number>`sum(-${creditLedger.amount})::int`,
      calls: sql<number>`count(*)::int`,
    })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.organizationId, organizationId),
        eq(creditLedger.kind, "debit"),
        gte(creditLedger.createdAt, from),
        lt(creditLedger.createdAt, to),
      ),
    )
    .groupBy(sql`1`, sql`2`);
  return rows.map(rowOf);
}

export interface DailyUsage {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  credits: number;
  calls: number;
}

/** Credits spent and metered calls per UTC day over the last `days` days, oldest first, gaps filled (the dashboard's chart). */
export async function usageByDay(db: Database, organizationId: string, days: number, now = new Date()) {
  const today = bucketStart(now, "day").getTime();
  const from = new Date(today - (days - 1) * BUCKET_MS.day);
  const rows = await usageRows(db, organizationId, { from, to: new Date(today + BUCKET_MS.day), bucket: "day" });
  const byDay = new Map(rows.map((row) => [row.start.toISOString().slice(0, 10), row]));
  return Array.from({ length: days }, (_, i): DailyUsage => {
    const day = new Date(from.getTime() + i * BUCKET_MS.day).toISOString().slice(0, 10);
    const found = byDay.get(day);
    return { day, credits: found?.credits ?? 0, calls: found?.calls ?? 0 };
  });
}
