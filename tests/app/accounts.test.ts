/**
 * Accounts over real HTTP against the running app: authentication, scopes, credits (including
 * concurrent calls racing for the last credits), rate limits, organizations and the dashboard's
 * procedures across organizations. Balances and ledgers are read back through the dashboard's
 * procedures on both databases, and straight from the tables on PostgreSQL.
 */
import postgres from "postgres";
import { afterAll, describe, expect, inject, it } from "vitest";
import type { FixtureOrganization } from "../helpers/accounts";
import { dashboardCall } from "../helpers/dashboard";

const base = inject("appUrl");
const accounts = inject("accounts");
const databaseUrl = inject("appDatabaseUrl");
const sql = databaseUrl ? postgres(databaseUrl, { max: 2, onnotice: () => {} }) : null;
afterAll(() => sql?.end());

const SNAPSHOT = "/v1/markets/foundation-model-apis/snapshot";
const PRICES = { snapshot: 5, delta: 3, servicemax: 3, capaindex: 2 } as const;

const get = (path: string, token?: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers } });

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = await response.json();
  expect(body).toMatchObject({ status, code, requestId: response.headers.get("x-request-id") });
  return body;
}

interface LedgerRow {
  kind: string;
  amount: number;
  balanceAfter: number;
  operation: string | null;
  tokenId: string | null;
  requestId: string | null;
}

/** Every ledger row of an organization, newest first, paging through the dashboard procedure. */
async function ledgerOf(org: FixtureOrganization): Promise<LedgerRow[]> {
  const rows: LedgerRow[] = [];
  let before: number | undefined;
  for (;;) {
    const page = await dashboardCall(base, org.session, "credits.ledger", { cursor: before, limit: 100 });
    expect(page.status).toBe(200);
    const { entries, nextBefore } = page.data as { entries: LedgerRow[]; nextBefore: number | null };
    rows.push(...entries);
    if (nextBefore === null) return rows;
    before = nextBefore;
  }
}

async function balanceOf(org: FixtureOrganization): Promise<number> {
  const summary = await dashboardCall(base, org.session, "credits.summary");
  return (summary.data as { balance: number }).balance;
}

/** The balance equals the ledger's sum, through the API and (on PostgreSQL) in the tables. */
async function expectBalanceMatchesLedger(org: FixtureOrganization) {
  const balance = await balanceOf(org);
  const ledger = await ledgerOf(org);
  expect(ledger.reduce((sum, row) => sum + row.amount, 0)).toBe(balance);
  expect(balance).toBeGreaterThanOrEqual(0);
  if (sql) {
    const [row] = await sql`select o.credit_balance, (select coalesce(sum(amount), 0)::int from credit_ledger l
      where l.organization_id = o.id) as ledger_sum from organizations o where o.id = ${org.id}`;
    expect(row).toEqual({ credit_balance: balance, ledger_sum: balance });
  }
  return { balance, ledger };
}

describe("authentication", () => {
  const cases: [string, Record<string, string>][] = [
    ["no Authorization header", {}],
    ["another scheme", { Authorization: "Basic dXNlcjpwYXNz" }],
    ["an empty bearer", { Authorization: "Bearer " }],
    ["a malformed token", { Authorization: "Bearer not-a-token" }],
    ["an unknown token", { Authorization: `Bearer mps_${"A".repeat(43)}` }],
    ["an expired token", { Authorization: `Bearer ${accounts.tokens.expired}` }],
    ["a revoked token", { Authorization: `Bearer ${accounts.tokens.revoked}` }],
  ];
  for (const [name, headers] of cases)
    it(`answers 401 unauthorized with a Bearer challenge for ${name}`, async () => {
      for (const path of [SNAPSHOT, "/v1/markets"]) {
        const response = await get(path, undefined, headers);
        const challenge = response.headers.get("www-authenticate") ?? "";
        expect(challenge).toMatch(/^Bearer realm="market-positioning", error="invalid_token"/);
        await expectProblem(response, 401, "unauthorized");
      }
    });

  it("says which of expired and revoked it was", async () => {
    expect((await (await get(SNAPSHOT, accounts.tokens.expired)).json()).detail).toMatch(/expired/);
    expect((await (await get(SNAPSHOT, accounts.tokens.revoked)).json()).detail).toMatch(/revoked/);
  });

  it("refuses readings to a token without Market.Read.All, and serves it the free operations", async () => {
    const response = await get(SNAPSHOT, accounts.tokens.noScope);
    expect(response.headers.get("www-authenticate")).toBe(
      'Bearer realm="market-positioning", error="insufficient_scope", scope="Market.Read.All"',
    );
    expect(await expectProblem(response, 403, "insufficient_scope")).toMatchObject({ scope: "Market.Read.All" });
    for (const path of ["/v1/markets", "/v1/geographies", "/v1/markets/foundation-model-apis/changelog"])
      expect((await get(path, accounts.tokens.noScope)).status).toBe(200);
  });
});

