/**
 * POST /stripe/webhook on a real database (PGlite here, PostgreSQL under TEST_DATABASE_URL, where
 * a second connection pool plays a second app instance), fed by the Stripe stand-in
 * (tests/helpers/stripe-stand-in.ts) through the SDK: a paid checkout grants its credits once —
 * also when the same event arrives ten times at once over both pools — with its ledger row, audit
 * event and e-mails; bad, stale and oversized deliveries are refused and change nothing; unknown
 * events change nothing; refunds and disputes take back their share, even below zero.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type DatabaseHandle, openDatabase } from "@/db/client";
import { queryRows } from "@/db/rows";
import type { CreditsPurchasedContent } from "@/server/1-domain/notification-content";
import type { Role } from "@/server/1-domain/roles";
import { type BillingConfig, parseCreditPacks } from "@/server/4-billing/config";
import { METADATA_CREDITS, METADATA_ORGANIZATION } from "@/server/4-billing/events";
import { stripeClient } from "@/server/4-billing/stripe";
import { serveStripeWebhook, WEBHOOK_BODY_LIMIT } from "@/server/4-billing/webhook";
import { creditBalance } from "@/server/4-credits/credits";
import { createOrganization } from "@/server/4-organizations/organizations";
import { composeMail } from "@/server/6-mail/notification-mail";
import { addPerson } from "../helpers/accounts";
import { testDatabase, testDatabaseKind } from "../helpers/database";
import { type StripeObject, type StripeStandIn, startStripeStandIn } from "../helpers/stripe-stand-in";

const database = testDatabase({ seeded: true });
let other: DatabaseHandle | null = null;
let stripe: StripeStandIn;
let config: BillingConfig;
const servers: Server[] = [];
/** The webhook's address on each "instance" (one per connection pool). */
const webhooks: string[] = [];

