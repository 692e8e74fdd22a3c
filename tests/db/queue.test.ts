/**
 * The job queue on the service's own database (PGlite here, PostgreSQL under TEST_DATABASE_URL):
 * pg-boss through our executor, each job run by exactly one of several workers, jobs kept across a
 * restart of the queue; and the OAuth clean-up jobs' rules.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type PgBoss from "pg-boss";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/rows";
import { oauthRecords } from "@/db/schema";
import { sqlExecutor, startQueue } from "@/server/3-queue/queue";
import { expireUnusedRegistrations } from "@/server/4-api-access/oauth-records";
import { testDatabase } from "../helpers/database";

const database = testDatabase();
const started: PgBoss[] = [];
afterAll(async () => {
  for (const boss of started) await boss.stop({ graceful: false, wait: true }).catch(() => {});
});

async function queue(work = true) {
  const boss = await startQueue(database, { work });
  started.push(boss);
  return boss;
}

const until = async (check: () => Promise<boolean> | boolean, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("the executor", () => {
  it("runs a parameterised statement and several statements at once", async () => {
    const execute = sqlExecutor(database);
    expect((await execute("select $1::int + 1 as n", [41])).rows).toEqual([{ n: 42 }]);
    expect((await execute("select 1 as a; select 2 as b")).rows).toEqual([{ b: 2 }]);
  });
});

describe("the queue", () => {
  it("runs each job exactly once across several workers", async () => {
    const name = `count-${randomUUID()}`;
    const [first, second] = [await queue(), await queue()];
    await first.createQueue(name);
    const seen: string[] = [];
    for (const boss of [first, second])
      await boss.work(name, { pollingIntervalSeconds: 0.5, batchSize: 3 }, async (jobs) => {
        for (const job of jobs) seen.push((job.data as { n: string }).n);
      });
    const sent = Array.from({ length: 40 }, (_, i) => String(i));
    for (const n of sent) await first.send(name, { n });
    await until(() => seen.length >= sent.length);
    await new Promise((r) => setTimeout(r, 1500)); // a second run would show up here
    expect([...seen].sort()).toEqual([...sent].sort());
  });

  it("keeps a job sent while no worker runs, for the next one that starts", async () => {
    const name = `later-${randomUUID()}`;
    const sender = await queue(false);
    await sender.createQueue(name);
    await sender.send(name, { hello: "later" });
    await sender.stop({ graceful: true, wait: true });
    const worker = await queue();
    const seen: unknown[] = [];
    await worker.work(name, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      seen.push(job?.data);
    });
    await until(() => seen.length === 1);
    expect(seen).toEqual([{ hello: "later" }]);
  });
});

describe("expiring unused registrations", () => {
  const issuedHoursAgo = (hours: number) => Math.floor(Date.now() / 1000 - hours * 3600);
  const client = (id: string, hoursAgo: number) => ({
    model: "Client",
    id,
    payload: { client_id: id, client_id_issued_at: issuedHoursAgo(hoursAgo) },
  });

  it("deletes registrations older than the period that no grant or token names, and only those", async () => {
    await database.db
      .insert(oauthRecords)
      .values([
        client("old-unused", 30),
        client("old-used", 30),
        client("new-unused", 2),
        { model: "Grant", id: "g1", grantId: "g1", payload: { clientId: "old-used", accountId: "u" } },
      ]);
    expect(await expireUnusedRegistrations(database.db, 24)).toBe(1);
    const left = await queryRows<{ id: string }>(
      database.db,
      sql`select id from oauth_records where model = 'Client' order by id`,
    );
    expect(left.map((row) => row.id)).toEqual(["new-unused", "old-used"]);
    expect(await expireUnusedRegistrations(database.db, 24)).toBe(0);
  });
});
