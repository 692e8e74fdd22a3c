/**
 * An organization's usage read from its credits ledger: the credits spent and the metered calls
 * over a period, per UTC day or hour, optionally per operation or per token. Every figure is a sum
 * of ledger rows (debits), so usage adds up to the ledger to the credit.
 */
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { creditLedger, organizations } from "../../db/schema";

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
  { from, to, bucket, groupBy }: { from: Date; to: Date; bucket: UsageBucket; groupBy?: UsageGrouping },
): Promise<UsageRow[]> {
  const start = sql<string>`date_trunc(${bucket}, ${creditLedger.createdAt} at time zone 'UTC')`;
  const key =
    groupBy === "operation"
      ? sql<string | null>`${creditLedger.operation}`
      : groupBy === "token"
        ? sql<string | null>`${creditLedger.tokenId}`
        : sql<string | null>`null`;
  const rows = await db
    .select({
      start: sql<string>`to_char(${start}, 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
      key,
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
    .groupBy(sql`1`, sql`2`)
    .orderBy(sql`1`, sql`2`);
  return rows.map((row) => ({
    start: new Date(row.start),
    key: row.key ?? null,
    credits: Number(row.credits),
    calls: Number(row.calls),
  }));
}

/** The organization's name and balance now. */
export async function organizationAccount(db: Database, organizationId: string) {
  const [row] = await db
    .select({
      name: organizations.name,
      homeCountry: organizations.homeCountry,
      balance: organizations.creditBalance,
      rateLimit: organizations.rateLimit,
      createdAt: organizations.createdAt,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row;
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
