/**
 * The billing surfaces attacked (docs/billing.md): POST /stripe/webhook by an outsider without the
 * secret and by hostile Stripe-shaped deliveries (signed, but lying in their shape or fields); the
 * dashboard's billing procedures by another organization, a low role, a person without an
 * organization and a removed member; GET /v1/purchases with forged cursors and limits; and what
 * goes out (the credits-purchased e-mail, Stripe's customer name, the invoice link). Real database
 * (PGlite, or PostgreSQL under TEST_DATABASE_URL), the Stripe stand-in, and the real webhook handler
 * over a real HTTP server, as tests/db/billing-webhook.test.ts sets them up. Every refusal must
 * change nothing: balances, ledger, purchases and audit events are compared before and after.
 */
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/rows";
import type { CreditsPurchasedContent } from "@/server/1-domain/notification-content";
import type { Role } from "@/server/1-domain/roles";
import { describeError } from "@/server/1-errors/describe";
import { createApiToken } from "@/server/4-api-access/tokens";
import { type BillingConfig, parseCreditPacks } from "@/server/4-billing/config";
import { METADATA_CREDITS, METADATA_ORGANIZATION } from "@/server/4-billing/events";
import { stripeClient } from "@/server/4-billing/stripe";
import { serveStripeWebhook, WEBHOOK_BODY_LIMIT } from "@/server/4-billing/webhook";
import { creditBalance } from "@/server/4-credits/credits";
import { createOrganization } from "@/server/4-organizations/organizations";
import { composeMail } from "@/server/6-mail/notification-mail";
import { answerRestRequest } from "@/server/8-rest/handler";
import { addPerson } from "../helpers/accounts";
import { dashboardCallerAs, testDatabase } from "../helpers/database";
import { rawExchange } from "../helpers/raw-http";
import { type StripeObject, type StripeStandIn, startStripeStandIn } from "../helpers/stripe-stand-in";

