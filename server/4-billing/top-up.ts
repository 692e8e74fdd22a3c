/**
 * Automatic top-up (docs/billing.md, "Automatic top-up"): saving a card through Checkout in setup
 * mode, the job that charges it off-session when a debit crossed the armed threshold, and what
 * Stripe's PaymentIntent events do. Stripe is called outside any database transaction.
 *
 * Exactly once: the crossing debit inserts the attempt (at most one open per organization); the
 * job claims it (`scheduled` → `charging` in one UPDATE) and creates its PaymentIntent with the
 * idempotency key `top-up-<attempt>`, so a retried job makes no second charge; the grant is the
 * purchases' upsert keyed by the PaymentIntent, granting once however often Stripe tells us.
 */
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client";
import { billingCustomers, creditPurchases, topUpAttempts, topUpSettings } from "../../db/schema";
import type { TopUpFailedContent } from "../1-domain/notification-content";
import { ApiError } from "../1-errors/api-error";
import { CREDITS_PATH } from "../2-http/paths";
import { errorMessage, log } from "../3-observability/logger";
import { announceMailsOwed } from "../4-credits/credits";
import { recordAuditEvent } from "../4-organizations/audit";
import { reservePurchase } from "./cap";
import { ensureCustomer, stripeSettingsOf } from "./checkout";
import type { BillingConfig, CreditPack } from "./config";
import {
  idOf,
  METADATA_CREDITS,
  METADATA_ORGANIZATION,
  METADATA_PURPOSE,
  METADATA_TOP_UP,
  PURPOSE_TOP_UP_CARD,
  STRIPE_ACTOR,
  text,
  whole,
} from "./metadata";
import { lockOrganization } from "./organization-lock";
import { billingRecipients, type GrantOutcome, grantPaid, insertMails, recordPendingPurchase } from "./purchases";
import { type Stripe, stripeClient } from "./stripe";
import { FAILURES_BEFORE_PAUSE, pauseTopUp, recordSavedCard, topUpsSucceededThisMonth } from "./top-up-settings";

/** The query parameter the return from saving a card carries: `saved` or `cancelled`. */
export const CARD_RETURN_PARAM = "card";

/** A `charging` attempt untouched this long was left by a run that died: another run may claim it. */
const STALE_CHARGING_SECONDS = 300;

/** Why three failures in a row paused it. */
export const FAILURES_PAUSE = `${FAILURES_BEFORE_PAUSE} automatic top-ups in a row failed`;

// ---------------------------------------------------------------------------------------------
// Saving a card

/** The Stripe calls of "Save a card": the customer, then a Checkout Session in setup mode. */
export async function prepareCardSetup(
  db: Database,
  config: BillingConfig,
  request: { organizationId: string; origin: string },
): Promise<{ checkoutSessionId: string; url: string }> {
  const stripe = stripeClient(stripeSettingsOf(config));
  const customer = await ensureCustomer(db, stripe, request.organizationId);
  const back = `${request.origin}${CREDITS_PATH}?${CARD_RETURN_PARAM}=`;
  const metadata = { [METADATA_ORGANIZATION]: request.organizationId, [METADATA_PURPOSE]: PURPOSE_TOP_UP_CARD };
  const session = await stripe.checkout.sessions.create({
    mode: "setup",
    customer,
    // Setup mode with Stripe's dynamic payment methods needs the currency the card will pay in.
    currency: config.packs[0]?.currency ?? "eur",
    client_reference_id: request.organizationId,
    metadata,
    // Saved for charges made while nobody is there: the bank is told so when the card is set up.
    setup_intent_data: { metadata },
    success_url: `${back}saved`,
    cancel_url: `${back}cancelled`,
  });
  if (!session.url) throw new Error("Stripe made a setup session without a URL");
  return { checkoutSessionId: session.id, url: session.url };
}

/**
 * `checkout.session.completed` of a setup session of ours: the card it saved (read from Stripe,
 * with its brand and last four digits) becomes the organization's card for top-ups and the
 * customer's default; automatic top-up is re-armed.
 */
