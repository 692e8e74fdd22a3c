/**
 * Accounts against a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): token storage
 * and checks, the credits ledger under concurrent debits, organizations, the dashboard's tRPC
 * procedures across organizations (through a server-side caller), and the operator CLI.
 */

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/db/rows";
import { authenticateSecret, createApiToken, revokeApiToken } from "@/server/4-api-access/tokens";
import { changeCredits, creditBalance, debitCredits, ledgerPage } from "@/server/4-credits/credits";
import { usageByDay } from "@/server/4-credits/usage";
import { createOrganization } from "@/server/4-organizations/organizations";
import { addPerson } from "../helpers/accounts";
import { runOps } from "../helpers/cli";
import { dashboardCallerAs, testDatabase } from "../helpers/database";

const database = testDatabase({ seeded: true });

const SCOPE = "Market.Read.All" as const;
const org = (name: string, credits = 100, homeCountry = "DE") =>
  createOrganization(database.db, { name, homeCountry, credits });

async function newUser(email: string): Promise<string> {
  return (await addPerson(database.db, { email })).id;
}

const dashboardAs = (userId: string) => dashboardCallerAs(database.db, userId);

describe("API tokens", () => {
  it("stores only the SHA-256 of the secret and a short display prefix", async () => {
    const { id } = await org("Hashing");
    const { token, secret } = await createApiToken(database.db, { organizationId: id, name: "ci", scopes: [SCOPE] });
    expect(secret).toMatch(/^mps_[A-Za-z0-9_-]{43}$/);
    const rows = await queryRows<Record<string, unknown>>(
      database.db,
      sql`select * from api_tokens where id = ${token.id}`,
    );
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(4)); // nor the random part alone
    expect(rows[0]?.secret_hash).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(rows[0]?.display_prefix).toBe(secret.slice(0, 12));
  });

  it("authenticates until expiry or revocation, and refuses malformed or unknown secrets", async () => {
    const { id } = await org("Lifecycle", 42, "FR");
    const expiresAt = new Date("2030-01-01T00:00:00Z");
    const { token, secret } = await createApiToken(database.db, {
      organizationId: id,
      name: "t",
      scopes: [],
      expiresAt,
    });
    const before = await authenticateSecret(database.db, secret, new Date("2029-12-31T23:59:59Z"));
    expect(before).toEqual({
      ok: true,
      holder: {
        tokenId: token.id,
        organizationId: id,
        scopes: [],
        homeCountry: "FR",
        creditBalance: 42,
        rateLimit: null,
      },
    });
    expect(await authenticateSecret(database.db, secret, expiresAt)).toEqual({
      ok: false,
      reason: "The bearer token has expired.",
    });
    expect((await authenticateSecret(database.db, `${secret.slice(0, -1)}x`)).ok).toBe(false);
    expect(await authenticateSecret(database.db, "mps_short")).toEqual({
      ok: false,
      reason: "The bearer token is malformed.",
    });
    expect(await revokeApiToken(database.db, id, token.id)).toBe(true);
    expect(await revokeApiToken(database.db, id, token.id)).toBe(false); // once
    expect(await authenticateSecret(database.db, secret, new Date("2029-01-01T00:00:00Z"))).toEqual({
      ok: false,
      reason: "The bearer token was revoked.",
    });
  });

  it("records when a token was last used, at most once a minute", async () => {
    const { id } = await org("Last used");
    const { token, secret } = await createApiToken(database.db, { organizationId: id, name: "t", scopes: [SCOPE] });
    const lastUsed = async () =>
      (
        await queryRows<{ last_used_at: string | Date | null }>(
          database.db,
          sql`select last_used_at from api_tokens where id = ${token.id}`,
        )
      )[0]?.last_used_at;
    expect(await lastUsed()).toBeNull();
    await authenticateSecret(database.db, secret, new Date("2027-01-01T10:00:00Z"));
    expect(new Date((await lastUsed()) as string).toISOString()).toBe("2027-01-01T10:00:00.000Z");
    await authenticateSecret(database.db, secret, new Date("2027-01-01T10:00:30Z"));
    expect(new Date((await lastUsed()) as string).toISOString()).toBe("2027-01-01T10:00:00.000Z");
    await authenticateSecret(database.db, secret, new Date("2027-01-01T10:01:00Z"));
    expect(new Date((await lastUsed()) as string).toISOString()).toBe("2027-01-01T10:01:00.000Z");
  });
});

