/**
 * Automatic top-up on a real database (PGlite here, PostgreSQL under TEST_DATABASE_URL, where a
 * second connection pool plays a second app instance), against the Stripe stand-in over HTTP
 * through the SDK, with signed webhooks: a card saved through Checkout in setup mode, 200
 * concurrent debits crossing the threshold schedule one attempt and one PaymentIntent, granted
 * once; declines and authentication count failures and pause at three; the monthly limit skips;
 * a dispute pauses; only owners and billing members change it; the sweep re-queues a lost attempt.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type DatabaseHandle, openDatabase } from "@/db/client";
import { queryRows } from "@/db/rows";
import type { TopUpFailedContent } from "@/server/1-domain/notification-content";
import type { Role } from "@/server/1-domain/roles";
import { describeError } from "@/server/1-errors/describe";
import { startQueue } from "@/server/3-queue/queue";
import { processBillingConfig } from "@/server/4-billing/config";
import { chargeTopUp, type TopUpRun } from "@/server/4-billing/top-up";
import { serveStripeWebhook } from "@/server/4-billing/webhook";
import { changeCredits, creditBalance, debitCredits, onTopUpsScheduled } from "@/server/4-credits/credits";
import { createOrganization } from "@/server/4-organizations/organizations";
import { composeMail } from "@/server/6-mail/notification-mail";
import { TOP_UP_JOB, topUpJobs } from "@/server/8-jobs/top-up-jobs";
import { addPerson } from "../helpers/accounts";
import { dashboardCallerAs, testDatabase, testDatabaseKind } from "../helpers/database";
import { type StripeStandIn, startStripeStandIn } from "../helpers/stripe-stand-in";

const database = testDatabase({ seeded: true });
let other: DatabaseHandle | null = null;
let stripe: StripeStandIn;
const servers: Server[] = [];
const webhooks: string[] = [];

async function serveWebhook(db: Database): Promise<string> {
  const server = createServer((request, response) => {
    serveStripeWebhook(request, response, async () => db).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/stripe/webhook`;
}

beforeAll(async () => {
  stripe = await startStripeStandIn();
  // Read once by the process's billing configuration: set before the first call.
  Object.assign(process.env, {
    CREDIT_PACKS: "10000:4900:eur,100000:39900:eur",
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
    CREDITS_MONTHLY_CAP: "0",
    APP_URL: "https://app.example",
  });
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

const rows = <Row = Record<string, unknown>>(query: ReturnType<typeof sql>) => queryRows<Row>(database.db, query);

let people = 0;
async function person(organizationId: string | null, role: string) {
  people += 1;
  const email = `${role}${people}@example.com`;
  return (await addPerson(database.db, { organizationId, role: role as Role, email })).id;
}

const as = (userId: string) => dashboardCallerAs(database.db, userId, { origin: "http://dashboard.test" });

/** An organization with an owner and a billing member, and `credits`. */
async function organization(credits: number, name = "Top-up Co") {
  const owner = await person(null, "owner");
  const org = await createOrganization(database.db, { name, homeCountry: "DE", credits, ownerUserId: owner });
  const billing = await person(org.id, "billing");
  return { id: org.id, owner, billing };
}

/** "Save a card" as a person clicks it, and Stripe's hosted page completed with `card`. */
async function saveCard(userId: string, card = "pm_card_visa") {
  const { checkoutSessionId, url } = await (await as(userId)).billing.saveCard();
  expect(url).toContain(`/pay/${checkoutSessionId}`);
  const answer = await stripe.completeSetup(checkoutSessionId, card);
  expect(answer.status).toBe(200);
}

async function setUp(
  userId: string,
  choice: Partial<{ enabled: boolean; threshold: number; pack: string; maxPerMonth: number }> = {},
) {
  return (await as(userId)).billing.setTopUp({
    enabled: true,
    threshold: 500,
    pack: "10000-eur",
    maxPerMonth: 5,
    ...choice,
  });
}

let requests = 0;
const debit = (organizationId: string, cost: number, db = database.db) =>
  debitCredits(db, {
    organizationId,
    cost,
    operation: "readings.snapshot",
    tokenId: null,
    requestId: `tu${requests++}`,
  });