export async function onCardSetupCompleted(
  db: Database,
  stripe: Stripe | null,
  session: Stripe.Checkout.Session,
): Promise<string> {
  const organizationId = text(session.metadata?.[METADATA_ORGANIZATION]);
  const customer = idOf(session.customer);
  const setupIntentId = idOf(session.setup_intent);
  if (!organizationId || !customer || !setupIntentId) return "not_ours";
  if (!stripe) throw new Error("a card was saved but card purchases are not configured to read it");
  const [stored] = await db
    .select({ customer: billingCustomers.stripeCustomerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.organizationId, organizationId));
  if (stored?.customer !== customer) return "not_ours";
  const setupIntent = await stripe.setupIntents.retrieve(setupIntentId, { expand: ["payment_method"] });
  const method = setupIntent.payment_method;
  const paymentMethodId = idOf(method);
  if (!paymentMethodId) return "no_card";
  const card = method && typeof method === "object" ? method.card : null;
  await stripe.customers.update(customer, { invoice_settings: { default_payment_method: paymentMethodId } });
  const saved = {
    paymentMethodId,
    brand: text(card?.brand)?.slice(0, 32) ?? null,
    last4: /^\d{4}$/.test(card?.last4 ?? "") ? (card?.last4 ?? null) : null,
  };
  return db.transaction(async (tx) => {
    const outcome = await recordSavedCard(tx, organizationId, saved);
    if (outcome !== "saved") return outcome;
    await recordAuditEvent(tx, organizationId, STRIPE_ACTOR, {
      action: "credits.card_saved",
      targetType: "card",
      targetId: paymentMethodId,
      details: { brand: saved.brand, last4: saved.last4, checkoutSessionId: session.id },
    });
    return "card_saved";
  });
}

// ---------------------------------------------------------------------------------------------
// The job

/** Stripe could not be reached or failed on its side: the job is retried (the key makes it safe). */
export class TopUpRetry extends Error {}

interface Failure {
  reason: string;
  remedy: string;
}

const UPDATE_CARD = `Save a new card on the credits page (${CREDITS_PATH}), or ask the bank why it refused.`;
const AUTHENTICATE =
  "Complete authentication: buy a pack once by hand on the credits page, where the bank can ask the card holder, or save the card again and complete the bank's check.";

/** A PaymentIntent that did not go through, in words, with what to do about it. */
function failureOf(code: string | null, declineCode: string | null, message: string | null): Failure {
  if (code === "authentication_required" || code === "requires_action")
    return {
      reason: "The bank asks the card holder to authenticate this payment, which cannot be done while nobody is there.",
      remedy: AUTHENTICATE,
    };
  const why = declineCode ?? code;
  return {
    reason: `The card was declined${why ? ` (${why.replace(/_/g, " ")})` : ""}.${message ? ` Stripe says: ${message.slice(0, 200)}` : ""}`,
    remedy: UPDATE_CARD,
  };
}

/** What a run of the job did. */
export type TopUpRun =
  | { outcome: "charged"; paymentIntentId: string; status: string }
  | { outcome: "failed"; reason: string }
  | { outcome: "skipped"; reason: string }
  | { outcome: "not_open"; state: string | null };

/** What the attempt should buy with what, or why it should not be made now. */
async function whatToCharge(
  db: Database,
  config: BillingConfig,
  organizationId: string,
): Promise<{ pack: CreditPack; customer: string; paymentMethod: string } | { skip: string }> {
  if (!config.stripe) return { skip: "card purchases are not configured" };
  const [settings] = await db.select().from(topUpSettings).where(eq(topUpSettings.organizationId, organizationId));
  if (!settings?.enabled) return { skip: "automatic top-up is off" };
  if (settings.pausedReason) return { skip: `automatic top-up is paused: ${settings.pausedReason}` };
  const [customer] = await db
    .select()
    .from(billingCustomers)
    .where(eq(billingCustomers.organizationId, organizationId));
  if (!customer?.paymentMethodId) return { skip: "no card is saved" };
  const pack = config.packs.find((candidate) => candidate.id === settings.packId);
  if (!pack) return { skip: `the pack ${settings.packId} is no longer sold` };
  const done = await topUpsSucceededThisMonth(db, organizationId);
  if (done >= settings.maxPerMonth)
    return { skip: `already topped up ${done} time${done === 1 ? "" : "s"} this month, the most set` };
  return { pack, customer: customer.stripeCustomerId, paymentMethod: customer.paymentMethodId };
}