const database = testDatabase({ seeded: true });
let stripe: StripeStandIn;
let config: BillingConfig;
let server: Server;
let webhook: string;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  config = {
    packs: parseCreditPacks("10000:4900:eur,100000:39900:eur"),
    stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: new URL(stripe.url) },
    contact: null,
    monthlyCapCredits: 0,
  };
  // The dashboard's procedures read the process's configuration once: the same settings.
  Object.assign(process.env, {
    CREDIT_PACKS: "10000:4900:eur,100000:39900:eur",
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
    CREDITS_MONTHLY_CAP: "1000000",
    APP_URL: "https://app.example",
  });
  server = createServer((request, response) => {
    serveStripeWebhook(request, response, async () => database.db, config).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  webhook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stripe/webhook`;
  stripe.webhookUrl = webhook;
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await stripe?.close();
});

let people = 0;
async function person(organizationId: string | null, role: string) {
  people += 1;
  return addPerson(database.db, { organizationId, role: role as Role, email: `${role}${people}@example.com` });
}

async function organization(name = "Hostile Co", credits = 0) {
  const owner = await person(null, "owner");
  const org = await createOrganization(database.db, { name, homeCountry: "DE", credits, ownerUserId: owner.id });
  return { id: org.id, owner };
}

/** A session made through the SDK against the stand-in, as our checkout makes one (no pending row). */
async function session(organizationId: string, credits = 10000, amount = 4900) {
  const client = stripeClient(config.stripe as NonNullable<BillingConfig["stripe"]>);
  const made = await client.checkout.sessions.create({
    mode: "payment",
    line_items: [
      { quantity: 1, price_data: { currency: "eur", unit_amount: amount, product_data: { name: "Credits" } } },
    ],
    metadata: { [METADATA_ORGANIZATION]: organizationId, [METADATA_CREDITS]: String(credits) },
    success_url: "https://app.example/credits?checkout={CHECKOUT_SESSION_ID}",
    invoice_creation: { enabled: true },
  });
  return made.id;
}

const paidSession = (id: string, changes: Record<string, unknown> = {}): StripeObject => ({
  ...(stripe.sessions.get(id) as StripeObject),
  status: "complete",
  payment_status: "paid",
  payment_intent: `pi_${id.slice(3)}`,
  ...changes,
});

const rows = (query: ReturnType<typeof sql>) => queryRows<Record<string, unknown>>(database.db, query);

/** Everything of every organization a refused or ignored delivery must leave as it was. */
const everything = async () => ({
  balances: await rows(sql`select id, credit_balance from organizations order by id`),
  ledger: await rows(sql`select id, organization_id, kind, amount from credit_ledger order by id`),
  purchases: await rows(
    sql`select id, organization_id, checkout_session_id, payment_intent_id, state, credits, amount, currency, credits_removed, invoice_url
        from credit_purchases order by id`,
  ),
  audit: await rows(sql`select id, action from audit_events where action like 'credits.%' order by id`),
  mails: await rows(sql`select id from mail_deliveries where kind = 'credits_purchased' order by id`),
});

/** A body signed as Stripe signs it: `t=<seconds>,v1=HMAC-SHA256(secret, "<t>.<body>")`. */
const hmac = (secret: string, timestamp: number, body: string) =>
  createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
const now = () => Math.floor(Date.now() / 1000);

/** An event body as Stripe writes one. */
const eventBody = (type: string, object: unknown) =>
  JSON.stringify({ id: `evt_${people}_${Math.random()}`, object: "event", type, data: { object } });

const post = (body: string, signature: string, headers: Record<string, string> = {}) =>
  fetch(webhook, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature, ...headers },
    body,
  });

/** A request written byte for byte (duplicated headers, lying lengths); the server closes after it. */
function raw(head: string[], body: string | Buffer = "") {
  const { host } = new URL(webhook);
  const text = [`POST /stripe/webhook HTTP/1.1`, `Host: ${host}`, "Connection: close", ...head, "", ""].join("\r\n");
  return rawExchange(webhook, `${text}${body.toString()}`);
}

async function problemOf(answer: Response) {
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
  return (await answer.json()) as { code: string; status: number; detail: string };
}

describe("POST /stripe/webhook: the signature", () => {
  it("refuses another secret's signature, and a valid signature of another body; changes nothing", async () => {
    const org = await organization();
    const paid = paidSession(await session(org.id));
    const before = await everything();
    const body = eventBody("checkout.session.completed", paid);
    const other = eventBody("checkout.session.completed", { ...paid, id: "cs_other" });
    for (const signature of [
      `t=${now()},v1=${hmac("whsec_someone_elses", now(), body)}`,
      `t=${now()},v1=${hmac(stripe.webhookSecret, now(), other)}`,
      // The right HMAC under Stripe's old scheme only: v0 is never accepted.
      `t=${now()},v0=${hmac(stripe.webhookSecret, now(), body)}`,
      // The right HMAC of the body without the timestamp it claims.
      `t=${now()},v1=${createHmac("sha256", stripe.webhookSecret).update(body).digest("hex")}`,
      "",
      "garbage",
      `t=,v1=`,
    ]) {
      const answer = await post(body, signature);
      expect(answer.status, signature).toBe(400);
      expect(await problemOf(answer), signature).toMatchObject({ code: "invalid_signature", status: 400 });
    }
    expect(await everything()).toEqual(before);
  });

  it("accepts a header with several v1 signatures when one is right (as Stripe documents), and none when none is", async () => {
    const org = await organization();
    const paid = paidSession(await session(org.id));
    const body = eventBody("checkout.session.completed", paid);
    const t = now();
    const wrong = `t=${t},v1=${"0".repeat(64)},v1=${hmac("whsec_x", t, body)}`;
    expect((await post(body, wrong)).status).toBe(400);
    expect(await creditBalance(database.db, org.id)).toBe(0);
    const oneRight = `t=${t},v1=${"0".repeat(64)},v1=${hmac(stripe.webhookSecret, t, body)},v0=abc`;
    expect((await post(body, oneRight)).status).toBe(200);
    expect(await creditBalance(database.db, org.id)).toBe(10000);
  });

  it("refuses a timestamp beyond the tolerance, in the past or in the future", async () => {
    const org = await organization();
    const paid = paidSession(await session(org.id));
    const before = await everything();
    const body = eventBody("checkout.session.completed", paid);
    for (const t of [now() - 301, now() + 360, now() + 365 * 24 * 3600]) {
      const answer = await post(body, `t=${t},v1=${hmac(stripe.webhookSecret, t, body)}`);
      expect(answer.status, String(t - now())).toBe(400);
      expect(await problemOf(answer)).toMatchObject({ code: "invalid_signature" });
    }
    // A timestamp that is not a number: the SDK signs and checks "NaN.<body>" and never finds it old.
    const never = `t=soon,v1=${createHmac("sha256", stripe.webhookSecret).update(`NaN.${body}`).digest("hex")}`;
    expect((await post(body, never)).status).toBe(400);
    expect(await everything()).toEqual(before);
  });

  it("a stale signature is not freshened by a second Stripe-Signature header or a second t=", async () => {
    const org = await organization();
    const paid = paidSession(await session(org.id));
    const before = await everything();
    const body = eventBody("checkout.session.completed", paid);
    const old = now() - 3600;
    const stale = `t=${old},v1=${hmac(stripe.webhookSecret, old, body)}`;
    const answers = [
      await raw(
        [
          "Content-Type: application/json",
          `Content-Length: ${Buffer.byteLength(body)}`,
          `Stripe-Signature: t=${now()},v1=${"0".repeat(64)}`,
          `Stripe-Signature: ${stale}`,
        ],
        body,
      ),
      await raw(
        [
          "Content-Type: application/json",
          `Content-Length: ${Buffer.byteLength(body)}`,
          `Stripe-Signature: ${stale}`,
          `Stripe-Signature: t=${now()}`,
        ],
        body,
      ),
      await raw(
        [
          "Content-Type: application/json",
          `Content-Length: ${Buffer.byteLength(body)}`,
          `Stripe-Signature: ${stale},t=${now()}`,
        ],
        body,
      ),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ code: "invalid_signature" });
    }
    expect(await everything()).toEqual(before);
  });

  it("an oversized Stripe-Signature header is refused (by us or by Node), never a 500", async () => {
    const org = await organization();
    const paid = paidSession(await session(org.id));
    const before = await everything();
    const body = eventBody("checkout.session.completed", paid);
    const t = now();
    for (const entries of [1000, 20000]) {
      const junk = Array.from({ length: Math.ceil(entries / 70) }, () => `v1=${"f".repeat(64)}`).join(",");
      const answer = await raw(
        [
          "Content-Type: application/json",
          `Content-Length: ${Buffer.byteLength(body)}`,
          `Stripe-Signature: t=${t},${junk}`,
        ],
        body,
      );
      expect([400, 431]).toContain(answer.status);
    }
    expect(await everything()).toEqual(before);
  });
});

describe("POST /stripe/webhook: the body", () => {
  it("declared small and sent large is read as declared, which no signature verifies", async () => {
    const org = await organization();
    const paid = paidSession(await session(org.id));
    const before = await everything();
    const body = eventBody("checkout.session.completed", paid);
    const t = now();
    const answer = await raw(
      [
        "Content-Type: application/json",
        "Content-Length: 10",
        `Stripe-Signature: t=${t},v1=${hmac(stripe.webhookSecret, t, body)}`,
      ],
      body,
    );
    expect(answer.status).toBe(400);
    expect(await everything()).toEqual(before);
  });

  it("declared huge is 413 at once, unread; chunked past 256 KiB is 413 too", async () => {
    const declared = await raw(
      ["Content-Type: application/json", "Content-Length: 999999999999", "Stripe-Signature: t=1,v1=x"],
      "{}",
    );
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({ code: "request_too_large" });
    const chunk = "x".repeat(64 * 1024);
    const chunks = Array.from(
      { length: WEBHOOK_BODY_LIMIT / chunk.length + 1 },
      () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`,
    );
    const chunked = await raw(
      ["Content-Type: application/json", "Transfer-Encoding: chunked", "Stripe-Signature: t=1,v1=x"],
      `${chunks.join("")}0\r\n\r\n`,
    );
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ code: "request_too_large" });
  });

  it("empty, or signed but not JSON, or JSON but not an event: 400 with a problem, nothing changed", async () => {
    const org = await organization();
    await session(org.id);
    const before = await everything();
    const empty = await post("", `t=${now()},v1=${hmac(stripe.webhookSecret, now(), "")}`);
    expect(empty.status).toBe(400);
    await problemOf(empty);
    for (const body of [
      "not json",
      "{",
      '{"type":"checkout.session.completed"',
      "null",
      "42",
      '"checkout.session.completed"',
      "[]",
      '{"type":"checkout.session.completed"}',
      '{"type":"checkout.session.completed","data":null}',
      '{"type":"checkout.session.completed","data":{"object":null}}',
      '{"type":"checkout.session.completed","data":{"object":"cs_x"}}',
      '{"type":"charge.refunded","data":{"object":[]}}',
      '{"type":["checkout.session.completed"],"data":{"object":{}}}',
    ]) {
      const signed = stripe.signedEvent("x", { id: "x", object: "x" }, { rawBody: body });
      const answer = await post(signed.body, signed.signature);
      expect(answer.status, body).toBe(400);
      expect((await problemOf(answer)).status, body).toBe(400);
    }
    expect(await everything()).toEqual(before);
  });
});

