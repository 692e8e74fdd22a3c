/**
 * Credit purchases in the database (docs/billing.md): a purchase paid grants its credits, a refund
 * or a dispute takes back its share, each in ONE transaction with its ledger row, the balance and
 * its audit event. Stripe delivers an event at least once and may deliver it many times at once:
 *
 * - every change first locks the organization's row (as debits do), so changes of one
 *   organization's balance never interleave;
 * - a grant is an upsert on the purchase's unique checkout session (or, for an automatic top-up,
 *   its unique PaymentIntent) that only turns a pending (or failed) purchase into a paid one: the
 *   one delivery that gets a row back grants, the others see it paid and grant nothing;
 * - refunds and disputes move `credits_removed` towards what the charge says is taken back now, so
 *   a repeated event (or an older one arriving late) finds nothing new to take.
 */
import { and, desc, eq, gte, inArray, or, sql } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client";
import { queryRows } from "../../db/rows";
import { creditPurchases, mailDeliveries, memberships, users } from "../../db/schema";
import type { CreditsPurchasedContent, TopUpFailedContent } from "../1-domain/notification-content";
import { rolesThatMay } from "../1-domain/roles";
import { announceMailsOwed } from "../4-credits/credits";
import { recordAuditEvent } from "../4-organizations/audit";
import { STRIPE_ACTOR } from "./metadata";
import { lockOrganization } from "./organization-lock";
import { pauseTopUp } from "./top-up-settings";

/** What a purchase was paid through: a Checkout Session, or an automatic top-up's PaymentIntent. */
export type PurchaseSource = { checkoutSessionId: string } | { topUpId: string; paymentIntentId: string };

export interface PaidPurchase {
  source: PurchaseSource;
  organizationId: string;
  /** From the metadata our checkout or top-up wrote: used when no pending row exists. */
  credits: number;
  amount: number;
  currency: string;
  paymentIntentId: string | null;
  invoiceUrl: string | null;
}

/** A paid Checkout Session, as its event tells it. */
export type PaidCheckout = Omit<PaidPurchase, "source"> & { checkoutSessionId: string };

export type GrantOutcome =
  | { outcome: "granted"; purchaseId: string; balance: number; mails: number[] }
  | { outcome: "already_granted" }
  | { outcome: "no_organization" };

/** Moves the balance by `amount` (no floor: refunds may take it below zero) with its ledger row. */
async function writeEntry(
  tx: Transaction,
  entry: {
    organizationId: string;
    kind: "purchase" | "refund" | "dispute";
    amount: number;
    purchaseId: string;
    stripeId: string;
    note: string;
  },
): Promise<number> {
  const [row] = await queryRows<{ balance_after: number }>(
    tx,
    sql`with changed as (
          update organizations set credit_balance = credit_balance + ${entry.amount}
          where id = ${entry.organizationId} returning id, credit_balance)
        insert into credit_ledger (organization_id, kind, amount, balance_after, note, purchase_id, stripe_id)
        select id, ${entry.kind}, ${entry.amount}, credit_balance, ${entry.note}, ${entry.purchaseId}, ${entry.stripeId}
        from changed returning balance_after`,
  );
  if (!row) throw new Error(`no organization "${entry.organizationId}" to write a ${entry.kind} to`);
  return Number(row.balance_after);
}