/** Takes the attempt for this run: a scheduled one, or a charging one a dead run left behind. */
async function claimAttempt(db: Database, attemptId: string): Promise<{ organizationId: string } | TopUpRun> {
  const [claimed] = await db
    .update(topUpAttempts)
    .set({ state: "charging", updatedAt: sql`now()` })
    .where(
      and(
        eq(topUpAttempts.id, attemptId),
        sql`(${topUpAttempts.state} = 'scheduled' or (${topUpAttempts.state} = 'charging'
          and ${topUpAttempts.paymentIntentId} is null
          and ${topUpAttempts.updatedAt} < now() - make_interval(secs => ${STALE_CHARGING_SECONDS})))`,
      ),
    )
    .returning({ organizationId: topUpAttempts.organizationId });
  if (claimed) return claimed;
  const [attempt] = await db
    .select({ state: topUpAttempts.state, paymentIntentId: topUpAttempts.paymentIntentId })
    .from(topUpAttempts)
    .where(eq(topUpAttempts.id, attemptId));
  // Another run is charging it now, or died doing so: try again once that run is stale.
  if (attempt?.state === "charging" && !attempt.paymentIntentId)
    throw new TopUpRetry(`top-up ${attemptId} is being charged by another run`);
  return { outcome: "not_open", state: attempt?.state ?? null };
}

/** Gives the attempt back (`scheduled`) for the queue's retry after Stripe could not answer. */
async function releaseAttempt(db: Database, attemptId: string): Promise<void> {
  await db
    .update(topUpAttempts)
    .set({ state: "scheduled", updatedAt: sql`now()` })
    .where(and(eq(topUpAttempts.id, attemptId), eq(topUpAttempts.state, "charging")));
}

/**
 * The job `billing-top-up`: charges the pack for one scheduled attempt, off-session, on the saved
 * card. A decline or a card that needs its holder is recorded as a failure; Stripe unreachable
 * or failing on its side throws TopUpRetry, and the queue runs it again with the same key.
 */
