/**
 * The monthly purchase cap (docs/billing.md, "Spend within limits"): the operator's default
 * (CREDITS_MONTHLY_CAP) or the owner's, when lower. It is checked and the purchase reserved in ONE
 * transaction holding the organization's row, before Stripe is asked for anything: two checkouts
 * begun at once, or a checkout racing an automatic top-up, cannot both pass a cap that has room
 * for one. A reservation is a pending purchase; it counts against the cap for a day (as long as a
 * Checkout Session lives) and is deleted at once when Stripe refuses to begin.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client";
import { queryRows } from "../../db/rows";
import { creditPurchases, organizations } from "../../db/schema";
import { ApiError, invalidRequest, notFound } from "../1-errors/api-error";
import type { BillingConfig } from "./config";
import { creditsThisMonth } from "./purchases";

/** The cap in force: the owner's when it is lower than the operator's; 0 means none. */
export function effectiveCap(operatorCap: number, ownCap: number | null): number {
  if (ownCap === null) return operatorCap;
  return operatorCap === 0 ? ownCap : Math.min(operatorCap, ownCap);
}

export interface PurchaseCap {
  /** The operator's cap (0: none). */
  operator: number;
  /** The owner's own, lower cap; null: the operator's applies. */
  own: number | null;
  /** What applies (0: none). */
  effective: number;
  /** Paid this month and reserved in the last day. */
  thisMonth: number;
}

export async function purchaseCap(db: Database, config: BillingConfig, organizationId: string): Promise<PurchaseCap> {
  const [row] = await db
    .select({ own: organizations.purchaseCapCredits })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!row) throw notFound("The organization no longer exists.");
  return {
    operator: config.monthlyCapCredits,
    own: row.own,
    effective: effectiveCap(config.monthlyCapCredits, row.own),
    thisMonth: await creditsThisMonth(db, organizationId),
  };
}

/**
 * An owner's own cap: null gives the operator's back; a number must not exceed the operator's
 * (an owner lowers the cap, never raises it). Returns the cap before and after, for the trail.
 */
export async function setPurchaseCap(
  db: Database | Transaction,
  config: BillingConfig,
  organizationId: string,
  credits: number | null,
): Promise<{ before: number | null; after: number | null }> {
  if (credits !== null && config.monthlyCapCredits > 0 && credits > config.monthlyCapCredits) {
    const message = `at most the operator's cap of ${config.monthlyCapCredits.toLocaleString("en")} credits a month`;
    throw invalidRequest(message, [{ path: "credits", message }]);
  }
  const [row] = await queryRows<{ before: number | null }>(
    db,
    sql`update organizations o set purchase_cap_credits = ${credits}
        from (select purchase_cap_credits as before from organizations where id = ${organizationId} for update) old
        where o.id = ${organizationId} returning old.before`,
  );
  if (!row) throw notFound("The organization no longer exists.");
  return { before: row.before === null ? null : Number(row.before), after: credits };
}

export interface Reservation {
  organizationId: string;
  credits: number;
  amount: number;
  currency: string;
  /** The automatic top-up it is for; absent for a checkout. */
  topUpId?: string;
}

/**
 * Checks the cap and reserves the purchase under the organization's lock: the pending purchase's
 * id, or 403 `monthly_cap_reached` with nothing written, or 404 when the organization is gone.
 */
export async function reservePurchase(db: Database, config: BillingConfig, reservation: Reservation): Promise<string> {
  return db.transaction(async (tx) => {
    // A top-up's retried run finds its reservation already made: the room is already taken.
    if (reservation.topUpId) {
      const [made] = await tx
        .select({ id: creditPurchases.id })
        .from(creditPurchases)
        .where(eq(creditPurchases.topUpId, reservation.topUpId));
      if (made) return made.id;
    }
    const [row] = await queryRows<{ own: number | null }>(
      tx,
      sql`select purchase_cap_credits as own from organizations where id = ${reservation.organizationId} for update`,
    );
    if (!row) throw notFound("The organization no longer exists.");
    const cap = effectiveCap(config.monthlyCapCredits, row.own === null ? null : Number(row.own));
    if (cap > 0) {
      const bought = await creditsThisMonth(tx, reservation.organizationId);
      if (bought + reservation.credits > cap)
        throw new ApiError(
          "monthly_cap_reached",
          `This organization has bought or is buying ${bought.toLocaleString("en")} credits this month; with ${reservation.credits.toLocaleString("en")} more it would pass its cap of ${cap.toLocaleString("en")}. Nothing was charged.`,
        );
    }
    const [purchase] = await tx
      .insert(creditPurchases)
      .values({
        organizationId: reservation.organizationId,
        credits: reservation.credits,
        amount: reservation.amount,
        currency: reservation.currency,
        topUpId: reservation.topUpId ?? null,
        state: "pending",
      })
      .returning({ id: creditPurchases.id });
    if (!purchase) throw new Error("the reservation was not written");
    return purchase.id;
  });
}

/** Stripe refused to begin: the reservation no longer holds room under the cap. */
export async function releaseReservation(db: Database, purchaseId: string): Promise<void> {
  await db
    .delete(creditPurchases)
    .where(
      and(
        eq(creditPurchases.id, purchaseId),
        eq(creditPurchases.state, "pending"),
        isNull(creditPurchases.checkoutSessionId),
        isNull(creditPurchases.paymentIntentId),
      ),
    );
}