/** Only an https address of Stripe's is kept as an invoice link: it goes into mail and pages. */
export const safeInvoiceUrl = (url: unknown): string | null =>
  typeof url === "string" && /^https:\/\/[^\s"<>]{1,2000}$/.test(url) ? url : null;

/** A checkout session was paid: its purchase granted (grantPaid). */
export function grantPurchase(db: Database, paid: PaidCheckout): Promise<GrantOutcome> {
  const { checkoutSessionId, ...rest } = paid;
  return grantPaid(db, { ...rest, source: { checkoutSessionId } });
}

/**
 * A purchase was paid: it is marked paid and its credits granted, once however many times and
 * however concurrently the event arrives; `alsoOnGrant` runs in the same transaction, only for
 * the delivery that grants. An organization deleted since grants nothing (its purchase rows went
 * with it); the caller logs it and Stripe's payment stands.
 */
export async function grantPaid(
  db: Database,
  paid: PaidPurchase,
  alsoOnGrant?: (tx: Transaction, purchaseId: string) => Promise<void>,
): Promise<GrantOutcome> {
  const bySession = "checkoutSessionId" in paid.source;
  const stripeId = "checkoutSessionId" in paid.source ? paid.source.checkoutSessionId : paid.source.paymentIntentId;
  const outcome = await db.transaction(async (tx): Promise<GrantOutcome> => {
    const organization = await lockOrganization(tx, paid.organizationId);
    if (!organization) return { outcome: "no_organization" };
    const [purchase] = await tx
      .insert(creditPurchases)
      .values({
        organizationId: paid.organizationId,
        ...paid.source,
        paymentIntentId: paid.paymentIntentId,
        credits: paid.credits,
        amount: paid.amount,
        currency: paid.currency,
        state: "paid",
        invoiceUrl: paid.invoiceUrl,
        paidAt: sql`now()`,
      })
      .onConflictDoUpdate({
        // A top-up's purchase is reserved under the cap before its PaymentIntent exists (cap.ts):
        // it is found by its attempt, which the PaymentIntent's metadata names.
        target: bySession ? creditPurchases.checkoutSessionId : creditPurchases.topUpId,
        // The pending row keeps what our checkout priced; only its state and Stripe's ids change.
        set: {
          state: "paid",
          paidAt: sql`now()`,
          paymentIntentId: sql`coalesce(excluded.payment_intent_id, ${creditPurchases.paymentIntentId})`,
          invoiceUrl: sql`coalesce(excluded.invoice_url, ${creditPurchases.invoiceUrl})`,
        },
        setWhere: and(
          inArray(creditPurchases.state, ["pending", "failed"]),
          sql`${creditPurchases.organizationId} = excluded.organization_id`,
        ),
      })
      .returning({
        id: creditPurchases.id,
        credits: creditPurchases.credits,
        amount: creditPurchases.amount,
        currency: creditPurchases.currency,
      });
    if (!purchase) return { outcome: "already_granted" };
    const credits = Number(purchase.credits);
    const balance = await writeEntry(tx, {
      organizationId: paid.organizationId,
      kind: "purchase",
      amount: credits,
      purchaseId: purchase.id,
      stripeId,
      note: bySession ? `${credits} credits bought by card` : `${credits} credits bought by automatic top-up`,
    });
    await recordAuditEvent(tx, paid.organizationId, STRIPE_ACTOR, {
      action: "credits.purchase",
      targetType: "purchase",
      targetId: purchase.id,
      details: {
        credits,
        amount: Number(purchase.amount),
        currency: purchase.currency,
        ...paid.source,
        paymentIntentId: paid.paymentIntentId,
        balanceAfter: balance,
      },
    });
    const content: CreditsPurchasedContent = {
      kind: "credits_purchased",
      organizationId: paid.organizationId,
      organizationName: organization.name,
      credits,
      amount: Number(purchase.amount),
      currency: purchase.currency,
      balance,
      invoiceUrl: safeInvoiceUrl(paid.invoiceUrl),
      paidAt: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
    };
    const recipients = await billingRecipients(tx, paid.organizationId);
    await alsoOnGrant?.(tx, purchase.id);
    const mails = await insertMails(tx, `purchase:${purchase.id}`, content, recipients);
    return { outcome: "granted", purchaseId: purchase.id, balance, mails };
  });
  // Cached token holders forget their balance hint through credit_ledger's trigger (0005: every
  // entry but a debit notifies `credentials`), so a purchase needs no announcement of its own.
  if (outcome.outcome === "granted" && outcome.mails.length > 0) announceMailsOwed(outcome.mails);
  return outcome;
}

/** Who is e-mailed about the organization's purchases: its owners and billing members. */
export function billingRecipients(tx: Transaction, organizationId: string) {
  return tx
    .select({ userId: memberships.userId, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(eq(memberships.organizationId, organizationId), inArray(memberships.role, rolesThatMay("credits.manage"))),
    );
}

/** One e-mail per person with an address, once per reason (the dedupe key) however often asked. */
export async function insertMails(
  tx: Transaction,
  dedupeKey: string,
  content: CreditsPurchasedContent | TopUpFailedContent,
  recipients: { userId: string; email: string | null }[],
): Promise<number[]> {
  const rows = recipients.flatMap(({ userId, email }) =>
    email ? [{ userId, recipient: email, dedupeKey, kind: content.kind, content }] : [],
  );
  if (rows.length === 0) return [];
  const written = await tx
    .insert(mailDeliveries)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: mailDeliveries.id });
  return written.map((row) => row.id);
}

export type TakeBackOutcome =
  | { outcome: "taken"; purchaseId: string; organizationId: string; credits: number; balance: number }
  | { outcome: "nothing_new" }
  | { outcome: "unknown_purchase" };

interface LockedPurchase {
  id: string;
  organization_id: string;
  credits: number;
  amount: number;
  credits_removed: number;
  state: string;
}