export async function chargeTopUp(db: Database, config: BillingConfig, attemptId: string): Promise<TopUpRun> {
  const claim = await claimAttempt(db, attemptId);
  if ("outcome" in claim) return claim;
  const { organizationId } = claim;
  const plan = await whatToCharge(db, config, organizationId);
  if ("skip" in plan) {
    // Not charging for a limit or a setting is no failure: nothing is counted, no one is e-mailed.
    await db
      .update(topUpAttempts)
      .set({ state: "skipped", outcome: plan.skip, updatedAt: sql`now()` })
      .where(eq(topUpAttempts.id, attemptId));
    return { outcome: "skipped", reason: plan.skip };
  }
  const { pack } = plan;
  // Room under the monthly cap is reserved before the card is charged, as for a checkout (cap.ts).
  try {
    await reservePurchase(db, config, {
      organizationId,
      credits: pack.credits,
      amount: pack.amount,
      currency: pack.currency,
      topUpId: attemptId,
    });
  } catch (error) {
    if (!(error instanceof ApiError && error.problemCode === "monthly_cap_reached")) throw error;
    await db
      .update(topUpAttempts)
      .set({ state: "skipped", outcome: error.detail, updatedAt: sql`now()` })
      .where(eq(topUpAttempts.id, attemptId));
    return { outcome: "skipped", reason: error.detail };
  }
  const stripe = stripeClient(stripeSettingsOf(config));
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.create(
      {
        amount: pack.amount,
        currency: pack.currency,
        customer: plan.customer,
        payment_method: plan.paymentMethod,
        off_session: true,
        confirm: true,
        description: `${pack.credits.toLocaleString("en")} credits (automatic top-up)`,
        metadata: {
          [METADATA_ORGANIZATION]: organizationId,
          [METADATA_CREDITS]: String(pack.credits),
          [METADATA_TOP_UP]: attemptId,
          pack: pack.id,
        },
      },
      { idempotencyKey: `top-up-${attemptId}` },
    );
  } catch (error) {
    const refused = refusalOf(error);
    if (!refused) {
      await releaseAttempt(db, attemptId);
      throw new TopUpRetry(`Stripe could not make the top-up's payment: ${errorMessage(error)}`);
    }
    await recordTopUpFailure(db, { attemptId, paymentIntentId: refused.paymentIntentId, pack, ...refused.failure });
    return { outcome: "failed", reason: refused.failure.reason };
  }
  if (
    intent.status === "requires_action" ||
    intent.status === "requires_payment_method" ||
    intent.status === "canceled"
  ) {
    const failure = failureOf(
      intent.status === "requires_action" ? "requires_action" : (intent.last_payment_error?.code ?? null),
      intent.last_payment_error?.decline_code ?? null,
      intent.last_payment_error?.message ?? null,
    );
    await recordTopUpFailure(db, { attemptId, paymentIntentId: intent.id, pack, ...failure });
    return { outcome: "failed", reason: failure.reason };
  }
  // Paid (or on its way): the purchase waits, pending, for payment_intent.succeeded to grant it.
  // The webhook may have been first and written it paid already: then this writes nothing.
  await db.transaction(async (tx) => {
    await tx
      .update(topUpAttempts)
      .set({ paymentIntentId: intent.id, updatedAt: sql`now()` })
      .where(eq(topUpAttempts.id, attemptId));
    await recordPendingPurchase(tx, {
      organizationId,
      source: { topUpId: attemptId, paymentIntentId: intent.id },
      credits: pack.credits,
      amount: pack.amount,
      currency: pack.currency,
    });
  });
  return { outcome: "charged", paymentIntentId: intent.id, status: intent.status };
}

/** A card's refusal (Stripe answered and said no), or null for anything worth trying again. */
function refusalOf(error: unknown): { failure: Failure; paymentIntentId: string | null } | null {
  if (!(error instanceof Error) || !("type" in error)) return null;
  const stripeError = error as InstanceType<typeof Stripe.errors.StripeError>;
  const paymentIntentId = idOf(stripeError.payment_intent);
  if (stripeError.type === "StripeCardError")
    return {
      failure: failureOf(stripeError.code ?? null, text(stripeError.decline_code), stripeError.message),
      paymentIntentId,
    };
  // Our request refused (the saved card detached, the customer gone): no retry can change that.
  if (stripeError.type === "StripeInvalidRequestError")
    return {
      failure: {
        reason: `Stripe refused the payment: ${stripeError.message.slice(0, 200)}`,
        remedy: `Save the card again on the credits page (${CREDITS_PATH}).`,
      },
      paymentIntentId,
    };
  return null;
}

/**
 * A failed top-up, in one transaction: the attempt `failed` with the reason, one more failure
 * in a row (at FAILURES_BEFORE_PAUSE: paused and disarmed), its audit event, and an e-mail to the
 * owners and billing members. Recorded once per attempt: a second report (the job's and Stripe's
 * `payment_intent.payment_failed`) changes nothing.
 */
