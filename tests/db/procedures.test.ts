/**
 * The procedure middleware on a real database, without an app or HTTP: the order of its checks,
 * metering (once per success, nothing for a failure or a 304) and how failures map to problem codes.
 */
import { TRPCError } from "@trpc/server";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/db/rows";
import { unauthorized } from "@/server/1-errors/api-error";
import { describeError } from "@/server/1-errors/describe";
import { creditBalance } from "@/server/4-credits/credits";
import { createOrganization } from "@/server/4-organizations/organizations";
import type { Caller } from "@/server/6-auth/caller";
import { type ApiContext, createApiContext } from "@/server/7-procedures/context";
import { OPERATIONS } from "@/server/7-procedures/operations";
import { createCaller } from "@/server/7-routers/root";
import { testDatabase } from "../helpers/database";

const database = testDatabase({ seeded: true });

async function organization(credits: number, rateLimit: number | null = null) {
  const org = await createOrganization(database.db, { name: `Org ${credits}`, homeCountry: "FR", credits, rateLimit });
  return { id: org.id, homeCountry: "FR", creditBalance: credits, rateLimit };
}

const tokenCaller = (organization: Caller["organization"], scopes = ["Market.Read.All"]): Caller => ({
  via: "api-token",
  credentialId: null,
  userId: null,
  organization,
  scopes,
  metered: true,
});

function call(caller: Caller | Error, headers: Record<string, string> = {}) {
  const ctx: ApiContext = createApiContext({
    db: database.db,
    headers: new Headers(headers),
    requestId: "test",
    origin: "http://localhost",
    authenticate: async () => {
      if (caller instanceof Error) throw caller;
      return caller;
    },
  });
  return { ctx, api: createCaller(ctx) };
}

/** The problem code a call fails with. */
async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return describeError(error);
  }
  throw new Error("the call succeeded");
}

const snapshot = { marketId: "foundation-model-apis" };

describe("the order of checks", () => {
  it("authenticates first: nothing else is looked at for an unknown caller", async () => {
    const { api } = call(unauthorized("no such token"));
    expect((await failure(api.readings.snapshot(snapshot))).code).toBe("unauthorized");
  });

  it("checks the scope before the organization, the organization before the rate limit", async () => {
    const noScopeNoOrganization = call(tokenCaller(null, []));
    expect((await failure(noScopeNoOrganization.api.readings.snapshot(snapshot))).code).toBe("insufficient_scope");
    const noOrganization = call(tokenCaller(null));
    const problem = await failure(noOrganization.api.readings.snapshot(snapshot));
    expect(problem.code).toBe("organization_required");
    expect(problem.members?.createOrganizationUrl).toBe("http://localhost/onboarding");
  });

  it("refuses past the rate limit before it looks at credits, and says so in the facts", async () => {
    const org = await organization(0, 1); // no credits, one call a window
    const first = call(tokenCaller(org));
    expect((await failure(first.api.readings.snapshot(snapshot))).code).toBe("insufficient_credits");
    const second = call(tokenCaller(org));
    const problem = await failure(second.api.readings.snapshot(snapshot));
    expect(problem.code).toBe("rate_limited");
    expect(problem.headers?.["Retry-After"]).toMatch(/^\d+$/);
    expect(second.ctx.facts.rateLimit).toMatchObject({ allowed: false, limit: 1, remaining: 0 });
  });
});