/** The purchase a charge paid for, locked after its organization's row (the order grants take). */
async function lockPurchase(tx: Transaction, paymentIntentId: string | null, chargeId: string | null) {
  const match = or(
    paymentIntentId ? eq(creditPurchases.paymentIntentId, paymentIntentId) : sql`false`,
    chargeId ? eq(creditPurchases.chargeId, chargeId) : sql`false`,
  );
  const [found] = await tx
    .select({ id: creditPurchases.id, organizationId: creditPurchases.organizationId })
    .from(creditPurchases)
    .where(match)
    .limit(1);
  if (!found) return null;
  if (!(await lockOrganization(tx, found.organizationId))) return null;
  const [row] = await queryRows<LockedPurchase>(
    tx,
    sql`select id, organization_id, credits, amount, credits_removed, state from credit_purchases
        where id = ${found.id} for update`,
  );
  return row ?? null;
}

/** floor(refunded / charged × credits), in integers large enough for any pack and price. */
export function refundedCredits(credits: number, charged: number, refunded: number): number {
  if (charged <= 0 || refunded <= 0) return 0;
  const share = (BigInt(Math.min(refunded, charged)) * BigInt(credits)) / BigInt(charged);
  return Number(share);
}

async function takeBack(
  db: Database,
  find: { paymentIntentId: string | null; chargeId: string | null },
  decide: (purchase: LockedPurchase) => { removeTo: number; state: string },
  entry: { kind: "refund" | "dispute"; stripeId: string; details: Record<string, unknown> },
  alsoOnNewState?: (tx: Transaction, purchase: LockedPurchase) => Promise<void>,
): Promise<TakeBackOutcome> {
  return db.transaction(async (tx): Promise<TakeBackOutcome> => {
    const purchase = await lockPurchase(tx, find.paymentIntentId, find.chargeId);
    if (!purchase) return { outcome: "unknown_purchase" };
    const credits = Number(purchase.credits);
    const removed = Number(purchase.credits_removed);
    const { removeTo, state } = decide(purchase);
    if (purchase.state !== state) await alsoOnNewState?.(tx, purchase);
    const take = Math.min(credits, removeTo) - removed;
    await tx
      .update(creditPurchases)
      .set({
        state: state as (typeof creditPurchases.state.enumValues)[number],
        creditsRemoved: Math.max(removed, Math.min(credits, removeTo)),
        chargeId: sql`coalesce(${creditPurchases.chargeId}, ${find.chargeId})`,
      })
      .where(eq(creditPurchases.id, purchase.id));
    if (take <= 0) return { outcome: "nothing_new" };
    const balance = await writeEntry(tx, {
      organizationId: purchase.organization_id,
      kind: entry.kind,
      amount: -take,
      purchaseId: purchase.id,
      stripeId: entry.stripeId,
      note:
        entry.kind === "refund"
          ? `${take} credits taken back: payment refunded`
          : `${take} credits taken back: payment disputed`,
    });
    await recordAuditEvent(tx, purchase.organization_id, STRIPE_ACTOR, {
      action: entry.kind === "refund" ? "credits.refund" : "credits.dispute",
      targetType: "purchase",
      targetId: purchase.id,
      details: { ...entry.details, credits: take, balanceAfter: balance },
    });
    return {
      outcome: "taken",
      purchaseId: purchase.id,
      organizationId: purchase.organization_id,
      credits: take,
      balance,
    };
  });
}

/**
 * `charge.refunded`: the refunded share of the purchase's credits, rounded down, less what earlier
 * refunds took. After a dispute took everything there is nothing left to take.
 */
export function refundPurchase(
  db: Database,
  charge: { chargeId: string; paymentIntentId: string | null; amount: number; amountRefunded: number },
): Promise<TakeBackOutcome> {
  return takeBack(
    db,
    charge,
    (purchase) => ({
      removeTo: Math.max(
        Number(purchase.credits_removed),
        refundedCredits(Number(purchase.credits), charge.amount, charge.amountRefunded),
      ),
      state:
        purchase.state === "disputed"
          ? "disputed"
          : charge.amountRefunded >= charge.amount
            ? "refunded"
            : "partially_refunded",
    }),
    {
      kind: "refund",
      stripeId: charge.chargeId,
      details: { chargeId: charge.chargeId, amountRefunded: charge.amountRefunded, amount: charge.amount },
    },
  );
}

/** Why a dispute paused automatic top-up: the page and the settings show it. */
export const DISPUTE_PAUSE = "a payment was disputed";

/**
 * `charge.dispute.created`: the purchase's remaining credits, all of them. The first time a
 * purchase is disputed, automatic top-up pauses in the same transaction: a card whose holder
 * disputes charges must not be charged again until someone turns it back on.
 */
export function disputePurchase(
  db: Database,
  dispute: { disputeId: string; chargeId: string | null; paymentIntentId: string | null },
): Promise<TakeBackOutcome> {
  return takeBack(
    db,
    dispute,
    (purchase) => ({ removeTo: Number(purchase.credits), state: "disputed" }),
    {
      kind: "dispute",
      stripeId: dispute.disputeId,
      details: { disputeId: dispute.disputeId, chargeId: dispute.chargeId },
    },
    (tx, purchase) => pauseTopUp(tx, purchase.organization_id, DISPUTE_PAUSE),
  );
}