export async function recordTopUpFailure(
  db: Database,
  failed: {
    attemptId: string;
    paymentIntentId: string | null;
    pack: Omit<CreditPack, "id">;
    reason: string;
    remedy: string;
  },
): Promise<"recorded" | "already_recorded"> {
  const outcome = await db.transaction(async (tx) => {
    const [attempt] = await tx
      .select({ organizationId: topUpAttempts.organizationId })
      .from(topUpAttempts)
      .where(eq(topUpAttempts.id, failed.attemptId));
    if (!attempt) return { recorded: false as const };
    const { organizationId } = attempt;
    const organization = await lockOrganization(tx, organizationId);
    if (!organization) return { recorded: false as const };
    const marked = await tx
      .update(topUpAttempts)
      .set({
        state: "failed",
        outcome: failed.reason,
        paymentIntentId: sql`coalesce(${topUpAttempts.paymentIntentId}, ${failed.paymentIntentId})`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(topUpAttempts.id, failed.attemptId), inArray(topUpAttempts.state, ["scheduled", "charging"])))
      .returning({ id: topUpAttempts.id });
    if (marked.length === 0) return { recorded: false as const };
    const [settings] = await tx
      .update(topUpSettings)
      .set({
        failuresInRow: sql`${topUpSettings.failuresInRow} + 1`,
        lastFailure: `${failed.reason} ${failed.remedy}`,
        updatedAt: sql`now()`,
      })
      .where(eq(topUpSettings.organizationId, organizationId))
      .returning({ failuresInRow: topUpSettings.failuresInRow, pausedReason: topUpSettings.pausedReason });
    const failuresInRow = settings?.failuresInRow ?? 1;
    let pausedReason = settings?.pausedReason ?? null;
    if (!pausedReason && failuresInRow >= FAILURES_BEFORE_PAUSE) {
      pausedReason = FAILURES_PAUSE;
      await pauseTopUp(tx, organizationId, pausedReason);
    }
    // Its reservation no longer holds room under the cap.
    await tx
      .update(creditPurchases)
      .set({
        state: "failed",
        paymentIntentId: sql`coalesce(${creditPurchases.paymentIntentId}, ${failed.paymentIntentId})`,
      })
      .where(and(eq(creditPurchases.topUpId, failed.attemptId), eq(creditPurchases.state, "pending")));
    await recordAuditEvent(tx, organizationId, STRIPE_ACTOR, {
      action: "credits.top_up_failed",
      targetType: "top_up",
      targetId: failed.attemptId,
      details: { reason: failed.reason, paymentIntentId: failed.paymentIntentId, failuresInRow, pausedReason },
    });
    const content: TopUpFailedContent = {
      kind: "top_up_failed",
      organizationId,
      organizationName: organization.name,
      credits: failed.pack.credits,
      amount: failed.pack.amount,
      currency: failed.pack.currency,
      reason: failed.reason,
      remedy: failed.remedy,
      failuresInRow,
      pausedReason,
      failedAt: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
    };
    const recipients = await billingRecipients(tx, organizationId);
    const mails = await insertMails(tx, `top-up-failed:${failed.attemptId}`, content, recipients);
    return { recorded: true as const, mails };
  });
  if (!outcome.recorded) return "already_recorded";
  if (outcome.mails.length > 0) announceMailsOwed(outcome.mails);
  return "recorded";
}

// ---------------------------------------------------------------------------------------------
// PaymentIntent events

/** Our top-up's fields of a PaymentIntent, or null for one that is not ours. */
function topUpOf(intent: Stripe.PaymentIntent) {
  const attemptId = text(intent.metadata?.[METADATA_TOP_UP]);
  const organizationId = text(intent.metadata?.[METADATA_ORGANIZATION]);
  const credits = whole(intent.metadata?.[METADATA_CREDITS]);
  const amount = whole(intent.amount_received) || whole(intent.amount);
  const currency = text(intent.currency);
  if (!attemptId || !organizationId || !credits || !amount || !currency) return null;
  return { attemptId, organizationId, credits, amount, currency };
}

/** The attempt a PaymentIntent names exists, for the organization it names. */
async function attemptExists(db: Database, attemptId: string, organizationId: string): Promise<boolean> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(attemptId)) return false;
  const [row] = await db
    .select({ id: topUpAttempts.id })
    .from(topUpAttempts)
    .where(and(eq(topUpAttempts.id, attemptId), eq(topUpAttempts.organizationId, organizationId)));
  return row !== undefined;
}