describe("POST /stripe/webhook: a signed event with hostile fields", () => {
  it("of a checkout session (credits, amount, currency, ids, organization) grants nothing, writes nothing, never 500", async () => {
    const org = await organization();
    const id = await session(org.id);
    const before = await everything();
    const base = paidSession(id);
    const metadata = (credits: unknown, organizationId: unknown = org.id) => ({
      metadata: { [METADATA_ORGANIZATION]: organizationId, [METADATA_CREDITS]: credits },
    });
    const hostile: Array<[string, Record<string, unknown>]> = [
      ["credits -5", metadata("-5")],
      ["credits 1e9", metadata("1e9")],
      ["credits ' 10'", metadata(" 10")],
      ["credits '10 '", metadata("10 ")],
      ["credits 0", metadata("0")],
      ["credits huge", metadata("99999999999999999999")],
      ["credits 0x10", metadata("0x10")],
      ["credits number -5", metadata(-5)],
      ["credits number 1.5", metadata(1.5)],
      ["credits number 2^40", metadata(2 ** 40)],
      ["credits array", metadata(["10000"])],
      ["no organization", metadata("10000", "org_does_not_exist")],
      ["organization object", metadata("10000", { id: org.id })],
      ["metadata null", { metadata: null }],
      ["amount 0", { amount_total: 0 }],
      ["amount -4900", { amount_total: -4900 }],
      ["amount 1.5", { amount_total: 1.5 }],
      ["amount 2^40", { amount_total: 2 ** 40 }],
      ["amount null", { amount_total: null }],
      ["currency markup", { currency: "<b>eur</b>" }],
      ["currency upper", { currency: "EUR" }],
      ["currency long", { currency: "e".repeat(10000) }],
      ["currency number", { currency: 978 }],
      ["id missing", { id: undefined }],
      ["id number", { id: 12345 }],
      ["id object", { id: { id } }],
      ["id with markup", { id: "cs_<script>" }],
    ];
    for (const [what, changes] of hostile) {
      const object = { ...base, ...changes } as StripeObject;
      for (const type of ["checkout.session.completed", "checkout.session.async_payment_succeeded"]) {
        const answer = await stripe.sendEvent(type, object);
        expect(answer.status, `${what} ${type}`).toBeLessThan(500);
      }
      expect(await everything(), what).toEqual(before);
    }
    // An unpaid completion with a wrong field does not write a pending purchase either.
    for (const [what, changes] of hostile) {
      const object = { ...base, ...changes, payment_status: "unpaid" } as StripeObject;
      expect((await stripe.sendEvent("checkout.session.completed", object)).status, what).toBeLessThan(500);
    }
    expect(await everything()).toEqual(before);
    // The unspoilt event still grants: the refusals above were about the fields.
    expect((await stripe.sendEvent("checkout.session.completed", base)).status).toBe(200);
    expect(await creditBalance(database.db, org.id)).toBe(10000);
  });

  it("naming organization A for organization B's purchase neither moves B's row to A nor grants A", async () => {
    const a = await organization("A Co");
    const b = await organization("B Co");
    const owner = await dashboardCallerAs(database.db, b.owner.id);
    const { checkoutSessionId } = await owner.billing.checkout({ pack: "10000-eur" });
    const forged = paidSession(checkoutSessionId, {
      metadata: { [METADATA_ORGANIZATION]: a.id, [METADATA_CREDITS]: "100000" },
    });
    const before = await everything();
    for (const type of ["checkout.session.completed", "checkout.session.async_payment_succeeded"])
      expect((await stripe.sendEvent(type, forged)).status).toBeLessThan(500);
    const unpaid = { ...forged, payment_status: "unpaid" };
    expect((await stripe.sendEvent("checkout.session.completed", unpaid)).status).toBeLessThan(500);
    expect(await everything()).toEqual(before);
    expect(
      await rows(
        sql`select organization_id, state from credit_purchases where checkout_session_id = ${checkoutSessionId}`,
      ),
    ).toEqual([{ organization_id: b.id, state: "pending" }]);
    // B's own payment is still granted to B, with B's pack, after the forgery.
    await stripe.pay(checkoutSessionId);
    expect(await creditBalance(database.db, b.id)).toBe(10000);
    expect(await creditBalance(database.db, a.id)).toBe(0);
    // …and the forgery sent again after it finds nothing to do.
    expect((await stripe.sendEvent("checkout.session.completed", forged)).status).toBeLessThan(500);
    expect(await creditBalance(database.db, a.id)).toBe(0);
    expect(await creditBalance(database.db, b.id)).toBe(10000);
  });

  it("of a refund, a dispute or a failed payment with wrong fields takes nothing, writes nothing, never 500", async () => {
    const org = await organization();
    const id = await session(org.id);
    await stripe.pay(id);
    expect(await creditBalance(database.db, org.id)).toBe(10000);
    const charge = stripe.refundedCharge(id, 0);
    const before = await everything();
    const refunds: Array<[string, Record<string, unknown>]> = [
      ["amount missing", { amount: undefined, amount_refunded: 4900 }],
      ["amount 0", { amount: 0, amount_refunded: 0 }],
      ["amount -1", { amount: -1, amount_refunded: -1 }],
      ["amount 1.5", { amount: 1.5, amount_refunded: 1.5 }],
      ["amount more than charged", { amount: 4900, amount_refunded: 4901 }],
      ["refunded negative", { amount_refunded: -4900 }],
      ["refunded missing", { amount_refunded: undefined }],
      ["refunded NaN-ish", { amount_refunded: "NaN" }],
      ["refunded 2^60", { amount: 2 ** 60, amount_refunded: 2 ** 60 }],
      ["id missing", { id: undefined, amount_refunded: 4900 }],
      ["id number", { id: 7, amount_refunded: 4900 }],
    ];
    for (const [what, changes] of refunds) {
      const answer = await stripe.sendEvent("charge.refunded", { ...charge, ...changes } as StripeObject);
      expect(answer.status, what).toBeLessThan(500);
      expect(await everything(), what).toEqual(before);
    }
    const dispute = stripe.dispute(id);
    for (const [what, changes] of [
      ["id missing", { id: undefined }],
      ["id number", { id: 9 }],
      ["id object", { id: { id: "dp_x" } }],
    ] as Array<[string, Record<string, unknown>]>) {
      const answer = await stripe.sendEvent("charge.dispute.created", { ...dispute, ...changes } as StripeObject);
      expect(answer.status, what).toBeLessThan(500);
      expect(await everything(), what).toEqual(before);
    }
    for (const object of [
      { object: "checkout.session" },
      { id: 5, object: "checkout.session" },
      { id: null, object: "x" },
    ]) {
      const answer = await stripe.sendEvent("checkout.session.async_payment_failed", object as unknown as StripeObject);
      expect(answer.status, JSON.stringify(object)).toBeLessThan(500);
    }
    expect(await everything()).toEqual(before);
    // The real refund still takes its share.
    expect((await stripe.sendEvent("charge.refunded", stripe.refundedCharge(id, 4900))).status).toBe(200);
    expect(await creditBalance(database.db, org.id)).toBe(0);
  });
});

