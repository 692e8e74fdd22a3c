/**
 * The in-memory caches of token holders and release pointers, on a real database with its change
 * feed listening: what this process changes is forgotten at once, what another connection changes
 * (raw SQL here, as another instance or the CLI would) once its NOTIFY arrives; without the feed
 * nothing is cached.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { announceChange, CHANGE_CHANNEL, ChangeAwareCache, cachesEnabled } from "@/db/change-feed";
import type { Database } from "@/db/client";
import { noteDatabaseFault } from "@/db/faults";
import { loadRelease } from "@/server/3-catalog/releases";
import { archiveMarket, publishGeographies, publishMarket } from "@/server/3-catalog/store";
import { serviceMetrics } from "@/server/3-observability/metrics";
import { authenticateSecret, createApiToken, revokeApiToken, TOKEN_SCOPES } from "@/server/4-api-access/tokens";
import { changeCredits, readBalance } from "@/server/4-credits/credits";
import { addMember, removeMember } from "@/server/4-organizations/members";
import { createOrganization } from "@/server/4-organizations/organizations";
import { listenForChanges } from "@/server/5-database/app-database";
import { createApiContext } from "@/server/7-procedures/context";
import { createCaller } from "@/server/7-routers/root";
import { addPerson } from "../helpers/accounts";
import { createTestDatabase, type TestDatabase, testDatabase } from "../helpers/database";
import { fixtureGeographies, fixtureMarket } from "../helpers/fixtures";
import { parseExposition, sample } from "../helpers/metrics";

/**
 * Resolves once every NOTIFY sent before the call has reached this process. A channel's
 * notifications arrive in commit order on the one listening connection, so when a marker sent now
 * comes back, none sent earlier is still on its way to forget a cache a test has just filled.
 */