async function serveWebhook(db: Database): Promise<string> {
  const server = createServer((request, response) => {
    serveStripeWebhook(request, response, async () => db, config).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/stripe/webhook`;
}

beforeAll(async () => {
  stripe = await startStripeStandIn();
  config = {
    packs: parseCreditPacks("10000:4900:eur,100000:39900:eur"),
    stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: new URL(stripe.url) },
    contact: null,
    monthlyCapCredits: 0,
  };
  webhooks.push(await serveWebhook(database.db));
  if (testDatabaseKind === "postgres" && database.url) {
    other = await openDatabase({ kind: "postgres", url: database.url });
    webhooks.push(await serveWebhook(other.db));
  }
  stripe.webhookUrl = webhooks[0] ?? null;
});
afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  await stripe?.close();
  await other?.close();
});

let people = 0;
async function person(organizationId: string | null, role: string) {
  people += 1;
  return addPerson(database.db, { organizationId, role: role as Role, email: `${role}${people}@example.com` });
}

async function organization(name = "Buyer Co", credits = 0) {
  const owner = await person(null, "owner");
  const org = await createOrganization(database.db, { name, homeCountry: "DE", credits, ownerUserId: owner.id });
  return { id: org.id, owner };
}

/** A checkout session made through the SDK against the stand-in, as our checkout makes one. */
async function session(organizationId: string, credits = 10000, amount = 4900) {
  const client = stripeClient(config.stripe as NonNullable<BillingConfig["stripe"]>);
  const made = await client.checkout.sessions.create({
    mode: "payment",
    line_items: [
      { quantity: 1, price_data: { currency: "eur", unit_amount: amount, product_data: { name: "Credits" } } },
    ],
    metadata: { [METADATA_ORGANIZATION]: organizationId, [METADATA_CREDITS]: String(credits) },
    success_url: "https://app.example/credits?session={CHECKOUT_SESSION_ID}",
    invoice_creation: { enabled: true },
  });
  return made.id;
}

const count = async (query: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: number }>(database.db, query))[0]?.n);

const ledger = (organizationId: string) =>
  queryRows<{
    kind: string;
    amount: number;
    balance_after: number;
    purchase_id: string | null;
    stripe_id: string | null;
  }>(
    database.db,
    sql`select kind, amount, balance_after, purchase_id, stripe_id from credit_ledger
        where organization_id = ${organizationId} order by id`,
  );

const audit = (organizationId: string) =>
  queryRows<{ action: string; actor_kind: string; target_id: string; details: Record<string, unknown> }>(
    database.db,
    sql`select action, actor_kind, target_id, details from audit_events
        where organization_id = ${organizationId} and action like 'credits.%' order by id`,
  );

/** Everything a refused delivery must leave as it was. */
const snapshot = async (organizationId: string) => ({
  balance: await creditBalance(database.db, organizationId),
  ledger: await ledger(organizationId),
  purchases: await queryRows(
    database.db,
    sql`select id, state, credits_removed from credit_purchases where organization_id = ${organizationId} order by id`,
  ),
  audit: await audit(organizationId),
});

describe("a paid checkout", () => {
  it("grants its credits with a ledger row, an audit event and e-mails to owners and billing members", async () => {
    const org = await organization('Acme <script>alert("x")</script>', 5);
    const billing = await person(org.id, "billing");
    await person(org.id, "admin");
    await person(org.id, "member");
    const id = await session(org.id);
    const { webhook, redirect } = await stripe.pay(id);
    expect(webhook.status).toBe(200);
    expect(redirect).toBe(`https://app.example/credits?session=${id}`);
    expect(await creditBalance(database.db, org.id)).toBe(10005);

    const [purchase] = await queryRows<{ id: string; state: string; payment_intent_id: string; credits: number }>(
      database.db,
      sql`select id, state, payment_intent_id, credits from credit_purchases where checkout_session_id = ${id}`,
    );
    expect(purchase).toMatchObject({ state: "paid", credits: 10000 });
    expect(purchase?.payment_intent_id).toMatch(/^pi_/);
    expect((await ledger(org.id)).at(-1)).toMatchObject({
      kind: "purchase",
      amount: 10000,
      balance_after: 10005,
      purchase_id: purchase?.id,
      stripe_id: id,
    });
    const [event] = await audit(org.id);
    expect(event).toMatchObject({ action: "credits.purchase", actor_kind: "system", target_id: purchase?.id });
    expect(event?.details).toMatchObject({ credits: 10000, amount: 4900, currency: "eur", checkoutSessionId: id });

    const mails = await queryRows<{
      id: number;
      user_id: string;
      recipient: string;
      dedupe_key: string;
      content: unknown;
    }>(
      database.db,
      sql`select id, user_id, recipient, dedupe_key, content from mail_deliveries
          where kind = 'credits_purchased' and content->>'organizationId' = ${org.id} order by recipient`,
    );
    expect(mails.map((mail) => mail.recipient).sort()).toEqual([billing.email, org.owner.email].sort());
    const mail = mails[0];
    if (!mail) throw new Error("no mail");
    const composed = await composeMail({
      id: mail.id,
      userId: mail.user_id,
      recipient: mail.recipient,
      kind: "credits_purchased",
      dedupeKey: mail.dedupe_key,
      content: mail.content as CreditsPurchasedContent,
    });
    expect(composed.text).toContain("10,000 credits");
    expect(composed.text).toContain("49.00 EUR");
    // The invoice Checkout made, read from Stripe by its id: in the mail and on the purchase.
    const invoice = stripe.sessions.get(id)?.invoice as string;
    expect(composed.text).toContain(`https://invoice.stripe.test/i/${invoice}`);
    const [stored] = await queryRows<{ invoice_url: string }>(
      database.db,
      sql`select invoice_url from credit_purchases where checkout_session_id = ${id}`,
    );
    expect(stored?.invoice_url).toBe(`https://invoice.stripe.test/i/${invoice}`);
    expect(composed.html).not.toContain("<script>");
    expect(composed.html).toContain("&lt;script&gt;");
  });

  it("grants once when the same event arrives ten times at once (over two connection pools on PostgreSQL)", async () => {
    const org = await organization();
    const id = await session(org.id);
    await stripe.pay(id); // the first delivery
    const paid = stripe.sessions.get(id) as StripeObject;
    const { body, signature } = stripe.signedEvent("checkout.session.completed", paid);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        fetch(webhooks[index % webhooks.length] as string, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
          body,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(await creditBalance(database.db, org.id)).toBe(10000);
    expect((await ledger(org.id)).filter((row) => row.kind === "purchase")).toHaveLength(1);
    expect((await audit(org.id)).filter((row) => row.action === "credits.purchase")).toHaveLength(1);
  });

  it("ten different deliveries of one session at once, the first among them included, grant once", async () => {
    const org = await organization();
    const id = await session(org.id);
    const paid = { ...(stripe.sessions.get(id) as StripeObject), payment_status: "paid", payment_intent: "pi_x" };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        stripe.sendEvent("checkout.session.completed", paid).then((answer) => answer.status),
      ),
    );
    expect(answers).toEqual(Array(10).fill(200));
    expect(await creditBalance(database.db, org.id)).toBe(10000);
  });

  it("of an organization deleted since is answered 200 and grants nothing", async () => {
    const org = await organization();
    const id = await session(org.id);
    await queryRows(database.db, sql`delete from organizations where id = ${org.id}`);
    const { webhook } = await stripe.pay(id);
    expect(webhook.status).toBe(200);
    expect(await count(sql`select count(*)::int as n from credit_purchases where checkout_session_id = ${id}`)).toBe(0);
  });

  it("not yet paid (a bank debit) stays pending until its asynchronous payment succeeds", async () => {
    const org = await organization();
    const id = await session(org.id);
    const unpaid = { ...(stripe.sessions.get(id) as StripeObject), status: "complete", payment_status: "unpaid" };
    expect((await stripe.sendEvent("checkout.session.completed", unpaid)).status).toBe(200);
    expect(await creditBalance(database.db, org.id)).toBe(0);
    expect(
      await count(
        sql`select count(*)::int as n from credit_purchases where checkout_session_id = ${id} and state = 'pending'`,
      ),
    ).toBe(1);
    const paid = { ...unpaid, payment_status: "paid", payment_intent: "pi_async" };
    expect((await stripe.sendEvent("checkout.session.async_payment_succeeded", paid)).status).toBe(200);
    expect(await creditBalance(database.db, org.id)).toBe(10000);
  });
});