/**
 * `payment_intent.succeeded` of a top-up: its purchase granted (once), the attempt `succeeded`
 * and the failures in a row forgotten, in the grant's transaction.
 */
export async function onTopUpSucceeded(
  db: Database,
  intent: Stripe.PaymentIntent,
): Promise<GrantOutcome["outcome"] | "not_ours"> {
  const topUp = topUpOf(intent);
  if (!topUp || !(await attemptExists(db, topUp.attemptId, topUp.organizationId))) return "not_ours";
  const result = await grantPaid(
    db,
    {
      source: { topUpId: topUp.attemptId, paymentIntentId: intent.id },
      organizationId: topUp.organizationId,
      credits: topUp.credits,
      amount: topUp.amount,
      currency: topUp.currency,
      paymentIntentId: intent.id,
      invoiceUrl: null,
    },
    async (tx: Transaction) => {
      await tx
        .update(topUpAttempts)
        .set({ state: "succeeded", outcome: null, paymentIntentId: intent.id, updatedAt: sql`now()` })
        .where(eq(topUpAttempts.id, topUp.attemptId));
      await tx
        .update(topUpSettings)
        .set({ failuresInRow: 0, lastFailure: null, updatedAt: sql`now()` })
        .where(eq(topUpSettings.organizationId, topUp.organizationId));
    },
  );
  return result.outcome;
}

/** `payment_intent.payment_failed` of a top-up: a failure, unless one was recorded for it already. */
export async function onTopUpPaymentFailed(db: Database, intent: Stripe.PaymentIntent): Promise<string> {
  const topUp = topUpOf(intent);
  if (!topUp || !(await attemptExists(db, topUp.attemptId, topUp.organizationId))) return "not_ours";
  const error = intent.last_payment_error;
  const failure = failureOf(
    intent.status === "requires_action" ? "requires_action" : (error?.code ?? null),
    error?.decline_code ?? null,
    error?.message ?? null,
  );
  return recordTopUpFailure(db, {
    attemptId: topUp.attemptId,
    paymentIntentId: intent.id,
    pack: { credits: topUp.credits, amount: whole(intent.amount) ?? topUp.amount, currency: topUp.currency },
    ...failure,
  });
}

// ---------------------------------------------------------------------------------------------
// The sweep

/** Attempts no run has charged longer than this after they were written are queued again. */
export const LOST_TOP_UP_SECONDS = 60;
/** Open this long (Stripe's idempotency keys last a day): given up, as skipped, so the next may come. */
const GIVE_UP_SECONDS = 24 * 3600;

/**
 * The attempts to queue again: still `scheduled` `lostAfterSeconds` after their last change (the
 * process that debited died before queueing it, or the queue lost it). Attempts open for a day are
 * given up first, so one stuck attempt cannot block automatic top-up for good.
 */
export async function lostTopUps(db: Database, lostAfterSeconds = LOST_TOP_UP_SECONDS): Promise<string[]> {
  const givenUp = await db
    .update(topUpAttempts)
    .set({ state: "skipped", outcome: "given up: not charged within a day", updatedAt: sql`now()` })
    .where(
      and(
        inArray(topUpAttempts.state, ["scheduled", "charging"]),
        lt(topUpAttempts.createdAt, sql`now() - make_interval(secs => ${GIVE_UP_SECONDS})`),
      ),
    )
    .returning({ id: topUpAttempts.id });
  if (givenUp.length > 0)
    log().warn({ attempts: givenUp.map((row) => row.id) }, "top-up: attempts given up after a day");
  const rows = await db
    .select({ id: topUpAttempts.id })
    .from(topUpAttempts)
    .where(
      and(
        eq(topUpAttempts.state, "scheduled"),
        lt(topUpAttempts.updatedAt, sql`now() - make_interval(secs => ${lostAfterSeconds})`),
      ),
    )
    .limit(500);
  return rows.map((row) => row.id);
}