describe("the invoice link", () => {
  it("is only ever an https address: a javascript: or http: one from Stripe reaches neither the purchase nor the mail", async () => {
    for (const url of [
      "javascript:alert(document.cookie)",
      "http://invoice.stripe.test/i/x",
      'https://x" onclick="a',
      " https://x",
    ]) {
      // Expanded in the event…
      const org = await organization();
      const id = await session(org.id);
      const expanded = paidSession(id, { invoice: { id: "in_x", object: "invoice", hosted_invoice_url: url } });
      expect((await stripe.sendEvent("checkout.session.completed", expanded)).status).toBe(200);
      // …or read from Stripe by the invoice's id.
      const other = await organization();
      const otherId = await session(other.id);
      stripe.invoices.set("in_hostile", { id: "in_hostile", object: "invoice", hosted_invoice_url: url });
      expect(
        (await stripe.sendEvent("checkout.session.completed", paidSession(otherId, { invoice: "in_hostile" }))).status,
      ).toBe(200);
      for (const organizationId of [org.id, other.id]) {
        expect(await creditBalance(database.db, organizationId)).toBe(10000);
        const [purchase] = await rows(
          sql`select invoice_url from credit_purchases where organization_id = ${organizationId}`,
        );
        expect(purchase, url).toEqual({ invoice_url: null });
        const mails = await rows(
          sql`select id, user_id, recipient, dedupe_key, content from mail_deliveries
              where kind = 'credits_purchased' and content->>'organizationId' = ${organizationId}`,
        );
        expect(mails).toHaveLength(1);
        const mail = mails[0] as Record<string, unknown>;
        expect((mail.content as CreditsPurchasedContent).invoiceUrl).toBeNull();
        const composed = await composeMail({
          id: mail.id as number,
          userId: mail.user_id as string,
          recipient: mail.recipient as string,
          kind: "credits_purchased",
          dedupeKey: mail.dedupe_key as string,
          content: mail.content as CreditsPurchasedContent,
        });
        expect(composed.html).not.toContain(url);
        expect(composed.text).not.toContain(url);
      }
    }
  });
});