describe("a delivery that is refused", () => {
  it("with a bad signature, a stale one or none is 400 invalid_signature and changes nothing", async () => {
    const org = await organization();
    const id = await session(org.id);
    const paid = { ...(stripe.sessions.get(id) as StripeObject), payment_status: "paid" };
    const before = await snapshot(org.id);
    for (const options of [{ secret: "whsec_not_the_endpoints" }, { timestamp: Math.floor(Date.now() / 1000) - 301 }]) {
      const answer = await stripe.sendEvent("checkout.session.completed", paid, options);
      expect(answer.status).toBe(400);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(await answer.json()).toMatchObject({ code: "invalid_signature", status: 400 });
    }
    const unsigned = await fetch(webhooks[0] as string, { method: "POST", body: JSON.stringify({ type: "x" }) });
    expect(unsigned.status).toBe(400);
    // A body changed after signing.
    const { body, signature } = stripe.signedEvent("checkout.session.completed", paid);
    const tampered = await fetch(webhooks[0] as string, {
      method: "POST",
      headers: { "Stripe-Signature": signature },
      body: body.replace('"credits":"10000"', '"credits":"99999"'),
    });
    expect(tampered.status).toBe(400);
    expect(await snapshot(org.id)).toEqual(before);
  });

  it("larger than 256 KiB is 413 request_too_large, unread", async () => {
    const rawBody = JSON.stringify({ type: "checkout.session.completed", padding: "x".repeat(WEBHOOK_BODY_LIMIT) });
    const answer = await stripe.sendEvent(
      "checkout.session.completed",
      { id: "cs_big", object: "checkout.session" },
      { rawBody },
    );
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ code: "request_too_large" });
  });

  it("other than POST is 405", async () => {
    const answer = await fetch(webhooks[0] as string);
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
  });
});