const attempts = (organizationId: string) =>
  rows<{ id: string; state: string; outcome: string | null; payment_intent_id: string | null }>(
    sql`select id, state, outcome, payment_intent_id from top_up_attempts
        where organization_id = ${organizationId} order by created_at, id`,
  );

const settingsOf = async (organizationId: string) =>
  (
    await rows<{
      failures_in_row: number;
      paused_reason: string | null;
      last_failure: string | null;
      armed: number | null;
    }>(
      sql`select s.failures_in_row, s.paused_reason, s.last_failure, o.top_up_threshold as armed
          from top_up_settings s join organizations o on o.id = s.organization_id where s.organization_id = ${organizationId}`,
    )
  )[0];

const failureMails = (organizationId: string) =>
  rows<{
    id: number;
    recipient: string;
    kind: string;
    dedupe_key: string;
    user_id: string;
    content: TopUpFailedContent;
  }>(
    sql`select id, recipient, kind, dedupe_key, user_id, content from mail_deliveries
        where kind = 'top_up_failed' and content->>'organizationId' = ${organizationId} order by id`,
  );

/** Runs the job for the organization's open attempt, as the worker does. */
async function runOpenAttempt(organizationId: string): Promise<TopUpRun> {
  const open = (await attempts(organizationId)).filter((a) => a.state === "scheduled");
  expect(open).toHaveLength(1);
  return chargeTopUp(database.db, processBillingConfig(), open[0]?.id as string);
}

/** Takes the balance from above 500 to at or below it (topping it up first when needed). */
async function cross(organizationId: string) {
  const balance = await creditBalance(database.db, organizationId);
  if (balance <= 500) await changeCredits(database.db, { organizationId, kind: "grant", amount: 600 - balance });
  const now = await creditBalance(database.db, organizationId);
  expect((await debit(organizationId, now - 400)).ok).toBe(true);
}

