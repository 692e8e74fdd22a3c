/**
 * Abuse throttles counted in the database (no Redis): sign-in mails per address and per client,
 * registrations per client; shared by every instance on the database; old counters swept.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/rows";
import { sweepThrottleCounters, THROTTLES, throttle, throttled } from "@/server/3-limits/throttles";
import { testDatabase } from "../helpers/database";

const database = testDatabase();
beforeAll(async () => {
  delete process.env.REDIS_URL;
});

/** Forget this process's limiters, as a second instance would start without them. */
const asAnotherInstance = () => {
  (globalThis as { __mpsThrottles?: unknown }).__mpsThrottles = undefined;
};

describe("sign-in mails", () => {
  it("allow five per address in ten minutes, then say how long to wait", async () => {
    const attempt = () => throttle(database.db, [[THROTTLES.signInPerAddress, "Victim@Example.com"]]);
    for (let i = 0; i < THROTTLES.signInPerAddress.points; i++) expect(await attempt()).toEqual({ allowed: true });
    const refused = await attempt();
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThan(500);
    // Case and spaces do not make a new address; another address is untouched.
    expect((await throttle(database.db, [[THROTTLES.signInPerAddress, " victim@example.COM "]])).allowed).toBe(false);
    expect((await throttle(database.db, [[THROTTLES.signInPerAddress, "other@example.com"]])).allowed).toBe(true);
  });

  it("say beforehand whether one more would be refused, counting nothing", async () => {
    const address = "peek@example.com";
    const rules = (client: string | null): Parameters<typeof throttled>[1] => [
      [THROTTLES.signInPerAddress, address],
      [THROTTLES.signInPerClient, client],
    ];
    // Asking a hundred times counts nothing: the five links are all still there.
    for (let i = 0; i < 100; i++)
      expect(await throttled(database.db, rules("198.51.100.1"))).toEqual({ allowed: true });
    for (let i = 0; i < THROTTLES.signInPerAddress.points; i++)
      expect((await throttle(database.db, rules(null))).allowed).toBe(true);
    const verdict = await throttled(database.db, rules("198.51.100.1"));
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) {
      expect(verdict.retryAfterSeconds).toBeGreaterThan(500);
      expect(verdict.retryAfterSeconds).toBeLessThanOrEqual(THROTTLES.signInPerAddress.durationSeconds);
    }
    // Another address from the same client is not refused.
    expect(await throttled(database.db, [[THROTTLES.signInPerAddress, "peek-other@example.com"]])).toEqual({
      allowed: true,
    });
  });

  it("count across instances sharing the database", async () => {
    const address = "shared@example.com";
    for (let i = 0; i < 3; i++) await throttle(database.db, [[THROTTLES.signInPerAddress, address]]);
    asAnotherInstance();
    for (let i = 0; i < 2; i++)
      expect((await throttle(database.db, [[THROTTLES.signInPerAddress, address]])).allowed).toBe(true);
    asAnotherInstance();
    expect((await throttle(database.db, [[THROTTLES.signInPerAddress, address]])).allowed).toBe(false);
  });

  it("keep no address in the store, only its hash", async () => {
    const keys = await queryRows<{ key: string }>(database.db, sql`select key from throttle_counters`);
    expect(keys.length).toBeGreaterThan(0);
    for (const { key } of keys) expect(key).not.toMatch(/@/);
  });

  it("count every rule even when one refuses, and skip a rule whose key is unknown", async () => {
    const client = "203.0.113.9";
    for (let i = 0; i < 6; i++)
      await throttle(database.db, [
        [THROTTLES.signInPerAddress, "many@example.com"],
        [THROTTLES.signInPerClient, client],
      ]);
    const counted = await queryRows<{ points: number }>(
      database.db,
      sql`select points from throttle_counters where key like 'mps:throttle:signin-client:%'`,
    );
    expect(counted.map((row) => Number(row.points))).toEqual([6]);
    expect(await throttle(database.db, [[THROTTLES.signInPerClient, null]])).toEqual({ allowed: true });
  });
});

describe("client registrations", () => {
  it("allow a burst of twenty a minute from one client address, not more", async () => {
    const verdicts = [];
    for (let i = 0; i < 25; i++)
      verdicts.push(
        (
          await throttle(database.db, [
            [THROTTLES.registrationBurstPerClient, "198.51.100.7"],
            [THROTTLES.registrationDailyPerClient, "198.51.100.7"],
          ])
        ).allowed,
      );
    expect(verdicts.filter(Boolean)).toHaveLength(THROTTLES.registrationBurstPerClient.points);
    expect(verdicts.slice(20).every((allowed) => !allowed)).toBe(true);
  });
});

describe("sweeping", () => {
  it("deletes counters whose window ended over an hour ago", async () => {
    await database.db.execute(
      sql`insert into throttle_counters (key, points, expire) values ('old', 1, now() - interval '2 hours'), ('recent', 1, now() - interval '5 minutes')`,
    );
    expect(await sweepThrottleCounters(database.db)).toBe(1);
    const left = await queryRows<{ key: string }>(
      database.db,
      sql`select key from throttle_counters where key in ('old', 'recent')`,
    );
    expect(left.map((row) => row.key)).toEqual(["recent"]);
  });
});