describe("credits", () => {
  it("debits the documented price of each reading and reports cost and balance", async () => {
    const before = await balanceOf(accounts.reader);
    let expected = before;
    for (const [reading, price] of Object.entries(PRICES)) {
      const response = await get(`/v1/markets/object-storage/${reading}?country=FR`, accounts.reader.token);
      expect(response.status).toBe(200);
      expected -= price;
      expect(response.headers.get("x-credits-cost")).toBe(String(price));
      expect(response.headers.get("x-credits-remaining")).toBe(String(expected));
    }
    const free = await get("/v1/markets", accounts.reader.token);
    expect(free.headers.get("x-credits-cost")).toBe("0");
    expect(await balanceOf(accounts.reader)).toBe(before - 13);
  });

  it("answers 402 with cost and balance when the balance is short, and debits nothing", async () => {
    const body = await expectProblem(await get(SNAPSHOT, accounts.broke.token), 402, "insufficient_credits");
    expect(body).toMatchObject({ cost: 5, balance: 0 });
    expect((await get("/v1/markets", accounts.broke.token)).status).toBe(200);
    const { balance, ledger } = await expectBalanceMatchesLedger(accounts.broke);
    expect(balance).toBe(0);
    expect(ledger.filter((row) => row.kind === "debit")).toEqual([]);
  });

  it("charges nothing for failed calls and for 304s", async () => {
    const org = accounts.failures;
    const ok = await get(SNAPSHOT, org.token);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-credits-remaining")).toBe("95");
    const etag = ok.headers.get("etag") ?? "";
    const failures = [
      await get("/v1/markets/no-such-market/snapshot", org.token),
      await get("/v1/markets/foundation-model-apis/delta?country=XX", org.token),
      await get("/v1/markets/foundation-model-apis/delta?view=pie", org.token),
      await get("/v1/markets/Not_A_Slug/capaindex", org.token),
      await get("/v1/markets/foundation-model-apis/snapshot?release=99", org.token),
      await get("/v1/markets/vector-databases/servicemax", org.token),
    ];
    expect(failures.map((r) => r.status)).toEqual([404, 400, 400, 400, 404, 404]);
    const cached = await get(SNAPSHOT, org.token, { "If-None-Match": etag });
    expect(cached.status).toBe(304);
    expect(cached.headers.get("x-credits-cost")).toBe("0");
    const { balance, ledger } = await expectBalanceMatchesLedger(org);
    expect(balance).toBe(95);
    expect(ledger.filter((row) => row.kind === "debit")).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      kind: "debit",
      amount: -5,
      balanceAfter: 95,
      operation: "readings.snapshot",
      requestId: ok.headers.get("x-request-id"),
    });
  });

  it("lets exactly 40 of 100 concurrent snapshots through on credits for 40", async () => {
    const org = accounts.forty;
    const responses = await Promise.all(Array.from({ length: 100 }, () => get(SNAPSHOT, org.token)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
    expect(statuses.filter((s) => s === 402)).toHaveLength(60);
    const { balance, ledger } = await expectBalanceMatchesLedger(org);
    expect(balance).toBe(0);
    const debits = ledger.filter((row) => row.kind === "debit");
    expect(debits).toHaveLength(40);
    // One debit per successful response, tied by request id.
    const succeeded = responses.filter((r) => r.status === 200).map((r) => r.headers.get("x-request-id"));
    expect(new Set(debits.map((d) => d.requestId))).toEqual(new Set(succeeded));
    if (sql) {
      const [row] =
        await sql`select count(*)::int as debits from credit_ledger where organization_id = ${org.id} and kind = 'debit'`;
      expect(row?.debits).toBe(40);
    }
  });

  it("never overspends under concurrent calls of mixed prices", async () => {
    const org = accounts.mixed; // 100 credits; 150 calls asking for 500
    const readings = Array.from({ length: 150 }, (_, i) => (["snapshot", "delta", "capaindex"] as const)[i % 3]);
    const responses = await Promise.all(
      readings.map((reading) => get(`/v1/markets/managed-kubernetes/${reading}?country=FR`, org.token)),
    );
    const spent = responses.reduce((sum, r, i) => sum + (r.status === 200 ? PRICES[readings[i] ?? "snapshot"] : 0), 0);
    expect(responses.every((r) => r.status === 200 || r.status === 402)).toBe(true);
    const { balance, ledger } = await expectBalanceMatchesLedger(org);
    expect(balance).toBe(100 - spent);
    expect(ledger.filter((row) => row.kind === "debit")).toHaveLength(responses.filter((r) => r.status === 200).length);
    // A refusal means the balance was below that price then; it only falls, so it is below it now.
    responses.forEach((r, i) => {
      if (r.status === 402) expect(balance).toBeLessThan(PRICES[readings[i] ?? "snapshot"]);
    });
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After past the organization's limit, and again after the window", async () => {
    const org = accounts.limited; // 5 requests per 2-second window
    // Start at a fresh window so the five fit in it.
    await new Promise((r) => setTimeout(r, 2100));
    const first = await Promise.all(Array.from({ length: 5 }, () => get("/v1/markets", org.token)));
    expect(first.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(first.map((r) => Number(r.headers.get("ratelimit-remaining"))).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(first.every((r) => r.headers.get("ratelimit-limit") === "5")).toBe(true);
    const refused = await get(SNAPSHOT, org.token);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    await expectProblem(refused, 429, "rate_limited");
    expect(await balanceOf(org)).toBe(1_000_000); // the refused snapshot cost nothing
    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
    expect((await get(SNAPSHOT, org.token)).status).toBe(200);
  });

  it("counts organizations separately", async () => {
    const response = await get("/v1/markets", accounts.reader.token);
    expect(Number(response.headers.get("ratelimit-limit"))).toBeGreaterThan(5);
  });
});

describe("organizations and the dashboard procedures", () => {
  it("answers organization_required, with where to create one, to a user without one", async () => {
    for (const procedure of ["tokens.list", "credits.summary", "readings.capaindex"]) {
      const input = procedure.startsWith("readings") ? { marketId: "foundation-model-apis" } : undefined;
      const answer = await dashboardCall(base, accounts.newcomerSession, procedure, input);
      expect(answer.status).toBe(403);
      expect(answer.problem?.code).toBe("organization_required");
      expect(answer.problem?.detail).toContain(`${base}/onboarding`);
    }
    const organizations = await dashboardCall(base, accounts.newcomerSession, "organizations.list");
    expect(organizations.data).toEqual({ activeId: null, organizations: [], next: { credits: 1000, remaining: 5 } });
  });

  it("refuses the dashboard's procedures without a session, or with an expired one", async () => {
    for (const session of [null, accounts.expiredSession, "not-a-session"]) {
      const answer = await dashboardCall(base, session, "tokens.list");
      expect(answer.status).toBe(401);
      expect(answer.problem?.code).toBe("unauthorized");
    }
    expect((await dashboardCall(base, accounts.reader.session, "tokens.list")).status).toBe(200);
  });

  it("never shows or revokes another organization's tokens or ledger", async () => {
    const mine = accounts.reader;
    const theirs = accounts.forty;
    const theirTokens = (await dashboardCall(base, theirs.session, "tokens.list")).data as { id: string }[];
    const myTokens = (await dashboardCall(base, mine.session, "tokens.list")).data as { id: string }[];
    expect(theirTokens.length).toBeGreaterThan(0);
    expect(myTokens.map((t) => t.id)).not.toEqual(expect.arrayContaining([theirTokens[0]?.id]));
    const revoke = await dashboardCall(
      base,
      mine.session,
      "tokens.revoke",
      { tokenId: theirTokens[0]?.id },
      { mutation: true },
    );
    expect(revoke.problem?.code).toBe("not_found");
    expect((await get("/v1/markets", theirs.token)).status).toBe(200); // still works
    const switched = await dashboardCall(
      base,
      mine.session,
      "organizations.switch",
      { organizationId: theirs.id },
      { mutation: true },
    );
    expect(switched.problem?.code).toBe("not_found");
    const myLedgerTokens = new Set((await ledgerOf(mine)).map((row) => row.tokenId).filter(Boolean));
    for (const id of myLedgerTokens) expect(myTokens.map((t) => t.id)).toContain(id);
  });

  it("creates a token that works at once and stops at once when revoked", async () => {
    const org = accounts.reader;
    const created = await dashboardCall(
      base,
      org.session,
      "tokens.create",
      { name: "made over HTTP", scopes: ["Market.Read.All"], expiresInDays: 30 },
      { mutation: true },
    );
    const { token, secret } = created.data as { token: { id: string; displayPrefix: string }; secret: string };
    expect(secret).toMatch(/^mps_[A-Za-z0-9_-]{43}$/);
    expect(secret.startsWith(token.displayPrefix)).toBe(true);
    expect((await get(SNAPSHOT, secret)).status).toBe(200);
    const listed = (await dashboardCall(base, org.session, "tokens.list")).data as Record<string, unknown>[];
    const entry = listed.find((t) => t.id === token.id);
    expect(entry).toBeDefined();
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(entry?.lastUsedAt).not.toBeNull();
    await dashboardCall(base, org.session, "tokens.revoke", { tokenId: token.id }, { mutation: true });
    expect((await get(SNAPSHOT, secret)).status).toBe(401);
  });

  it("refuses dashboard changes from another origin or none (CSRF)", async () => {
    for (const origin of ["https://evil.example", null]) {
      const answer = await dashboardCall(
        base,
        accounts.reader.session,
        "tokens.create",
        { name: "forged", scopes: ["Market.Read.All"] },
        { mutation: true, origin },
      );
      expect(answer.status).toBe(403);
      expect(answer.problem?.code).toBe("forbidden_origin");
    }
    const listed = (await dashboardCall(base, accounts.reader.session, "tokens.list")).data as { name: string }[];
    expect(listed.map((t) => t.name)).not.toContain("forged");
  });

  it("creates an organization with the starting grant and makes it active", async () => {
    const created = await dashboardCall(
      base,
      accounts.newcomerSession,
      "organizations.create",
      { name: "Newcomer GmbH", homeCountry: "at" },
      { mutation: true },
    );
    expect(created.data).toMatchObject({ name: "Newcomer GmbH", homeCountry: "AT", creditBalance: 1000 });
    const listed = (await dashboardCall(base, accounts.newcomerSession, "organizations.list")).data as {
      activeId: string;
      organizations: { id: string; role: string }[];
    };
    expect(listed.organizations).toEqual([expect.objectContaining({ id: listed.activeId, role: "owner" })]);
    const bad = await dashboardCall(
      base,
      accounts.newcomerSession,
      "organizations.create",
      { name: "Nowhere Ltd", homeCountry: "ZZ" },
      { mutation: true },
    );
    expect(bad.problem?.code).toBe("invalid_request");
  });
});

describe("sessions", () => {
  it("tells the browser who is signed in, never the session token", async () => {
    const response = await fetch(`${base}/api/auth/session`, {
      headers: { Cookie: `authjs.session-token=${accounts.reader.session}` },
    });
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ user: { email: expect.stringMatching(/@example\.com$/) } });
    expect(text).not.toContain(accounts.reader.session);
    expect(Object.keys(JSON.parse(text)).sort()).toEqual(["expires", "user"]);
  });

  it("drops an expired session", async () => {
    const response = await fetch(`${base}/api/auth/session`, {
      headers: { Cookie: `authjs.session-token=${accounts.expiredSession}` },
    });
    expect(await response.json()).toBeNull();
  });
});