describe("a crossing under load", () => {
  it("200 concurrent debits schedule one attempt, one PaymentIntent, and the grant happens once", async () => {
    const org = await organization(1000, "Busy Co");
    await saveCard(org.billing);
    expect(await setUp(org.owner)).toMatchObject({ armed: true });
    const heard: string[] = [];
    const stop = onTopUpsScheduled((ids) => heard.push(...ids));
    const pools = [database.db, other?.db ?? database.db];
    // 200 debits of 5 = 1000: the balance runs out, crossing 500 on the way, exactly once.
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => debit(org.id, 5, pools[i % 2])));
    stop();
    expect(results.filter((r) => r.ok)).toHaveLength(200);
    expect(await creditBalance(database.db, org.id)).toBe(0);
    const scheduled = await attempts(org.id);
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]?.state).toBe("scheduled");
    expect(heard).toEqual([scheduled[0]?.id]);

    // Another crossing while that one is open schedules nothing: one open attempt per organization.
    await cross(org.id);
    expect(await attempts(org.id)).toHaveLength(1);
    await changeCredits(database.db, { organizationId: org.id, kind: "adjustment", amount: -400 });

    const attemptId = scheduled[0]?.id as string;
    const intentsBefore = stripe.paymentIntents.size;
    const runs = await Promise.allSettled(
      [1, 2, 3].map(() => chargeTopUp(database.db, processBillingConfig(), attemptId)),
    );
    const charged = runs.filter((r) => r.status === "fulfilled" && r.value.outcome === "charged");
    expect(charged).toHaveLength(1);
    // A run after it (the queue's retry, the sweep's job) charges nothing more.
    expect(await chargeTopUp(database.db, processBillingConfig(), attemptId)).toMatchObject({ outcome: "not_open" });
    expect(stripe.paymentIntents.size).toBe(intentsBefore + 1);
    const made = stripe.requests.filter((r) => r.path === "/v1/payment_intents").at(-1);
    expect(made).toMatchObject({
      idempotencyKey: `top-up-${attemptId}`,
      body: { off_session: "true", confirm: "true", amount: "4900", currency: "eur" },
    });
    const [attempt] = await attempts(org.id);
    expect(attempt?.state).toBe("charging");
    const intentId = attempt?.payment_intent_id as string;
    expect(stripe.paymentIntents.has(intentId)).toBe(true);

    // Stripe says it succeeded, six times at once, to both "instances".
    const intent = stripe.paymentIntent(intentId);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => {
        stripe.webhookUrl = webhooks[i % webhooks.length] ?? null;
        return stripe.sendEvent("payment_intent.succeeded", intent);
      }),
    );
    stripe.webhookUrl = webhooks[0] ?? null;
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(await creditBalance(database.db, org.id)).toBe(10000);
    const entries = await rows(
      sql`select kind, amount, stripe_id from credit_ledger where organization_id = ${org.id} and kind = 'purchase'`,
    );
    expect(entries).toEqual([{ kind: "purchase", amount: 10000, stripe_id: intentId }]);
    expect(
      await rows(sql`select state, top_up_id, payment_intent_id, checkout_session_id from credit_purchases
                     where organization_id = ${org.id}`),
    ).toEqual([{ state: "paid", top_up_id: attemptId, payment_intent_id: intentId, checkout_session_id: null }]);
    expect((await attempts(org.id))[0]?.state).toBe("succeeded");
    expect(
      await rows(
        sql`select action from audit_events where organization_id = ${org.id} and action = 'credits.purchase'`,
      ),
    ).toHaveLength(1);
    const mails = await rows(
      sql`select recipient from mail_deliveries where kind = 'credits_purchased' and content->>'organizationId' = ${org.id}`,
    );
    expect(mails).toHaveLength(2); // the owner and the billing member
  });

  it("a PaymentIntent not ours changes nothing", async () => {
    const org = await organization(1000, "Stranger Co");
    const answer = await stripe.sendEvent("payment_intent.succeeded", {
      id: "pi_test_stranger",
      object: "payment_intent",
      amount: 4900,
      amount_received: 4900,
      currency: "eur",
      status: "succeeded",
      metadata: { organization: org.id, credits: "10000", top_up: "00000000-0000-4000-8000-000000000000" },
    });
    expect(answer.status).toBe(200);
    expect(await creditBalance(database.db, org.id)).toBe(1000);
  });
});

describe("the saved card", () => {
  it("is kept with its brand and last four, made the customer's default, and audited", async () => {
    const org = await organization(1000, "Card Co");
    await saveCard(org.owner);
    const [customer] = await rows<{
      stripe_customer_id: string;
      payment_method_id: string;
      card_brand: string;
      card_last4: string;
    }>(
      sql`select stripe_customer_id, payment_method_id, card_brand, card_last4 from billing_customers where organization_id = ${org.id}`,
    );
    expect(customer).toMatchObject({ payment_method_id: "pm_card_visa", card_brand: "visa", card_last4: "4242" });
    expect(stripe.customers.get(customer?.stripe_customer_id as string)?.invoice_settings).toEqual({
      default_payment_method: "pm_card_visa",
    });
    expect(
      await rows(
        sql`select action from audit_events where organization_id = ${org.id} and action like 'credits.card_%' order by id`,
      ),
    ).toEqual([{ action: "credits.card_setup" }, { action: "credits.card_saved" }]);
    // Enabled with no card would not be armed; with the card it is.
    const view = await (await as(org.billing)).billing.topUp();
    expect(view).toMatchObject({ card: { brand: "visa", last4: "4242" }, armed: false, settings: null });
  });

  it("removed at Stripe (the customer portal) is forgotten and disarms top-up; someone else's card changes nothing", async () => {
    const org = await organization(1000, "Detached Co");
    const card = `pm_card_visa_${org.id}`;
    await saveCard(org.owner, card);
    await setUp(org.owner);
    expect(await settingsOf(org.id)).toMatchObject({ armed: 500 });
    const detached = { id: card, object: "payment_method", type: "card", customer: null };
    const stranger = { ...detached, id: "pm_card_visa_of_nobody_here" };
    expect((await stripe.sendEvent("payment_method.detached", stranger)).status).toBe(200);
    expect(await settingsOf(org.id)).toMatchObject({ armed: 500 });
    expect((await stripe.sendEvent("payment_method.detached", detached)).status).toBe(200);
    expect(await settingsOf(org.id)).toMatchObject({ armed: null });
    expect(await (await as(org.owner)).billing.topUp()).toMatchObject({ card: null, armed: false });
    await cross(org.id);
    expect((await attempts(org.id)).filter((attempt) => attempt.state === "scheduled")).toHaveLength(0);
    const trail = await rows(
      sql`select action, target_id from audit_events where organization_id = ${org.id} and action = 'credits.card_removed'`,
    );
    expect(trail).toEqual([{ action: "credits.card_removed", target_id: card }]);
  });

  it("armed only with a card: settings saved before the card arm when the card comes", async () => {
    const org = await organization(1000, "Later Card Co");
    expect(await setUp(org.owner)).toMatchObject({ armed: false });
    await cross(org.id);
    expect(await attempts(org.id)).toHaveLength(0);
    await saveCard(org.owner);
    expect((await settingsOf(org.id))?.armed).toBe(500);
  });
});

