/**
 * Automatic top-up's settings and saved card in the database (docs/billing.md, "Automatic
 * top-up"). What the metered path reads is one column, organizations.top_up_threshold, the
 * "armed" copy of the threshold: armTopUp recomputes it from its inputs (enabled, not paused, a
 * card saved) and is called in the transaction of every change of them, so the copy never
 * disagrees with what the page shows.
 */
import { and, desc, eq, gte, sql } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client";
import { billingCustomers, organizations, topUpAttempts, topUpSettings } from "../../db/schema";
import { recordAuditEvent } from "../4-organizations/audit";
import { STRIPE_ACTOR } from "./metadata";
import { lockOrganization } from "./organization-lock";

export interface TopUpChoice {
  enabled: boolean;
  /** Top up when the balance falls to this or below. */
  threshold: number;
  packId: string;
  maxPerMonth: number;
}

export const TOP_UP_THRESHOLD_MAX = 1_000_000_000;
export const TOP_UP_MAX_PER_MONTH = 100;

/** Failures in a row after which automatic top-up pauses until someone changes it. */
export const FAILURES_BEFORE_PAUSE = 3;

/**
 * Sets organizations.top_up_threshold to the settings' threshold when top-up is enabled, not
 * paused and a card is saved; else null (not armed). One statement, in the caller's transaction.
 */
export async function armTopUp(tx: Database | Transaction, organizationId: string): Promise<number | null> {
  const [row] = await tx
    .update(organizations)
    .set({
      topUpThreshold: sql`(select s.threshold from ${topUpSettings} s
        join ${billingCustomers} c on c.organization_id = s.organization_id
        where s.organization_id = ${organizationId} and s.enabled and s.paused_reason is null
          and c.payment_method_id is not null)`,
    })
    .where(eq(organizations.id, organizationId))
    .returning({ armed: organizations.topUpThreshold });
  return row?.armed ?? null;
}

/** Pauses automatic top-up for `reason` (a dispute, failures in a row) and disarms it. */
export async function pauseTopUp(tx: Transaction, organizationId: string, reason: string): Promise<void> {
  await tx
    .update(topUpSettings)
    .set({ pausedReason: reason, updatedAt: sql`now()` })
    .where(eq(topUpSettings.organizationId, organizationId));
  await armTopUp(tx, organizationId);
}

/**
 * Saves the settings: a change by a person starts afresh (no failures counted, not paused), and
 * the armed copy follows. Returns the threshold now armed (null: not armed).
 */
export async function saveTopUpSettings(
  tx: Database | Transaction,
  organizationId: string,
  choice: TopUpChoice,
): Promise<number | null> {
  if (!(await lockOrganization(tx, organizationId))) throw new Error(`no organization "${organizationId}"`);
  const values = { ...choice, failuresInRow: 0, pausedReason: null, updatedAt: sql`now()` };
  await tx
    .insert(topUpSettings)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({ target: topUpSettings.organizationId, set: values });
  return armTopUp(tx, organizationId);
}

export interface SavedCard {
  paymentMethodId: string;
  brand: string | null;
  last4: string | null;
}

/** The card saved through Checkout in setup mode, kept on the customer's row; re-arms top-up. */
export async function recordSavedCard(
  tx: Transaction,
  organizationId: string,
  card: SavedCard,
): Promise<"saved" | "no_customer"> {
  if (!(await lockOrganization(tx, organizationId))) return "no_customer";
  const rows = await tx
    .update(billingCustomers)
    .set({ paymentMethodId: card.paymentMethodId, cardBrand: card.brand, cardLast4: card.last4 })
    .where(eq(billingCustomers.organizationId, organizationId))
    .returning({ id: billingCustomers.organizationId });
  if (rows.length === 0) return "no_customer";
  await armTopUp(tx, organizationId);
  return "saved";
}

/**
 * The saved card was detached at Stripe (removed in the customer portal, or by the operator):
 * forgotten here and top-up disarmed, in one transaction with its audit event, so no top-up is
 * attempted on a card that no longer exists. A card that is not (or no longer) ours changes nothing.
 */
export async function forgetDetachedCard(db: Database, paymentMethodId: string): Promise<"forgotten" | "not_ours"> {
  return db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ organizationId: billingCustomers.organizationId })
      .from(billingCustomers)
      .where(eq(billingCustomers.paymentMethodId, paymentMethodId));
    if (!owner || !(await lockOrganization(tx, owner.organizationId))) return "not_ours";
    const forgotten = await tx
      .update(billingCustomers)
      .set({ paymentMethodId: null, cardBrand: null, cardLast4: null })
      .where(
        and(
          eq(billingCustomers.organizationId, owner.organizationId),
          eq(billingCustomers.paymentMethodId, paymentMethodId),
        ),
      )
      .returning({ id: billingCustomers.organizationId });
    if (forgotten.length === 0) return "not_ours";
    await armTopUp(tx, owner.organizationId);
    await recordAuditEvent(tx, owner.organizationId, STRIPE_ACTOR, {
      action: "credits.card_removed",
      targetType: "card",
      targetId: paymentMethodId,
      details: {},
    });
    return "forgotten";
  });
}

/** The first instant of this calendar month, UTC: what "a month" means for limits and caps. */
export const monthStartOf = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/** Automatic top-ups that bought their pack this calendar month (UTC). */
export async function topUpsSucceededThisMonth(
  db: Database | Transaction,
  organizationId: string,
  now = new Date(),
): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(topUpAttempts)
    .where(
      and(
        eq(topUpAttempts.organizationId, organizationId),
        eq(topUpAttempts.state, "succeeded"),
        gte(topUpAttempts.createdAt, monthStartOf(now)),
      ),
    );
  return Number(row?.count ?? 0);
}

/** What the credits page shows of automatic top-up. */
export async function topUpView(db: Database, organizationId: string, now = new Date()) {
  const [settings] = await db.select().from(topUpSettings).where(eq(topUpSettings.organizationId, organizationId));
  const [customer] = await db
    .select({
      brand: billingCustomers.cardBrand,
      last4: billingCustomers.cardLast4,
      pm: billingCustomers.paymentMethodId,
    })
    .from(billingCustomers)
    .where(eq(billingCustomers.organizationId, organizationId));
  const [organization] = await db
    .select({ armed: organizations.topUpThreshold })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  const attempts = await db
    .select({
      id: topUpAttempts.id,
      state: topUpAttempts.state,
      outcome: topUpAttempts.outcome,
      createdAt: topUpAttempts.createdAt,
    })
    .from(topUpAttempts)
    .where(and(eq(topUpAttempts.organizationId, organizationId), gte(topUpAttempts.createdAt, monthStartOf(now))))
    .orderBy(desc(topUpAttempts.createdAt))
    .limit(50);
  return {
    settings: settings
      ? {
          enabled: settings.enabled,
          threshold: settings.threshold,
          packId: settings.packId,
          maxPerMonth: settings.maxPerMonth,
        }
      : null,
    card: customer?.pm ? { brand: customer.brand, last4: customer.last4 } : null,
    armed: organization?.armed !== null && organization?.armed !== undefined,
    failuresInRow: settings?.failuresInRow ?? 0,
    pausedReason: settings?.pausedReason ?? null,
    lastFailure: settings?.lastFailure ?? null,
    succeededThisMonth: await topUpsSucceededThisMonth(db, organizationId, now),
    attemptsThisMonth: attempts,
  };
}

export type TopUpView = Awaited<ReturnType<typeof topUpView>>;