describe("credits", () => {
  const ledgerSum = async (organizationId: string) =>
    Number(
      (
        await queryRows<{ sum: number }>(
          database.db,
          sql`select coalesce(sum(amount), 0)::int as sum from credit_ledger where organization_id = ${organizationId}`,
        )
      )[0]?.sum,
    );

  it("starts an organization with its grant as the first ledger row", async () => {
    const { id, creditBalance: balance } = await org("Granted", 250);
    expect(balance).toBe(250);
    const { entries } = await ledgerPage(database.db, id, { limit: 10 });
    expect(entries).toEqual([
      expect.objectContaining({ kind: "grant", amount: 250, balanceAfter: 250, note: "starting grant" }),
    ]);
  });

  it("debits exactly as many concurrent calls as the balance pays for, never below zero", async () => {
    const { id } = await org("Concurrent", 60); // twelve 5-credit calls
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        debitCredits(database.db, {
          organizationId: id,
          cost: 5,
          operation: "readings.snapshot",
          tokenId: null,
          requestId: `r${i}`,
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(12);
    expect(results.filter((r) => !r.ok).every((r) => r.balance === 0)).toBe(true);
    expect(await creditBalance(database.db, id)).toBe(0);
    expect(await ledgerSum(id)).toBe(0);
    // Each successful debit saw a distinct balance: 55, 50, …, 0.
    const after = results
      .filter((r) => r.ok)
      .map((r) => r.balance)
      .sort((a, b) => b - a);
    expect(after).toEqual([55, 50, 45, 40, 35, 30, 25, 20, 15, 10, 5, 0]);
  });

  it("debits a batch of calls in arrival order, each checked against what is left (group commit)", async () => {
    const a = await org("Batch A", 8);
    const b = await org("Batch B", 4);
    // Issued in one tick, so they are written by one statement; each is judged as if alone, in
    // order: A 5 (8→3), A 5 refused (3 left), B 3 (4→1), A 3 (3→0), B 2 refused (1 left), A 2 refused.
    const calls: [string, number][] = [
      [a.id, 5],
      [a.id, 5],
      [b.id, 3],
      [a.id, 3],
      [b.id, 2],
      [a.id, 2],
    ];
    const results = await Promise.all(
      calls.map(([organizationId, cost], i) =>
        debitCredits(database.db, { organizationId, cost, operation: "op", tokenId: null, requestId: `batch-${i}` }),
      ),
    );
    expect(results).toEqual([
      { ok: true, balance: 3 },
      { ok: false, balance: 3 },
      { ok: true, balance: 1 },
      { ok: true, balance: 0 },
      { ok: false, balance: 1 },
      { ok: false, balance: 0 },
    ]);
    expect([await creditBalance(database.db, a.id), await ledgerSum(a.id)]).toEqual([0, 0]);
    expect([await creditBalance(database.db, b.id), await ledgerSum(b.id)]).toEqual([1, 1]);
  });

  it("fails every call of a batch that cannot be written, and writes none of them", async () => {
    const a = await org("Batch C", 100);
    const results = await Promise.allSettled([
      debitCredits(database.db, { organizationId: a.id, cost: 5, operation: "op", tokenId: null, requestId: "ok-1" }),
      // A cost the integer column cannot hold makes the statement fail as a whole.
      debitCredits(database.db, {
        organizationId: a.id,
        cost: 2 ** 40,
        operation: "op",
        tokenId: null,
        requestId: "x",
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect([await creditBalance(database.db, a.id), await ledgerSum(a.id)]).toEqual([100, 100]);
  });

  it("grants and adjusts with a ledger row each, never below zero", async () => {
    const { id } = await org("Adjusted", 10);
    expect(await changeCredits(database.db, { organizationId: id, kind: "grant", amount: 15 })).toBe(25);
    expect(
      await changeCredits(database.db, { organizationId: id, kind: "adjustment", amount: -20, note: "refund" }),
    ).toBe(5);
    await expect(
      changeCredits(database.db, { organizationId: id, kind: "adjustment", amount: -6, note: "x" }),
    ).rejects.toThrow(/below zero/);
    await expect(changeCredits(database.db, { organizationId: id, kind: "grant", amount: -1 })).rejects.toThrow(
      /positive/,
    );
    await expect(changeCredits(database.db, { organizationId: "org_none", kind: "grant", amount: 1 })).rejects.toThrow(
      /no organization/,
    );
    expect(await creditBalance(database.db, id)).toBe(5);
    expect(await ledgerSum(id)).toBe(5);
    const page1 = await ledgerPage(database.db, id, { limit: 2 });
    expect(page1.entries.map((e) => [e.kind, e.amount])).toEqual([
      ["adjustment", -20],
      ["grant", 15],
    ]);
    const page2 = await ledgerPage(database.db, id, { before: page1.nextBefore ?? 0, limit: 2 });
    expect(page2.entries.map((e) => [e.kind, e.amount])).toEqual([["grant", 10]]);
    expect(page2.nextBefore).toBeNull();
  });

  it("sums usage per UTC day with empty days filled", async () => {
    const { id } = await org("Usage", 100);
    for (const cost of [5, 3])
      await debitCredits(database.db, { organizationId: id, cost, operation: "x", tokenId: null, requestId: "u" });
    const usage = await usageByDay(database.db, id, 3, new Date());
    expect(usage).toHaveLength(3);
    expect(usage.slice(0, 2).map((d) => d.credits)).toEqual([0, 0]);
    expect(usage[2]).toEqual({ day: new Date().toISOString().slice(0, 10), credits: 8, calls: 2 });
  });
});

describe("organizations and isolation through the dashboard procedures", () => {
  it("refuses an unknown home country and makes the first organization active", async () => {
    const userId = await newUser("owner@example.com");
    await expect(
      createOrganization(database.db, { name: "Nowhere", homeCountry: "ZZ", ownerUserId: userId }),
    ).rejects.toThrow(/not a known geography/);
    const dashboard = await dashboardAs(userId);
    expect(await dashboard.organizations.list()).toEqual({
      activeId: null,
      organizations: [],
      next: { credits: 1000, remaining: 5 },
    });
    await expect(dashboard.tokens.list()).rejects.toMatchObject({ problemCode: "organization_required" });
    const created = await dashboard.organizations.create({ name: "Owner AG", homeCountry: "ch" });
    expect(created).toMatchObject({ homeCountry: "CH", creditBalance: 1000 });
    const again = await dashboardAs(userId);
    expect((await again.organizations.list()).activeId).toBe(created.id);
  });

  it("keeps each organization's tokens, ledger and usage to its own members", async () => {
    const alice = await newUser("alice@example.com");
    const bob = await newUser("bob@example.com");
    const aliceOrg = await (await dashboardAs(alice)).organizations.create({ name: "Alice Ltd", homeCountry: "FR" });
    const bobOrg = await (await dashboardAs(bob)).organizations.create({ name: "Bob BV", homeCountry: "NL" });
    const asAlice = await dashboardAs(alice);
    const asBob = await dashboardAs(bob);
    const bobToken = await asBob.tokens.create({ name: "bob's", scopes: [SCOPE] });
    await debitCredits(database.db, {
      organizationId: bobOrg.id,
      cost: 7,
      operation: "readings.snapshot",
      tokenId: bobToken.token.id,
      requestId: "b",
    });

    expect((await asAlice.tokens.list()).map((t) => t.id)).not.toContain(bobToken.token.id);
    await expect(asAlice.tokens.revoke({ tokenId: bobToken.token.id })).rejects.toMatchObject({
      problemCode: "not_found",
    });
    expect((await authenticateSecret(database.db, bobToken.secret)).ok).toBe(true);
    const aliceLedger = await asAlice.credits.ledger({ limit: 100 });
    expect(aliceLedger.entries.map((e) => e.amount)).toEqual([1000]);
    expect((await asAlice.credits.usage({ days: 1 }))[0]?.credits).toBe(0);
    expect((await asBob.credits.usage({ days: 1 }))[0]?.credits).toBe(7);
    expect(await asAlice.credits.summary()).toMatchObject({ balance: 1000 });
    await expect(asAlice.organizations.switch({ organizationId: bobOrg.id })).rejects.toMatchObject({
      problemCode: "not_found",
    });
    expect((await asAlice.organizations.list()).organizations.map((o) => o.id)).toEqual([aliceOrg.id]);
  });
});

describe("ops org, token and credits", () => {
  const ops = async (...argv: string[]) => {
    const { code, out, stderr } = await runOps(database, argv);
    return { code, out, err: stderr };
  };

  it("creates an organization, a token and credits, each printing its result last", async () => {
    const created = await ops("org", "create", "--name", "Scripted", "--country", "at", "--credits", "30");
    expect(created.code).toBe(0);
    const orgId = created.out.at(-1) ?? "";
    expect(orgId).toMatch(/^org_[0-9a-f]{24}$/);
    const token = await ops(
      "token",
      "create",
      "--org",
      orgId,
      "--name",
      "ci",
      "--scope",
      SCOPE,
      "--expires-in-days",
      "2",
    );
    expect(token.code).toBe(0);
    const secret = token.out.at(-1) ?? "";
    const check = await authenticateSecret(database.db, secret, new Date("2026-06-02T12:00:00Z"));
    expect(check).toMatchObject({ ok: true, holder: { organizationId: orgId, scopes: [SCOPE], homeCountry: "AT" } });
    expect((await authenticateSecret(database.db, secret, new Date("2026-06-03T12:00:00Z"))).ok).toBe(false);
    const noScope = await ops("token", "create", "--org", orgId, "--name", "bare");
    expect((await authenticateSecret(database.db, noScope.out.at(-1) ?? "")).ok && true).toBe(true);
    expect(await ops("credits", "grant", "--org", orgId, "--amount", "12")).toMatchObject({ code: 0, out: ["42"] });
    expect(await ops("credits", "adjust", "--org", orgId, "--amount", "-40", "--note", "goodwill")).toMatchObject({
      code: 0,
      out: ["2"],
    });
    expect(await ops("credits", "balance", "--org", orgId)).toMatchObject({ code: 0, out: ["2"] });
  });

  it("refuses bad words with exit 2 and bad state with exit 1, writing nothing", async () => {
    const cases: [string[], number, RegExp][] = [
      [["org", "create", "--country", "DE"], 2, /--name is required/],
      [["org", "create", "--name", "X", "--country", "ZZ"], 1, /not a known geography/],
      [["org", "create", "--name", "X", "--country", "DE", "--credits", "-5"], 2, /--credits must be a whole number/],
      [["token", "create", "--org", "org_missing", "--name", "x"], 1, /no organization "org_missing"/],
      [["token", "create", "--org", "org_demo", "--name", "x", "--scope", "Admin"], 2, /unknown scope "Admin"/],
      [["credits", "grant", "--org", "org_demo", "--amount", "0"], 2, /--amount must be a whole number ≥ 1/],
      [["credits", "grant", "--org", "org_demo", "--amount", "1.5"], 2, /--amount must be a whole number/],
      [["credits", "adjust", "--org", "org_demo", "--amount", "-5"], 2, /--note is required/],
      [["credits", "adjust", "--org", "org_demo", "--amount", "-999999", "--note", "x"], 1, /below zero/],
      [["credits", "balance", "--org", "org_nope"], 1, /no organization/],
      [["credits", "spend"], 2, /unknown command "credits spend"/],
    ];
    const before = await creditBalance(database.db, "org_demo");
    for (const [argv, code, message] of cases) {
      const result = await ops(...argv);
      expect({ argv, code: result.code }).toEqual({ argv, code });
      expect(result.err).toMatch(message);
    }
    expect(await creditBalance(database.db, "org_demo")).toBe(before);
  });

  it("works as `npm run --silent ops` in a real process, the last line being the result", async () => {
    const run = promisify(execFile);
    const dataDir = mkdtempSync(path.join(tmpdir(), "mps-ops-"));
    const env = {
      ...process.env,
      ...(database.url ? { DATABASE_URL: database.url } : { DATABASE_URL: "", DATA_DIR: dataDir }),
    };
    const npm = (...argv: string[]) =>
      run("npm", ["run", "--silent", "ops", "--", ...argv], { cwd: path.resolve(import.meta.dirname, "../.."), env });
    try {
      if (!database.url) await npm("catalog", "publish", "db/demo/geographies.yaml");
      const orgId =
        (await npm("org", "create", "--name", "Process", "--country", "SE")).stdout.trim().split("\n").at(-1) ?? "";
      expect(orgId).toMatch(/^org_/);
      const secret = (await npm("token", "create", "--org", orgId, "--name", "p", "--scope", SCOPE)).stdout
        .trim()
        .split("\n")
        .at(-1);
      expect(secret).toMatch(/^mps_[A-Za-z0-9_-]{43}$/);
      expect((await npm("credits", "grant", "--org", orgId, "--amount", "5")).stdout.trim().split("\n").at(-1)).toBe(
        "1005",
      );
      expect((await npm("credits", "balance", "--org", orgId)).stdout.trim()).toBe("1005");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
