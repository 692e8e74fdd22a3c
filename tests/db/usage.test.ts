/**
 * Usage read from the hourly sums (usage_hourly, added by debit_batch with each batch of debits)
 * and the ledger's own rows for the hour not yet over, against a real database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL). Every expected figure is summed here from credit_ledger by its
 * own query, so a sum the hourly table gets wrong, or a debit it misses, fails. Debits are made by
 * the real debit; earlier hours are made by moving an organization's ledger rows and sums back by
 * whole hours together, as if those debits had been made then.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/db/rows";
import { debitCredits } from "@/server/4-credits/credits";
import { BUCKET_MS, bucketStart, type UsageBucket, type UsageGrouping, usageRows } from "@/server/4-credits/usage";
import { createOrganization } from "@/server/4-organizations/organizations";
import { testDatabase } from "../helpers/database";

const database = testDatabase({ seeded: true });

const HOUR = BUCKET_MS.hour;

/** Everything of the organization `hours` earlier: its ledger rows and their hourly sums alike. */
async function moveBack(organizationId: string, hours: number) {
  await database.db.execute(sql`
    update credit_ledger set created_at = created_at - make_interval(hours => ${hours})
    where organization_id = ${organizationId}`);
  await database.db.execute(sql`
    update usage_hourly set hour = hour - make_interval(hours => ${hours})
    where organization_id = ${organizationId}`);
}

async function spend(organizationId: string, calls: [cost: number, operation: string, tokenId: string | null][]) {
  for (const [cost, operation, tokenId] of calls) {
    const result = await debitCredits(database.db, { organizationId, cost, operation, tokenId, requestId: "u" });
    expect(result.ok).toBe(true);
  }
}

/** The same figures summed by hand from the ledger: bucket start (ms), key, credits, calls. */
async function fromLedger(
  organizationId: string,
  { from, to, bucket, groupBy }: { from: Date; to: Date; bucket: UsageBucket; groupBy?: UsageGrouping },
) {
  const rows = await queryRows<{ at: string; operation: string | null; token_id: string | null; amount: number }>(
    database.db,
    sql`select created_at as at, operation, token_id, amount from credit_ledger
        where organization_id = ${organizationId} and kind = 'debit'
          and created_at >= ${from.toISOString()} and created_at < ${to.toISOString()}`,
  );
  const sums = new Map<string, { start: number; key: string | null; credits: number; calls: number }>();
  for (const row of rows) {
    const start = bucketStart(new Date(row.at), bucket).getTime();
    const key = groupBy === "operation" ? row.operation : groupBy === "token" ? row.token_id : null;
    const id = `${start} ${key}`;
    const sum = sums.get(id) ?? { start, key, credits: 0, calls: 0 };
    sum.credits += -Number(row.amount);
    sum.calls += 1;
    sums.set(id, sum);
  }
  return [...sums.values()].sort((a, b) => a.start - b.start || String(a.key).localeCompare(String(b.key)));
}

const asRows = (rows: Awaited<ReturnType<typeof usageRows>>) =>
  rows
    .map((r) => ({ start: r.start.getTime(), key: r.key, credits: r.credits, calls: r.calls }))
    .sort((a, b) => a.start - b.start || String(a.key).localeCompare(String(b.key)));

describe("usage from the hourly sums", () => {
  it("equals the ledger for every bucket and grouping, whole hours and the hour not yet over", async () => {
    const { id } = await createOrganization(database.db, { name: "Hourly", homeCountry: "DE", credits: 10_000 });
    const calls: [number, string, string | null][] = [
      [1, "readings.snapshot", "tok_a"],
      [2, "readings.delta", null],
      [3, "readings.snapshot", "tok_b"],
    ];
    // Three batches of debits moved back 76, 26 and 2 hours (no move ever lands on rows not yet
    // moved: the hourly sums' keys stay unique), then debits of the hour not yet over.
    for (const hours of [50, 24, 2]) {
      await spend(id, calls);
      await moveBack(id, hours);
    }
    await spend(id, [...calls, [3, "readings.servicemax", "tok_a"]]);
    const hourNow = bucketStart(new Date(), "hour").getTime();
    const to = new Date(Date.now() + 1000); // inside the current hour, after the debits
    for (const bucket of ["hour", "day"] as const)
      for (const groupBy of [undefined, "operation", "token"] as const)
        for (const end of [to, new Date(hourNow)]) {
          const from = bucketStart(new Date(hourNow - 90 * HOUR), bucket);
          const period = { from, to: end, bucket, groupBy };
          const expected = await fromLedger(id, period);
          expect(expected.length, `${bucket} ${groupBy} ${end.toISOString()}`).toBeGreaterThan(0);
          expect(asRows(await usageRows(database.db, id, period)), `${bucket} ${groupBy}`).toEqual(expected);
        }
    // A period that ends now reads the hour not yet over from its sum: the same figures.
    for (const groupBy of [undefined, "operation", "token"] as const) {
      const from = bucketStart(new Date(hourNow - 90 * HOUR), "day");
      const end = new Date();
      const expected = await fromLedger(id, { from, to: end, bucket: "day", groupBy });
      const got = await usageRows(database.db, id, { from, to: end, bucket: "day", groupBy, endsNow: true });
      expect(asRows(got), `ends now, ${groupBy}`).toEqual(expected);
    }
  });

  it("counts exactly N concurrent debits, no row lost or counted twice", async () => {
    const { id } = await createOrganization(database.db, { name: "Concurrent", homeCountry: "DE", credits: 1_000 });
    const N = 40;
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        debitCredits(database.db, {
          organizationId: id,
          cost: 2,
          operation: "readings.snapshot",
          tokenId: "tok_c",
          requestId: `c-${i}`,
        }),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    const [hourly] = await queryRows<{ credits: number; calls: number }>(
      database.db,
      sql`select sum(credits)::int as credits, sum(calls)::int as calls from usage_hourly where organization_id = ${id}`,
    );
    expect(hourly).toEqual({ credits: 2 * N, calls: N });
    const rows = await usageRows(database.db, id, {
      from: bucketStart(new Date(Date.now() - HOUR), "hour"),
      to: new Date(Date.now() + HOUR),
      bucket: "hour",
    });
    expect(rows.reduce((s, r) => s + r.calls, 0)).toBe(N);
    expect(rows.reduce((s, r) => s + r.credits, 0)).toBe(2 * N);
  });

  it("writes nothing to the hourly sums for grants and adjustments", async () => {
    const { id } = await createOrganization(database.db, { name: "Grants", homeCountry: "DE", credits: 50 });
    const [hourly] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from usage_hourly where organization_id = ${id}`,
    );
    expect(hourly?.n).toBe(0);
  });
});