describe("an event we do not act on", () => {
  it("is answered 200 and changes nothing", async () => {
    const org = await organization();
    const id = await session(org.id);
    const before = await snapshot(org.id);
    const answer = await stripe.sendEvent("customer.created", { id: "cus_x", object: "customer" });
    expect(answer.status).toBe(200);
    // A session that is not ours (no metadata) changes nothing either.
    const foreign = { ...(stripe.sessions.get(id) as StripeObject), metadata: {}, payment_status: "paid" };
    expect((await stripe.sendEvent("checkout.session.completed", foreign)).status).toBe(200);
    expect(await snapshot(org.id)).toEqual(before);
  });
});

describe("refunds and disputes", () => {
  it("take back the refunded share, rounded down, once each; a full refund the rest, below zero if spent", async () => {
    const org = await organization();
    const id = await session(org.id); // 10,000 credits for 49.00
    await stripe.pay(id);
    await queryRows(
      database.db,
      sql`select debit_batch(${JSON.stringify([{ organizationId: org.id, cost: 9000, operation: "x", tokenId: null, requestId: "spend" }])}::jsonb, 0)`,
    );
    expect(await creditBalance(database.db, org.id)).toBe(1000);

    const partial = stripe.refundedCharge(id, 1000); // 1000 / 4900 × 10000 = 2040.8…
    expect((await stripe.sendEvent("charge.refunded", partial)).status).toBe(200);
    expect((await stripe.sendEvent("charge.refunded", partial)).status).toBe(200); // again: nothing new
    expect(await creditBalance(database.db, org.id)).toBe(1000 - 2040);

    const full = stripe.refundedCharge(id, 4900);
    expect((await stripe.sendEvent("charge.refunded", full)).status).toBe(200);
    expect(await creditBalance(database.db, org.id)).toBe(1000 - 10000);
    const refunds = (await ledger(org.id)).filter((row) => row.kind === "refund");
    expect(refunds.map((row) => row.amount)).toEqual([-2040, -7960]);
    expect(refunds[0]?.stripe_id).toMatch(/^ch_/);
    const [purchase] = await queryRows<{ state: string; credits_removed: number; charge_id: string }>(
      database.db,
      sql`select state, credits_removed, charge_id from credit_purchases where checkout_session_id = ${id}`,
    );
    expect(purchase).toMatchObject({ state: "refunded", credits_removed: 10000 });
    expect((await audit(org.id)).map((row) => row.action)).toEqual([
      "credits.purchase",
      "credits.refund",
      "credits.refund",
    ]);
  });

  it("a dispute takes back what refunds left, once; a refund after it takes nothing", async () => {
    const org = await organization();
    const id = await session(org.id);
    await stripe.pay(id);
    await stripe.sendEvent("charge.refunded", stripe.refundedCharge(id, 490)); // 1,000 credits
    const dispute = stripe.dispute(id);
    expect((await stripe.sendEvent("charge.dispute.created", dispute)).status).toBe(200);
    expect((await stripe.sendEvent("charge.dispute.created", dispute)).status).toBe(200);
    await stripe.sendEvent("charge.refunded", stripe.refundedCharge(id, 4900));
    expect(await creditBalance(database.db, org.id)).toBe(0);
    const kinds = (await ledger(org.id)).map((row) => [row.kind, row.amount]);
    expect(kinds).toEqual([
      ["purchase", 10000],
      ["refund", -1000],
      ["dispute", -9000],
    ]);
    expect((await audit(org.id)).at(-1)).toMatchObject({ action: "credits.dispute" });
    expect(
      await count(
        sql`select count(*)::int as n from credit_purchases where checkout_session_id = ${id} and state = 'disputed'`,
      ),
    ).toBe(1);
  });

  it("of a charge we never sold is answered 200 and changes nothing", async () => {
    const answer = await stripe.sendEvent("charge.refunded", {
      id: "ch_unknown",
      object: "charge",
      amount: 100,
      amount_refunded: 100,
      payment_intent: "pi_unknown",
    });
    expect(answer.status).toBe(200);
  });
});
