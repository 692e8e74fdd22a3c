/**
 * Beginning a purchase from the dashboard (billing.packs, billing.checkout, billing.purchases,
 * billing.returned) on a real database against the Stripe stand-in: owners and billing members
 * may buy, admins and members are refused with 403 and nothing made; the organization gets one
 * Stripe customer even when checkouts race; the pending purchase and its audit event are written
 * with the session; the monthly cap refuses before any session is made.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/rows";
import type { Role } from "@/server/1-domain/roles";
import { describeError } from "@/server/1-errors/describe";
import { createOrganization } from "@/server/4-organizations/organizations";
import type { Caller } from "@/server/6-auth/caller";
import { createApiContext } from "@/server/7-procedures/context";
import { createCaller } from "@/server/7-routers/root";
import { addPerson } from "../helpers/accounts";
import { dashboardCallerAs, testDatabase } from "../helpers/database";
import { type StripeStandIn, startStripeStandIn } from "../helpers/stripe-stand-in";

const database = testDatabase({ seeded: true });
let stripe: StripeStandIn;
const CAP = 30000;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  // Read once by the process's billing configuration: set before the first call.
  Object.assign(process.env, {
    CREDIT_PACKS: "10000:4900:eur,100000:39900:eur",
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
    CREDITS_MONTHLY_CAP: String(CAP),
    APP_URL: "https://app.example",
  });
});
afterAll(async () => {
  await stripe?.close();
});

let people = 0;
async function person(organizationId: string | null, role: string) {
  people += 1;
  const email = `${role}${people}@example.com`;
  return (await addPerson(database.db, { organizationId, role: role as Role, email })).id;
}

async function organization() {
  const owner = await person(null, "owner");
  const org = await createOrganization(database.db, {
    name: "Checkout Co",
    homeCountry: "DE",
    credits: 0,
    ownerUserId: owner,
  });
  return { id: org.id, owner };
}

const as = (userId: string) => dashboardCallerAs(database.db, userId, { origin: "http://dashboard.test" });

const customersOf = (organizationId: string) =>
  [...stripe.customers.values()].filter(
    (customer) => (customer.metadata as Record<string, string>).organization === organizationId,
  );

const rows = (query: ReturnType<typeof sql>) => queryRows<Record<string, unknown>>(database.db, query);

describe("the packs", () => {
  it("are listed with their price per 1,000 credits, and who may buy them", async () => {
    const org = await organization();
    const billing = await person(org.id, "billing");
    const admin = await person(org.id, "admin");
    const packs = await (await as(billing)).billing.packs();
    expect(packs).toMatchObject({ enabled: true, canBuy: true, buyers: ["owner", "billing"] });
    expect(packs.packs.map((pack) => [pack.id, pack.pricePerThousand])).toEqual([
      ["10000-eur", 490],
      ["100000-eur", 399],
    ]);
    expect((await (await as(admin)).billing.packs()).canBuy).toBe(false);
  });
});

describe("a checkout", () => {
  it("by an owner makes a session for the pack, a pending purchase and an audit event", async () => {
    const org = await organization();
    const answer = await (await as(org.owner)).billing.checkout({ pack: "10000-eur" });
    expect(answer.url).toBe(`${stripe.url}/pay/${answer.checkoutSessionId}`);
    const session = stripe.sessions.get(answer.checkoutSessionId);
    expect(session).toMatchObject({
      mode: "payment",
      amount_total: 4900,
      currency: "eur",
      invoice_creation: { enabled: "true" },
      metadata: { organization: org.id, credits: "10000", pack: "10000-eur" },
      success_url: "https://app.example/credits?checkout={CHECKOUT_SESSION_ID}",
      cancel_url: "https://app.example/credits?checkout=cancelled",
    });
    expect(
      await rows(sql`select state, credits, amount from credit_purchases where organization_id = ${org.id}`),
    ).toEqual([{ state: "pending", credits: 10000, amount: 4900 }]);
    const [event] = await rows(
      sql`select action, target_id, details from audit_events where organization_id = ${org.id} and action = 'credits.checkout'`,
    );
    expect(event).toMatchObject({ target_id: answer.purchaseId, details: { pack: "10000-eur", credits: 10000 } });

    // Not paid yet (the webhook grants it: tests/db/billing-webhook.test.ts): the return says pending.
    expect(await (await as(org.owner)).billing.returned({ session: answer.checkoutSessionId })).toEqual({
      state: "pending",
      credits: 10000,
    });
    expect(await (await as(org.owner)).billing.returned({ session: "cancelled" })).toEqual({ state: "cancelled" });
    expect(await (await as(org.owner)).billing.returned({ session: "cs_someone_elses" })).toEqual({ state: "unknown" });
    const list = await (await as(org.owner)).billing.purchases({});
    expect(list.map((purchase) => purchase.checkoutSessionId)).toEqual([answer.checkoutSessionId]);
  });

  it("by a billing member is allowed; by an admin or a member is 403 and makes nothing", async () => {
    const org = await organization();
    const billing = await person(org.id, "billing");
    await expect((await as(billing)).billing.checkout({ pack: "10000-eur" })).resolves.toMatchObject({
      url: expect.stringContaining("/pay/cs_"),
    });
    const sessionsBefore = stripe.sessions.size;
    for (const role of ["admin", "member"]) {
      const someone = await person(org.id, role);
      const error = await (await as(someone)).billing
        .checkout({ pack: "10000-eur" })
        .catch((caught: unknown) => caught);
      expect(describeError(error)).toMatchObject({ code: "forbidden" });
    }
    expect(stripe.sessions.size).toBe(sessionsBefore);
    expect(await rows(sql`select id from credit_purchases where organization_id = ${org.id}`)).toHaveLength(1);
  });

  it("makes one Stripe customer per organization, even when checkouts race", async () => {
    const org = await organization();
    const caller = await as(org.owner);
    const answers = await Promise.all([1, 2, 3].map(() => caller.billing.checkout({ pack: "10000-eur" })));
    expect(new Set(answers.map((answer) => answer.checkoutSessionId)).size).toBe(3);
    expect(customersOf(org.id)).toHaveLength(1);
    const stored = await rows(sql`select stripe_customer_id from billing_customers where organization_id = ${org.id}`);
    expect(stored).toEqual([{ stripe_customer_id: customersOf(org.id)[0]?.id }]);
    for (const answer of answers)
      expect(stripe.sessions.get(answer.checkoutSessionId)?.customer).toBe(stored[0]?.stripe_customer_id);
  });

  it("past the monthly cap is refused before any session is made", async () => {
    const org = await organization();
    const caller = await as(org.owner);
    const tooLarge = await caller.billing.checkout({ pack: "100000-eur" }).catch((caught: unknown) => caught);
    expect(describeError(tooLarge)).toMatchObject({ code: "monthly_cap_reached" });
    for (let i = 0; i < CAP / 10000; i++) await caller.billing.checkout({ pack: "10000-eur" });
    const sessionsBefore = stripe.sessions.size;
    const over = await caller.billing.checkout({ pack: "10000-eur" }).catch((caught: unknown) => caught);
    expect(describeError(over)).toMatchObject({ code: "monthly_cap_reached" });
    expect(stripe.sessions.size).toBe(sessionsBefore);
  });

  it("holds the cap when checkouts race: with room for one pack, one of five begun at once gets a session", async () => {
    const org = await organization();
    const caller = await as(org.owner);
    for (let i = 1; i < CAP / 10000; i++) await caller.billing.checkout({ pack: "10000-eur" });
    const sessionsBefore = stripe.sessions.size;
    const answers = await Promise.allSettled([1, 2, 3, 4, 5].map(() => caller.billing.checkout({ pack: "10000-eur" })));
    const refused = answers.flatMap((answer) => (answer.status === "rejected" ? [describeError(answer.reason)] : []));
    expect(answers.filter((answer) => answer.status === "fulfilled")).toHaveLength(1);
    expect(refused).toHaveLength(4);
    for (const problem of refused) expect(problem).toMatchObject({ code: "monthly_cap_reached" });
    expect(stripe.sessions.size).toBe(sessionsBefore + 1);
    const [sum] = await rows(
      sql`select sum(credits)::int as credits, count(*) filter (where checkout_session_id is null)::int as unbound
          from credit_purchases where organization_id = ${org.id}`,
    );
    expect(sum).toEqual({ credits: CAP, unbound: 0 });
  });

  it("gives the room back when Stripe refuses to begin the session", async () => {
    const org = await organization();
    const caller = await as(org.owner);
    await caller.billing.checkout({ pack: "10000-eur" });
    // Stripe no longer knows the organization's customer: the next session is refused with 400.
    for (const customer of customersOf(org.id)) stripe.customers.delete(customer.id);
    const error = await caller.billing.checkout({ pack: "10000-eur" }).catch((caught: unknown) => caught);
    expect(describeError(error)).toMatchObject({
      code: "unavailable",
      detail: expect.stringContaining("nothing was charged"),
    });
    expect(await rows(sql`select count(*)::int as n from credit_purchases where organization_id = ${org.id}`)).toEqual([
      { n: 1 },
    ]);
  });

  it("of a pack not on sale is 400", async () => {
    const org = await organization();
    const error = await (await as(org.owner)).billing.checkout({ pack: "1-eur" }).catch((caught: unknown) => caught);
    expect(describeError(error)).toMatchObject({ code: "invalid_request" });
  });
});

describe("the monthly cap", () => {
  it("an owner lowers it and checkouts obey it; never above the service's; null gives the service's back", async () => {
    const org = await organization();
    const owner = await as(org.owner);
    expect(await owner.billing.cap()).toEqual({
      operator: CAP,
      own: null,
      effective: CAP,
      thisMonth: 0,
      canLower: true,
    });
    expect(await owner.billing.setCap({ credits: 15000 })).toEqual({ before: null, after: 15000 });
    await owner.billing.checkout({ pack: "10000-eur" });
    const over = await owner.billing.checkout({ pack: "10000-eur" }).catch((caught: unknown) => caught);
    expect(describeError(over)).toMatchObject({ code: "monthly_cap_reached" });
    expect(describeError(over).detail).toContain("its cap of 15,000");
    const above = await owner.billing.setCap({ credits: CAP + 1 }).catch((caught: unknown) => caught);
    expect(describeError(above)).toMatchObject({ code: "invalid_request" });
    for (const bad of [-1, 1.5, "10"])
      expect(
        describeError(await owner.billing.setCap({ credits: bad as number }).catch((caught: unknown) => caught)),
      ).toMatchObject({ code: "invalid_request" });
    expect((await owner.billing.cap()).own).toBe(15000);
    expect(await owner.billing.setCap({ credits: null })).toEqual({ before: 15000, after: null });
    await expect(owner.billing.checkout({ pack: "10000-eur" })).resolves.toMatchObject({ pack: { id: "10000-eur" } });
    const events = await rows(
      sql`select details from audit_events where organization_id = ${org.id} and action = 'credits.cap_change' order by id`,
    );
    expect(events.map((event) => event.details)).toEqual([
      { before: null, after: 15000 },
      { before: 15000, after: null },
    ]);
  });

  it("is lowered by owners alone: billing members, admins and members are 403, another organization's owner too", async () => {
    const org = await organization();
    const other = await organization();
    for (const role of ["billing", "admin", "member"]) {
      const someone = await person(org.id, role);
      const error = await (await as(someone)).billing.setCap({ credits: 1 }).catch((caught: unknown) => caught);
      expect(describeError(error), role).toMatchObject({ code: "forbidden" });
    }
    // Another organization's owner acts on their own active organization, never on this one.
    await (await as(other.owner)).billing.setCap({ credits: 1 });
    expect(await rows(sql`select purchase_cap_credits from organizations where id = ${org.id}`)).toEqual([
      { purchase_cap_credits: null },
    ]);
  });
});

describe("Stripe's customer portal", () => {
  it("opens for the organization's customer, coming back to the credits page; before any purchase it says why not", async () => {
    const org = await organization();
    const owner = await as(org.owner);
    const early = await owner.billing.portal().catch((caught: unknown) => caught);
    expect(describeError(early)).toMatchObject({ code: "conflict" });
    await owner.billing.checkout({ pack: "10000-eur" });
    const { url } = await owner.billing.portal();
    const session = [...stripe.portalSessions.values()].find((candidate) => candidate.url === url);
    expect(session).toMatchObject({ customer: customersOf(org.id)[0]?.id, return_url: "https://app.example/credits" });
    const member = await person(org.id, "member");
    const refused = await (await as(member)).billing.portal().catch((caught: unknown) => caught);
    expect(describeError(refused)).toMatchObject({ code: "forbidden" });
  });
});

describe("GET /v1/purchases", () => {
  it("lists the organization's purchases newest first, page by page, to any token, for free", async () => {
    const org = await organization();
    const other = await organization();
    const made: string[] = [];
    for (let i = 0; i < 3; i++)
      made.push((await (await as(org.owner)).billing.checkout({ pack: "10000-eur" })).checkoutSessionId);
    await (await as(other.owner)).billing.checkout({ pack: "10000-eur" });
    const caller: Caller = {
      via: "api-token",
      credentialId: null,
      userId: null,
      organization: { id: org.id, homeCountry: "DE", creditBalance: 0, rateLimit: null },
      scopes: [],
      metered: true,
    };
    const api = createCaller(
      createApiContext({
        db: database.db,
        headers: new Headers(),
        requestId: "test",
        origin: "http://localhost",
        authenticate: async () => caller,
      }),
    );
    const first = await api.account.purchases({ limit: 2 });
    expect(first.purchases).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = await api.account.purchases({ limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.nextCursor).toBeNull();
    const listed = [...first.purchases, ...second.purchases];
    expect(listed.map((purchase) => purchase.state)).toEqual(["pending", "pending", "pending"]);
    expect(new Set(listed.map((purchase) => purchase.id)).size).toBe(3);
    const sessions = await rows(
      sql`select id from credit_purchases where organization_id = ${org.id} order by created_at desc, id desc`,
    );
    expect(listed.map((purchase) => purchase.id)).toEqual(sessions.map((row) => row.id));
    expect(made).toHaveLength(3);
    const bad = await api.account.purchases({ cursor: "bm9wZQ" }).catch((caught: unknown) => caught);
    expect(describeError(bad)).toMatchObject({ code: "invalid_request" });
  });
});