describe("the organization's name, as the owner wrote it", () => {
  it("is escaped in the credits-purchased e-mail, on one bounded line in its subject", async () => {
    const org = await organization("Evil");
    const name = `<img src=x onerror=alert(1)>\r\nBcc: victim@example.com\r\n\r\n${"A".repeat(5000)}`;
    // Longer than the dashboard allows: what a name could be after any later change of its rules.
    await queryRows(database.db, sql`update organizations set name = ${name} where id = ${org.id}`);
    await stripe.pay(await session(org.id));
    const [mail] = await rows(
      sql`select id, user_id, recipient, dedupe_key, content from mail_deliveries
          where kind = 'credits_purchased' and content->>'organizationId' = ${org.id}`,
    );
    if (!mail) throw new Error("no mail");
    const composed = await composeMail({
      id: mail.id as number,
      userId: mail.user_id as string,
      recipient: mail.recipient as string,
      kind: "credits_purchased",
      dedupeKey: mail.dedupe_key as string,
      content: mail.content as CreditsPurchasedContent,
    });
    expect(composed.subject).not.toMatch(/[\r\n]/);
    expect(composed.subject.length).toBeLessThanOrEqual(120);
    expect(composed.html).not.toContain("<img");
    expect(composed.html).toContain("&lt;img");
    expect(composed.to).toBe(mail.recipient);
  });

  it("is sent to Stripe as the customer's name bounded and on one line", async () => {
    const org = await organization("Evil");
    const name = `Evil\r\nPAID IN FULL\u2028\u0007${"B".repeat(5000)}`;
    await queryRows(database.db, sql`update organizations set name = ${name} where id = ${org.id}`);
    await (await dashboardCallerAs(database.db, org.owner.id)).billing.checkout({ pack: "10000-eur" });
    const [customer] = [...stripe.customers.values()].filter(
      (candidate) => (candidate.metadata as Record<string, string>).organization === org.id,
    );
    const sent = String(customer?.name);
    expect(sent.length).toBeLessThanOrEqual(256);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters looked for
    expect(sent).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(sent.startsWith("Evil PAID IN FULL")).toBe(true);
  });
});