/** A session whose asynchronous payment failed: a pending purchase becomes failed (nothing was granted). */
export async function failPurchase(db: Database, checkoutSessionId: string): Promise<boolean> {
  const rows = await db
    .update(creditPurchases)
    .set({ state: "failed" })
    .where(and(eq(creditPurchases.checkoutSessionId, checkoutSessionId), eq(creditPurchases.state, "pending")))
    .returning({ id: creditPurchases.id });
  return rows.length > 0;
}

/**
 * A checkout session just made, or a top-up's PaymentIntent: its purchase, pending until Stripe
 * says it was paid (a row the webhook already wrote is left as it is).
 */
export async function recordPendingPurchase(
  db: Database | Transaction,
  pending: { organizationId: string; source: PurchaseSource; credits: number; amount: number; currency: string },
): Promise<string> {
  const { source, ...rest } = pending;
  if ("topUpId" in source) {
    // The row reserved under the cap takes its PaymentIntent (one already granted keeps its own).
    const [row] = await db
      .insert(creditPurchases)
      .values({ ...rest, ...source, state: "pending" })
      .onConflictDoUpdate({
        target: creditPurchases.topUpId,
        set: { paymentIntentId: sql`coalesce(${creditPurchases.paymentIntentId}, excluded.payment_intent_id)` },
      })
      .returning({ id: creditPurchases.id });
    if (!row) throw new Error("the top-up's purchase was neither written nor found");
    return row.id;
  }
  const [row] = await db
    .insert(creditPurchases)
    .values({ ...rest, ...source, state: "pending" })
    .onConflictDoNothing({ target: creditPurchases.checkoutSessionId })
    .returning({ id: creditPurchases.id });
  if (row) return row.id;
  const [existing] = await db
    .select({ id: creditPurchases.id })
    .from(creditPurchases)
    .where(eq(creditPurchases.checkoutSessionId, source.checkoutSessionId));
  if (!existing) throw new Error("the pending purchase was neither written nor found");
  return existing.id;
}

/**
 * Credits an organization bought or is buying this calendar month (UTC): paid ones, and pending
 * ones of the last day (a Checkout Session expires after 24 hours), for the monthly cap.
 */
export async function creditsThisMonth(
  db: Database | Transaction,
  organizationId: string,
  now = new Date(),
): Promise<number> {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  const [row] = await db
    .select({ credits: sql<number>`coalesce(sum(${creditPurchases.credits}), 0)::int` })
    .from(creditPurchases)
    .where(
      and(
        eq(creditPurchases.organizationId, organizationId),
        gte(creditPurchases.createdAt, monthStart),
        or(
          inArray(creditPurchases.state, ["paid", "partially_refunded", "refunded", "disputed"]),
          and(eq(creditPurchases.state, "pending"), gte(creditPurchases.createdAt, dayAgo)),
        ),
      ),
    );
  return Number(row?.credits ?? 0);
}

export type Purchase = typeof creditPurchases.$inferSelect;

/** Where a page ends: the last purchase's creation time and id (ids are random, so time orders). */
export interface PurchaseCursor {
  createdAt: Date;
  id: string;
}

/** Newest first; `before` is the previous page's last purchase (keyset paging). */
export async function purchasesPage(
  db: Database,
  organizationId: string,
  { before, limit }: { before?: PurchaseCursor; limit: number },
): Promise<{ purchases: Purchase[]; next: PurchaseCursor | null }> {
  // Ordered by the millisecond a cursor can name (JavaScript dates have no microseconds), then id.
  const at = sql`date_trunc('milliseconds', ${creditPurchases.createdAt})`;
  const rows = await db
    .select()
    .from(creditPurchases)
    .where(
      before === undefined
        ? eq(creditPurchases.organizationId, organizationId)
        : and(
            eq(creditPurchases.organizationId, organizationId),
            sql`(${at}, ${creditPurchases.id}) < (${before.createdAt.toISOString()}::timestamptz, ${before.id})`,
          ),
    )
    .orderBy(desc(at), desc(creditPurchases.id))
    .limit(limit + 1);
  const purchases = rows.slice(0, limit);
  const last = purchases.at(-1);
  return { purchases, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}

/** One purchase of an organization by its checkout session (the return from Checkout reads it). */
export async function purchaseBySession(
  db: Database,
  organizationId: string,
  checkoutSessionId: string,
): Promise<Purchase | undefined> {
  const [row] = await db
    .select()
    .from(creditPurchases)
    .where(
      and(eq(creditPurchases.organizationId, organizationId), eq(creditPurchases.checkoutSessionId, checkoutSessionId)),
    );
  return row;
}