describe("failures", () => {
  it("a decline e-mails what to do, counts, and three in a row pause until the settings change", async () => {
    const org = await organization(1000, `<b>Declined</b> & Co`);
    await saveCard(org.owner, "pm_card_chargeDeclined");
    await setUp(org.owner);
    await cross(org.id);
    expect(await runOpenAttempt(org.id)).toMatchObject({ outcome: "failed" });
    let settings = await settingsOf(org.id);
    expect(settings).toMatchObject({ failures_in_row: 1, paused_reason: null, armed: 500 });
    expect(settings?.last_failure).toContain("declined");
    const [failed] = await attempts(org.id);
    expect(failed).toMatchObject({ state: "failed" });
    expect(failed?.outcome).toContain("generic decline");
    const mails = await failureMails(org.id);
    expect(mails).toHaveLength(2);
    expect(mails[0]?.content).toMatchObject({ failuresInRow: 1, pausedReason: null, credits: 10000 });
    const composed = await composeMail({
      id: mails[0]?.id as number,
      userId: mails[0]?.user_id as string,
      recipient: mails[0]?.recipient as string,
      kind: "top_up_failed",
      dedupeKey: mails[0]?.dedupe_key as string,
      content: mails[0]?.content as TopUpFailedContent,
    });
    expect(composed.text).toContain("Save a new card");
    expect(composed.html).not.toContain("<b>Declined</b>");
    expect(composed.html).toContain("&lt;b&gt;Declined&lt;/b&gt; &amp; Co");

    // Stripe's payment_intent.payment_failed for the same attempt changes nothing more.
    const intentId = failed?.payment_intent_id as string;
    expect(intentId).toMatch(/^pi_/);
    expect((await stripe.sendEvent("payment_intent.payment_failed", stripe.paymentIntent(intentId))).status).toBe(200);
    expect((await settingsOf(org.id))?.failures_in_row).toBe(1);
    expect(await failureMails(org.id)).toHaveLength(2);

    for (const _ of [2, 3]) {
      await cross(org.id);
      expect(await runOpenAttempt(org.id)).toMatchObject({ outcome: "failed" });
    }
    settings = await settingsOf(org.id);
    expect(settings).toMatchObject({ failures_in_row: 3, armed: null });
    expect(settings?.paused_reason).toContain("in a row failed");
    expect((await failureMails(org.id)).at(-1)?.content.pausedReason).toContain("in a row failed");
    const view = await (await as(org.billing)).billing.topUp();
    expect(view).toMatchObject({ armed: false, failuresInRow: 3 });
    expect(view.pausedReason).toContain("in a row");

    // Paused: a crossing schedules nothing.
    await cross(org.id);
    expect(await attempts(org.id)).toHaveLength(3);

    // Someone changes it: re-armed, failures forgotten; the next crossing schedules again.
    expect(await setUp(org.billing, { threshold: 500 })).toMatchObject({ armed: true });
    expect(await settingsOf(org.id)).toMatchObject({ failures_in_row: 0, paused_reason: null, armed: 500 });
    await cross(org.id);
    expect(await attempts(org.id)).toHaveLength(4);
  });

  it("a card that needs its holder says to complete authentication", async () => {
    const org = await organization(1000, "Auth Co");
    await saveCard(org.owner, "pm_card_authenticationRequired");
    await setUp(org.owner);
    await cross(org.id);
    const run = await runOpenAttempt(org.id);
    expect(run).toMatchObject({ outcome: "failed" });
    const [failed] = await attempts(org.id);
    expect(failed?.payment_intent_id).toMatch(/^pi_/);
    expect(stripe.paymentIntent(failed?.payment_intent_id as string).status).toBe("requires_action");
    const [mail] = await failureMails(org.id);
    expect(mail?.content.remedy).toContain("Complete authentication");
    expect(mail?.content.reason).toContain("authenticate");
    expect((await settingsOf(org.id))?.last_failure).toContain("Complete authentication");
  });
});