const as = (userId: string) => dashboardCallerAs(database.db, userId, { origin: "http://dashboard.test" });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ code: "none", value }),
    (error: unknown) => describeError(error),
  );

describe("the dashboard's billing procedures", () => {
  it("a checkout of a hostile pack id is 400 and makes nothing at Stripe or here", async () => {
    const org = await organization();
    const caller = await as(org.owner.id);
    const customers = stripe.customers.size;
    const sessions = stripe.sessions.size;
    for (const pack of [
      "<script>alert(1)</script>",
      "x".repeat(10 * 1024),
      "💳".repeat(40),
      "__proto__",
      "constructor",
      "toString",
      "10000-eur\u0000",
      " 10000-eur",
      "10000-EUR",
      "10000-eur,100000-eur",
      "",
    ]) {
      const problem = await refusal(caller.billing.checkout({ pack }));
      expect(problem, pack.slice(0, 30)).toMatchObject({ code: "invalid_request" });
      expect(JSON.stringify(problem).length).toBeLessThan(2000);
    }
    for (const input of [{ pack: 10000 }, { pack: ["10000-eur"] }, { pack: "10000-eur", organization: "org_x" }, null])
      expect(await refusal(caller.billing.checkout(input as never)), JSON.stringify(input)).toMatchObject({
        code: "invalid_request",
      });
    expect(stripe.customers.size).toBe(customers);
    expect(stripe.sessions.size).toBe(sessions);
    expect(await rows(sql`select id from credit_purchases where organization_id = ${org.id}`)).toEqual([]);
  });

  it("`returned` with another organization's session says unknown and nothing else", async () => {
    const mine = await organization();
    const theirs = await organization();
    const { checkoutSessionId } = await (await as(theirs.owner.id)).billing.checkout({ pack: "10000-eur" });
    await stripe.pay(checkoutSessionId);
    const caller = await as(mine.owner.id);
    expect(await caller.billing.returned({ session: checkoutSessionId })).toEqual({ state: "unknown" });
    for (const session of ["%", "cs_%", "*", `${checkoutSessionId} `, checkoutSessionId.toUpperCase()])
      expect(await caller.billing.returned({ session })).toEqual({ state: "unknown" });
    expect(await refusal(caller.billing.returned({ session: "x".repeat(256) }))).toMatchObject({
      code: "invalid_request",
    });
    expect(await caller.billing.purchases({})).toEqual([]);
  });

  it("`purchases` with a limit out of range, `setCap` with a value out of range: 400, nothing changed", async () => {
    const org = await organization();
    const caller = await as(org.owner.id);
    for (const limit of [0, -1, 101, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "10", null])
      expect(await refusal(caller.billing.purchases({ limit: limit as number })), String(limit)).toMatchObject({
        code: "invalid_request",
      });
    for (const credits of [-1, 0.5, 1e12, 2 ** 31, "10", Number.NaN, Number.POSITIVE_INFINITY, {}, true, undefined])
      expect(await refusal(caller.billing.setCap({ credits: credits as number })), String(credits)).toMatchObject({
        code: "invalid_request",
      });
    expect(await refusal(caller.billing.setCap({ credits: 5, organization: "org_x" } as never))).toMatchObject({
      code: "invalid_request",
    });
    expect(await rows(sql`select purchase_cap_credits from organizations where id = ${org.id}`)).toEqual([
      { purchase_cap_credits: null },
    ]);
    expect(
      await rows(sql`select id from audit_events where organization_id = ${org.id} and action = 'credits.cap_change'`),
    ).toEqual([]);
  });

  it("one Stripe customer can never be two organizations'; the portal of one that never bought is a 409", async () => {
    const a = await organization();
    const b = await organization();
    await (await as(a.owner.id)).billing.checkout({ pack: "10000-eur" });
    const [customer] = await rows(
      sql`select stripe_customer_id from billing_customers where organization_id = ${a.id}`,
    );
    await expect(
      queryRows(
        database.db,
        sql`insert into billing_customers (organization_id, stripe_customer_id) values (${b.id}, ${customer?.stripe_customer_id as string})`,
      ),
    ).rejects.toThrow();
    const portals = stripe.portalSessions.size;
    expect(await refusal((await as(b.owner.id)).billing.portal())).toMatchObject({ code: "conflict" });
    expect(stripe.portalSessions.size).toBe(portals);
  });

  it("a person with no organization, and a member removed since, reach no organization's billing", async () => {
    const org = await organization();
    const { checkoutSessionId } = await (await as(org.owner.id)).billing.checkout({ pack: "10000-eur" });
    const nobody = await person(null, "nobody");
    const billing = await person(org.id, "billing");
    await queryRows(database.db, sql`update users set active_organization_id = ${org.id} where id = ${billing.id}`);
    expect(await (await as(billing.id)).billing.returned({ session: checkoutSessionId })).toMatchObject({
      state: "pending",
    });
    await queryRows(
      database.db,
      sql`delete from memberships where organization_id = ${org.id} and user_id = ${billing.id}`,
    );
    const sessions = stripe.sessions.size;
    // Each request reads the person's memberships afresh (server/6-auth/session.ts), as these callers do.
    for (const who of [nobody.id, billing.id]) {
      const caller = await as(who);
      for (const attempt of [
        caller.billing.checkout({ pack: "10000-eur" }),
        caller.billing.portal(),
        caller.billing.setCap({ credits: 1 }),
        caller.billing.purchases({}),
        caller.billing.returned({ session: checkoutSessionId }),
        caller.billing.cap(),
        caller.billing.packs(),
      ])
        expect(await refusal(attempt)).toMatchObject({ code: "organization_required" });
    }
    expect(stripe.sessions.size).toBe(sessions);
    expect(await rows(sql`select count(*)::int as n from credit_purchases where organization_id = ${org.id}`)).toEqual([
      { n: 1 },
    ]);
  });

  it("admins and members may not buy, open the portal or change the cap", async () => {
    const org = await organization();
    const sessions = stripe.sessions.size;
    const portals = stripe.portalSessions.size;
    for (const role of ["admin", "member"]) {
      const caller = await as((await person(org.id, role)).id);
      expect(await refusal(caller.billing.checkout({ pack: "10000-eur" }))).toMatchObject({ code: "forbidden" });
      expect(await refusal(caller.billing.portal())).toMatchObject({ code: "forbidden" });
      expect(await refusal(caller.billing.setCap({ credits: 1 }))).toMatchObject({ code: "forbidden" });
    }
    expect(stripe.sessions.size).toBe(sessions);
    expect(stripe.portalSessions.size).toBe(portals);
    expect(await rows(sql`select id from credit_purchases where organization_id = ${org.id}`)).toEqual([]);
  });
});