describe("metering", () => {
  it("debits a successful call its price once and reports cost and balance as facts", async () => {
    const org = await organization(100);
    const { ctx, api } = call(tokenCaller(org));
    await api.readings.snapshot(snapshot);
    expect(ctx.facts.credits).toEqual({
      cost: OPERATIONS.snapshot.credits,
      balance: 100 - OPERATIONS.snapshot.credits,
    });
    expect(await creditBalance(database.db, org.id)).toBe(100 - OPERATIONS.snapshot.credits);
  });

  it("charges nothing for a 304: the client's copy is current", async () => {
    const org = await organization(100);
    const first = call(tokenCaller(org));
    await first.api.readings.capaindex(snapshot);
    const etag = first.ctx.facts.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = call(tokenCaller(org), { "If-None-Match": etag });
    await again.api.readings.capaindex(snapshot);
    expect(again.ctx.facts.notModified).toBe(true);
    expect(again.ctx.facts.credits).toEqual({ cost: 0, balance: 100 - OPERATIONS.capaindex.credits });
    expect(await creditBalance(database.db, org.id)).toBe(100 - OPERATIONS.capaindex.credits);
  });

  it("charges nothing for a failed call", async () => {
    const org = await organization(100);
    const unknownMarket = call(tokenCaller(org));
    expect((await failure(unknownMarket.api.readings.snapshot({ marketId: "no-such-market" }))).code).toBe("not_found");
    const unknownCountry = call(tokenCaller(org));
    expect((await failure(unknownCountry.api.readings.delta({ ...snapshot, country: "ZZ" }))).code).toBe(
      "invalid_request",
    );
    expect(unknownMarket.ctx.facts.credits).toBeUndefined();
    expect(await creditBalance(database.db, org.id)).toBe(100);
  });

  it("refuses a call it cannot pay for with cost and balance, and debits nothing", async () => {
    const org = await organization(3);
    const problem = await failure(call(tokenCaller(org)).api.readings.snapshot(snapshot));
    expect(problem).toMatchObject({ code: "insufficient_credits", members: { cost: 5, balance: 3 } });
    expect((problem.members as { creditsUrl: string }).creditsUrl).toMatch(/\/credits$/);
    // Without card purchases (no STRIPE_SECRET_KEY here) the detail says whom to ask, and where the balance is.
    expect(problem.detail).toMatch(
      /Ask an operator of this service for more credits\. The balance and every debit are on the Credits page: \S+\/credits\.$/,
    );
    expect(await creditBalance(database.db, org.id)).toBe(3);
  });

  it("refuses a call on a balance a refund left below zero, as at zero", async () => {
    const org = await organization(3);
    await queryRows(
      database.db,
      sql`with changed as (update organizations set credit_balance = credit_balance - 13 where id = ${org.id}
            returning id, credit_balance)
          insert into credit_ledger (organization_id, kind, amount, balance_after)
          select id, 'refund', -13, credit_balance from changed`,
    );
    const problem = await failure(call(tokenCaller({ ...org, creditBalance: -10 })).api.readings.snapshot(snapshot));
    expect(problem).toMatchObject({ code: "insufficient_credits", members: { cost: 5, balance: -10 } });
    expect(await creditBalance(database.db, org.id)).toBe(-10);
  });

  it("does not meter the dashboard's session caller", async () => {
    const org = await organization(10);
    const { ctx, api } = call({ ...tokenCaller(org), via: "session", metered: false });
    await api.readings.snapshot(snapshot);
    expect(ctx.facts.credits).toBeUndefined();
    expect(await creditBalance(database.db, org.id)).toBe(10);
  });
});

describe("error mapping", () => {
  it("lists each invalid parameter with its path", async () => {
    const org = await organization(100);
    const problem = await failure(call(tokenCaller(org)).api.readings.delta({ marketId: "Not A Slug", country: "F" }));
    expect(problem.code).toBe("invalid_request");
    expect(problem.issues?.map((issue) => issue.path).sort()).toEqual(["country", "marketId"]);
  });

  it("maps a lost database connection to unavailable with Retry-After, anywhere in the cause chain", () => {
    const lost = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
    const wrapped = new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: new Error("query failed", { cause: lost }) });
    expect(describeError(wrapped)).toMatchObject({ code: "unavailable", headers: { "Retry-After": "5" } });
  });

  it("never shows an unexpected error's message", () => {
    const problem = describeError(new TypeError("secret internals at /srv/app"));
    expect(problem.code).toBe("internal_error");
    expect(problem.detail).not.toContain("secret");
  });
});

describe("answers kept and served as the same object (caching: release)", () => {
  it("are frozen: a caller mutating one throws instead of changing what every later caller gets", async () => {
    const org = await organization(1000);
    const first = await call(tokenCaller(org)).api.readings.capaindex({ marketId: "foundation-model-apis" });
    const second = await call(tokenCaller(org)).api.readings.capaindex({ marketId: "foundation-model-apis" });
    expect(second).toBe(first);
    expect(Object.isFrozen(first.products[0])).toBe(true);
    expect(() => {
      (first.products as unknown[]).pop();
    }).toThrow(TypeError);
    expect(second.products).toHaveLength(first.products.length);
  });

  it("are not shared where the answer is the caller's own (what-if weights)", async () => {
    const org = await organization(1000);
    const input = { marketId: "foundation-model-apis", weights: "reasoning-benchmark:2" };
    const first = await call(tokenCaller(org)).api.readings.whatif(input);
    const second = await call(tokenCaller(org)).api.readings.whatif(input);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
  });
});