describe("limits", () => {
  it("past the times a month, the attempt is skipped: no PaymentIntent, no failure", async () => {
    const org = await organization(1000, "Limited Co");
    await saveCard(org.owner);
    await setUp(org.owner, { maxPerMonth: 1 });
    await cross(org.id);
    const first = await runOpenAttempt(org.id);
    expect(first).toMatchObject({ outcome: "charged" });
    const intentId = (first as { paymentIntentId: string }).paymentIntentId;
    expect((await stripe.sendEvent("payment_intent.succeeded", stripe.paymentIntent(intentId))).status).toBe(200);
    const intentsBefore = stripe.paymentIntents.size;
    await cross(org.id);
    expect(await runOpenAttempt(org.id)).toMatchObject({ outcome: "skipped" });
    expect(stripe.paymentIntents.size).toBe(intentsBefore);
    const last = (await attempts(org.id)).at(-1);
    expect(last?.state).toBe("skipped");
    expect(last?.outcome).toContain("this month");
    expect(await settingsOf(org.id)).toMatchObject({ failures_in_row: 0, paused_reason: null, armed: 500 });
    expect(await failureMails(org.id)).toHaveLength(0);
  });
});

describe("the monthly cap", () => {
  it("a top-up takes room under the owners' cap before charging; with none left it is skipped, not charged", async () => {
    const org = await organization(1000, "Capped Co");
    await saveCard(org.owner);
    await setUp(org.owner);
    await (await as(org.owner)).billing.setCap({ credits: 15000 });
    await cross(org.id);
    const first = await runOpenAttempt(org.id);
    expect(first).toMatchObject({ outcome: "charged" });
    const intentId = (first as { paymentIntentId: string }).paymentIntentId;
    // The purchase was reserved before the charge, and takes its PaymentIntent: one row, not two.
    expect(
      await rows(sql`select state, payment_intent_id from credit_purchases where organization_id = ${org.id}`),
    ).toEqual([{ state: "pending", payment_intent_id: intentId }]);
    expect((await stripe.sendEvent("payment_intent.succeeded", stripe.paymentIntent(intentId))).status).toBe(200);
    expect(await rows(sql`select state from credit_purchases where organization_id = ${org.id}`)).toEqual([
      { state: "paid" },
    ]);
    const intentsBefore = stripe.paymentIntents.size;
    await cross(org.id);
    const second = await runOpenAttempt(org.id);
    expect(second).toMatchObject({ outcome: "skipped", reason: expect.stringContaining("its cap of 15,000") });
    expect(stripe.paymentIntents.size).toBe(intentsBefore);
    expect(await failureMails(org.id)).toHaveLength(0);
  });

  it("a declined top-up gives its room back", async () => {
    const org = await organization(1000, "Declined Cap Co");
    await saveCard(org.owner, "pm_card_chargeDeclined");
    await setUp(org.owner);
    await cross(org.id);
    expect(await runOpenAttempt(org.id)).toMatchObject({ outcome: "failed" });
    expect(await (await as(org.owner)).billing.cap()).toMatchObject({ thisMonth: 0 });
  });
});