describe("GET /v1/purchases", () => {
  async function get(token: string, query: string) {
    const answer = await answerRestRequest(
      {
        method: "GET",
        url: `http://localhost/v1/purchases${query}`,
        headers: new Headers({ Authorization: `Bearer ${token}` }),
      },
      async () => database.db,
    );
    return {
      status: answer.status,
      type: answer.headers["Content-Type"] ?? "",
      body: JSON.parse(answer.body?.toString() ?? "null"),
    };
  }
  const cursor = (text: string) => Buffer.from(text).toString("base64url");

  it("never answers another organization's rows, whatever the cursor; a forged one is 400 problem+json", async () => {
    const mine = await organization();
    const theirs = await organization();
    for (let i = 0; i < 2; i++) await (await as(mine.owner.id)).billing.checkout({ pack: "10000-eur" });
    for (let i = 0; i < 3; i++) await (await as(theirs.owner.id)).billing.checkout({ pack: "10000-eur" });
    const { secret } = await createApiToken(database.db, { organizationId: mine.id, name: "reader", scopes: [] });
    const theirRows = await rows(
      sql`select id, floor(extract(epoch from created_at) * 1000)::float8 as ms from credit_purchases
          where organization_id = ${theirs.id} order by created_at desc`,
    );
    const theirIds = new Set(theirRows.map((row) => row.id));
    const first = await get(secret, "?limit=1");
    expect(first.status).toBe(200);
    expect(first.body.purchases).toHaveLength(1);
    // A cursor made from their newest purchase (in the future, too): only my rows, or none.
    const newest = theirRows[0] as { id: string; ms: number };
    for (const forged of [
      cursor(`p:${Number(newest.ms) + 1}:${newest.id}`),
      cursor(`p:${Date.now() + 86_400_000}:${newest.id}`),
      cursor(`p:${Date.now() + 86_400_000}:pur_${"f".repeat(24)}`),
    ]) {
      const page = await get(secret, `?cursor=${forged}&limit=100`);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      for (const purchase of page.body.purchases) expect(theirIds.has(purchase.id)).toBe(false);
      expect(page.body.purchases.length).toBeLessThanOrEqual(2);
    }
    for (const bad of [
      "!!!",
      cursor("l:1:pur_abc"),
      cursor("p:1:pur_ABC"),
      cursor("p:-1:pur_abc"),
      cursor("p:1:pur_abc' or 1=1 --"),
      cursor(`p:1:pur_${"a".repeat(65)}`),
      cursor("p:999999999999999:pur_abc"), // the year 33658
      "a".repeat(101),
      "%00",
    ]) {
      const answer = await get(secret, `?cursor=${encodeURIComponent(bad)}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.type, bad).toBe("application/problem+json");
      expect(answer.body).toMatchObject({ code: "invalid_request" });
    }
    for (const limit of ["0", "101", "-1", "1.5", "x", "1e2", "", "10&limit=20"]) {
      const answer = await get(secret, `?limit=${limit}`);
      expect(answer.status, limit).toBe(400);
      expect(answer.type).toBe("application/problem+json");
    }
  });
});