async function feedCaughtUp(database: TestDatabase): Promise<void> {
  const marker = `caught-up-${Math.random().toString(36).slice(2)}`;
  let heard!: () => void;
  const arrived = new Promise<void>((resolve) => {
    heard = resolve;
  });
  const unlisten = await database.listen?.(
    CHANGE_CHANNEL,
    (payload) => payload === marker && heard(),
    () => {},
  );
  await database.db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${marker})`);
  await arrived;
  await unlisten?.();
}

const publish = (database: TestDatabase, notes: string) =>
  publishMarket(database.db, "m.yaml", fixtureMarket(), { notes, material: false, publishedAt: new Date() });

describe("caches behind the change feed", () => {
  const database = testDatabase();
  let marketId: string;

  beforeAll(async () => {
    await publishGeographies(database.db, "geographies.yaml", fixtureGeographies());
    marketId = (await publish(database, "first")).marketId;
  });

  it("caches nothing for a database whose feed does not listen", async () => {
    expect(cachesEnabled(database.db)).toBe(false);
    await listenForChanges(database);
    expect(cachesEnabled(database.db)).toBe(true);
  });

  it("refuses a token revoked here at once, and one revoked elsewhere once notified", async () => {
    const org = await createOrganization(database.db, { name: "Cached", homeCountry: "XA", credits: 100 });
    const first = await createApiToken(database.db, { organizationId: org.id, name: "a", scopes: TOKEN_SCOPES });
    const second = await createApiToken(database.db, { organizationId: org.id, name: "b", scopes: TOKEN_SCOPES });
    for (const { secret } of [first, second]) expect((await authenticateSecret(database.db, secret)).ok).toBe(true);

    await revokeApiToken(database.db, org.id, first.token.id);
    expect(await authenticateSecret(database.db, first.secret)).toEqual({
      ok: false,
      reason: "The bearer token was revoked.",
    });

    // As another process would: straight to the table, past this process's code.
    await database.db.execute(sql`update api_tokens set revoked_at = now() where id = ${second.token.id}`);
    await expect
      .poll(async () => (await authenticateSecret(database.db, second.secret)).ok, { timeout: 5000 })
      .toBe(false);
  });

  it("refuses at once the tokens of a person removed from the organization", async () => {
    const org = await createOrganization(database.db, { name: "Team cache", homeCountry: "XA", credits: 100 });
    const member = await addPerson(database.db, { email: "cached-member@example.com", verified: false });
    await addMember(database.db, { organizationId: org.id, userId: member.id, role: "member" });
    const theirs = await createApiToken(database.db, {
      organizationId: org.id,
      name: "theirs",
      scopes: TOKEN_SCOPES,
      createdByUserId: member.id,
    });
    expect((await authenticateSecret(database.db, theirs.secret)).ok).toBe(true); // now cached
    await removeMember(database.db, { organizationId: org.id, userId: member.id });
    // Other instances hear of it through api_tokens' trigger, as of any revocation (the test above).
    expect(await authenticateSecret(database.db, theirs.secret)).toEqual({
      ok: false,
      reason: "The bearer token was revoked.",
    });
  });

  it("asks again about a token a lookup did not find while the database was faulting", async () => {
    const org = await createOrganization(database.db, { name: "Faulting", homeCountry: "XA", credits: 10 });
    const { secret } = await createApiToken(database.db, { organizationId: org.id, name: "f", scopes: TOKEN_SCOPES });
    // As postgres.js answered once under killed connections: the next lookup comes back with no rows.
    const answeringNothingOnce = () => {
      let answered = false;
      return new Proxy(database.db, {
        get(target, key, receiver) {
          if (key !== "select" || answered) return Reflect.get(target, key, receiver);
          answered = true;
          const nothing = { from: () => nothing, innerJoin: () => nothing, where: () => Promise.resolve([]) };
          return () => nothing;
        },
      }) as Database;
    };
    noteDatabaseFault(Date.now() - 60_000);
    expect(await authenticateSecret(answeringNothingOnce(), secret)).toEqual({
      ok: false,
      reason: "The bearer token is not known.",
    });
    noteDatabaseFault();
    expect((await authenticateSecret(answeringNothingOnce(), secret)).ok).toBe(true);
    noteDatabaseFault(Date.now() - 60_000);
  });

  it("sees a grant at once, whatever balance a cached holder carried", async () => {
    const org = await createOrganization(database.db, { name: "Granted", homeCountry: "XA", credits: 0 });
    const { secret } = await createApiToken(database.db, { organizationId: org.id, name: "g", scopes: TOKEN_SCOPES });
    const before = await authenticateSecret(database.db, secret);
    expect(before.ok && before.holder.creditBalance).toBe(0);
    await changeCredits(database.db, { organizationId: org.id, kind: "grant", amount: 50 });
    const after = await authenticateSecret(database.db, secret);
    expect(after.ok && after.holder.creditBalance).toBe(50);
  });

  it("moves to a release published here at once, and drops a market archived elsewhere once notified", async () => {
    const latest = (await loadRelease(database.db, marketId))?.data.release;
    const next = await publish(database, "second");
    expect(next.release).toBe((latest ?? 0) + 1);
    expect((await loadRelease(database.db, marketId))?.data.release).toBe(next.release);

    await archiveMarket(database.db, marketId);
    expect(await loadRelease(database.db, marketId)).toBeUndefined();
    await database.db.execute(
      sql`update markets set status = 'listed', archived_at = null where market_id = ${marketId}`,
    );
    await expect
      .poll(async () => (await loadRelease(database.db, marketId))?.data.release, { timeout: 5000 })
      .toBe(next.release);
  });

  it("keeps the geographies list until geographies change here or elsewhere", async () => {
    const org = await createOrganization(database.db, { name: "Lists", homeCountry: "XA", credits: 100 });
    const api = createCaller(
      createApiContext({
        db: database.db,
        headers: new Headers(),
        requestId: "test",
        origin: "http://localhost",
        authenticate: async () => ({
          via: "api-token",
          credentialId: null,
          userId: null,
          organization: { id: org.id, homeCountry: "XA", creditBalance: 100, rateLimit: null },
          scopes: TOKEN_SCOPES,
          metered: true,
        }),
      }),
    );
    const names = async () =>
      (await api.geographies.list({ detail: "ids" })).geographies.map((g) => `${g.country} ${g.name}`);
    // The test before changed a market past this process: its NOTIFY may still be on its way.
    await feedCaughtUp(database);
    const first = await api.geographies.list({ detail: "ids" });
    expect(await api.geographies.list({ detail: "ids" })).toBe(first); // kept: the same frozen answer
    expect(Object.isFrozen(first)).toBe(true);
    const country = first.geographies[0]?.country as string;

    // As another process would: straight to the table; the trigger's NOTIFY makes it forget.
    await database.db.execute(sql`update geographies set name = 'Renamed' where country = ${country}`);
    await expect.poll(names, { timeout: 5000 }).toContain(`${country} Renamed`);
    await publishGeographies(database.db, "geographies.yaml", fixtureGeographies());
    expect(await names()).not.toContain(`${country} Renamed`); // this process's own change: at once
  });

  it("reads balances together and each as it is when asked", async () => {
    const orgs = await Promise.all(
      [10, 20, 30].map((credits, i) =>
        createOrganization(database.db, { name: `Balance ${i}`, homeCountry: "XA", credits }),
      ),
    );
    const reads = await Promise.all(
      orgs.flatMap((org) => [readBalance(database.db, org.id), readBalance(database.db, org.id)]),
    );
    expect(reads).toEqual([10, 10, 20, 20, 30, 30]);
    await changeCredits(database.db, { organizationId: orgs[0]?.id as string, kind: "grant", amount: 5 });
    expect(await readBalance(database.db, orgs[0]?.id as string)).toBe(15);
    await expect(readBalance(database.db, "org_missing")).rejects.toThrow(/no organization/);
  });
});

describe("ChangeAwareCache", () => {
  it("does not store what was read before its topic changed", async () => {
    const database = await createTestDatabase();
    try {
      await listenForChanges(database);
      const cache = new ChangeAwareCache<string>("catalogue");
      const begun = cache.begin();
      announceChange("catalogue"); // a change lands while the value is being read
      cache.set(database.db, "k", "stale", begun);
      expect(cache.get(database.db, "k")).toBeUndefined();
      cache.set(database.db, "k", "fresh", cache.begin());
      expect(cache.get(database.db, "k")).toBe("fresh");
      announceChange("credentials");
      expect(cache.get(database.db, "k")).toBe("fresh");
      announceChange("catalogue");
      expect(cache.get(database.db, "k")).toBeUndefined();
    } finally {
    }
  });

  it("counts its hits and misses under its name, only while caches are on", async () => {
    const database = await createTestDatabase();
    const counts = async () => {
      const samples = parseExposition(await serviceMetrics().text());
      return [
        sample(samples, "mps_cache_hits_total", { cache: "test-lookups" }) ?? 0,
        sample(samples, "mps_cache_misses_total", { cache: "test-lookups" }) ?? 0,
      ];
    };
    try {
      const cache = new ChangeAwareCache<string>("catalogue", { name: "test-lookups" });
      cache.get(database.db, "k"); // the feed does not listen yet: no cache, nothing counted
      expect(await counts()).toEqual([0, 0]);
      await listenForChanges(database);
      expect(cache.get(database.db, "k")).toBeUndefined();
      cache.set(database.db, "k", "v", cache.begin());
      expect(cache.get(database.db, "k")).toBe("v");
      expect(cache.get(database.db, "k")).toBe("v");
      expect(await counts()).toEqual([2, 1]);
    } finally {
    }
  });
});