describe("a dispute", () => {
  it("takes the credits back and pauses automatic top-up", async () => {
    const org = await organization(1000, "Disputed Co");
    await saveCard(org.owner);
    await setUp(org.owner);
    await cross(org.id);
    const run = (await runOpenAttempt(org.id)) as { paymentIntentId: string };
    await stripe.sendEvent("payment_intent.succeeded", stripe.paymentIntent(run.paymentIntentId));
    const before = await creditBalance(database.db, org.id);
    expect((await stripe.sendEvent("charge.dispute.created", stripe.disputeIntent(run.paymentIntentId))).status).toBe(
      200,
    );
    expect(await creditBalance(database.db, org.id)).toBe(before - 10000);
    expect(await settingsOf(org.id)).toMatchObject({ paused_reason: "a payment was disputed", armed: null });
    await cross(org.id);
    expect((await attempts(org.id)).filter((a) => a.state === "scheduled")).toHaveLength(0);
  });
});

describe("who may change it", () => {
  it("only owners and billing members; out-of-range values and unknown packs are 400", async () => {
    const org = await organization(1000, "Guarded Co");
    await setUp(org.owner, { threshold: 300 });
    const before = await rows(sql`select * from top_up_settings where organization_id = ${org.id}`);
    const sessionsBefore = stripe.sessions.size;
    const stranger = await organization(1000, "Stranger Co");
    const outsider = await person(stranger.id, "member");
    for (const userId of [await person(org.id, "admin"), await person(org.id, "member"), outsider]) {
      const set = await setUp(userId).catch((caught: unknown) => caught);
      expect(describeError(set)).toMatchObject({ code: "forbidden" });
      const save = await (await as(userId)).billing.saveCard().catch((caught: unknown) => caught);
      expect(describeError(save)).toMatchObject({ code: "forbidden" });
    }
    for (const bad of [
      { threshold: -1 },
      { threshold: 2_000_000_000 },
      { maxPerMonth: 0 },
      { maxPerMonth: 101 },
      { pack: "1-eur" },
    ]) {
      const error = await setUp(org.owner, bad).catch((caught: unknown) => caught);
      expect(describeError(error)).toMatchObject({ code: "invalid_request" });
    }
    expect(await rows(sql`select * from top_up_settings where organization_id = ${org.id}`)).toEqual(before);
    expect(stripe.sessions.size).toBe(sessionsBefore);
    expect(
      await rows(
        sql`select action from audit_events where organization_id = ${org.id} and action = 'credits.top_up_changed'`,
      ),
    ).toHaveLength(1);
  });
});

describe("the sweep", () => {
  it("queues an attempt a process never queued, once, by its id", async () => {
    const org = await organization(1000, "Lost Co");
    await saveCard(org.owner);
    await setUp(org.owner);
    await cross(org.id); // no listener: nobody queued it
    const [lost] = await attempts(org.id);
    expect(lost?.state).toBe("scheduled");
    const boss: PgBoss = await startQueue(database, { work: false });
    try {
      await boss.createQueue(TOP_UP_JOB);
      const context = {
        send: (name: string, data: object, options?: PgBoss.SendOptions) => boss.send(name, data, options ?? {}),
      };
      const sweep = topUpJobs().find((job) => job.cron);
      // Within its first minute it is not lost yet (other tests' attempts may be: counted apart).
      const lostNow = async (lostAfterSeconds?: number) => {
        const before = await rows(sql`select id from pgboss.job where id = ${lost?.id}::uuid`);
        await sweep?.run(database.db, lostAfterSeconds === undefined ? {} : { lostAfterSeconds }, context);
        return (await rows(sql`select id from pgboss.job where id = ${lost?.id}::uuid`)).length - before.length;
      };
      expect(await lostNow()).toBe(0);
      expect(await lostNow(0)).toBe(1);
      expect(await lostNow(0)).toBe(0); // sent again: the same job id, a no-op
      const jobs = await rows(
        sql`select id, data from pgboss.job where name = ${TOP_UP_JOB} and id = ${lost?.id}::uuid`,
      );
      expect(jobs).toEqual([{ id: lost?.id, data: { attemptId: lost?.id } }]);
    } finally {
      await boss.stop({ graceful: false, wait: true }).catch(() => {});
    }
  });
});
