/**
 * What each verified Stripe event does (docs/billing.md), dispatched to purchases.ts: the
 * fields are read defensively (a field missing is treated as nothing to do, never a guess), and an
 * event type not listed changes nothing.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { organizations } from "../../db/schema";
import {
  disputePurchase,
  failPurchase,
  grantPurchase,
  recordPendingPurchase,
  refundPurchase,
  safeInvoiceUrl,
} from "./purchases";
import type { Stripe } from "./stripe";

/** The session's metadata our checkout writes (server/billing/checkout.ts). */
export const METADATA_ORGANIZATION = "organization";
export const METADATA_CREDITS = "credits";

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const idOf = (value: unknown): string | null =>
  text(value) ?? (value && typeof value === "object" ? text((value as { id?: unknown }).id) : null);
/** Most a purchase's credits or price may be: its columns are PostgreSQL integers. */
const MAX_WHOLE = 2_147_483_647;
/**
 * A whole number above zero that fits the purchase's columns, or null. A signed event is Stripe's,
 * but its fields are still read as untrusted JSON: a negative, fractional or huge value must not
 * reach a grant or a check constraint (a 500 Stripe would retry for days).
 */
const whole = (value: unknown): number | null => {
  const number =
    typeof value === "number" ? value : typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : null;
  return number !== null && Number.isSafeInteger(number) && number > 0 && number <= MAX_WHOLE ? number : null;
};
/** A Checkout Session's id as Stripe writes it (`cs_test_…`, `cs_live_…`). */
const sessionId = (value: unknown): string | null =>
  typeof value === "string" && /^cs_[A-Za-z0-9_]{1,250}$/.test(value) ? value : null;
/** ISO 4217 in lower case, as Stripe writes a currency. */
const currencyOf = (value: unknown): string | null =>
  typeof value === "string" && /^[a-z]{3}$/.test(value) ? value : null;

/** What the event did, for the log line. */
export type EventOutcome = string;

/** Looks up an invoice's hosted page (the event names the invoice by id only); null when it cannot. */
export type InvoiceUrlOf = (invoiceId: string) => Promise<string | null>;

async function onSession(
  db: Database,
  session: Stripe.Checkout.Session,
  paid: boolean,
  invoiceUrlOf: InvoiceUrlOf,
): Promise<EventOutcome> {
  const organizationId = text(session.metadata?.[METADATA_ORGANIZATION]);
  const credits = whole(session.metadata?.[METADATA_CREDITS]);
  const amount = whole(session.amount_total);
  const currency = currencyOf(session.currency);
  const checkoutSessionId = sessionId(session.id);
  if (!organizationId || !credits || !amount || !currency || !checkoutSessionId) return "not_ours";
  const purchase = { organizationId, checkoutSessionId, credits, amount, currency };
  if (!paid) {
    // Paid later (a bank debit): the purchase stays pending until async_payment_succeeded. For an
    // organization that is gone (deleted since, or never ours) there is nothing to keep: the insert
    // would break the foreign key, a 500 Stripe retries for days.
    const [organization] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    if (!organization) return "no_organization";
    await recordPendingPurchase(db, purchase);
    return "pending";
  }
  // Read before the grant's transaction: no database connection waits on Stripe.
  const invoiceId = idOf(session.invoice);
  const expanded = session.invoice && typeof session.invoice === "object" ? session.invoice.hosted_invoice_url : null;
  const invoiceUrl = safeInvoiceUrl(expanded ?? (invoiceId ? await invoiceUrlOf(invoiceId) : null));
  const result = await grantPurchase(db, {
    ...purchase,
    paymentIntentId: idOf(session.payment_intent),
    invoiceUrl,
  });
  return result.outcome;
}

export async function actOnEvent(
  db: Database,
  event: Stripe.Event,
  invoiceUrlOf: InvoiceUrlOf = async () => null,
): Promise<EventOutcome> {
  switch (event.type) {
    case "checkout.session.completed":
      return onSession(db, event.data.object, event.data.object.payment_status === "paid", invoiceUrlOf);
    case "checkout.session.async_payment_succeeded":
      return onSession(db, event.data.object, true, invoiceUrlOf);
    case "checkout.session.async_payment_failed": {
      const id = sessionId(event.data.object.id);
      if (!id) return "malformed";
      return (await failPurchase(db, id)) ? "failed" : "nothing_pending";
    }
    case "charge.refunded": {
      const charge = event.data.object;
      // A refund names its charge and moves between 1 and the whole amount; anything else would
      // take credits by a wrong share (or mark a purchase refunded with nothing taken back).
      const chargeId = text(charge.id);
      const amount = whole(charge.amount);
      const amountRefunded = whole(charge.amount_refunded);
      if (!chargeId || !amount || !amountRefunded || amountRefunded > amount) return "malformed";
      return (
        await refundPurchase(db, {
          chargeId,
          paymentIntentId: idOf(charge.payment_intent),
          amount,
          amountRefunded,
        })
      ).outcome;
    }
    case "charge.dispute.created": {
      const dispute = event.data.object;
      const disputeId = text(dispute.id);
      if (!disputeId) return "malformed";
      return (
        await disputePurchase(db, {
          disputeId,
          chargeId: idOf(dispute.charge),
          paymentIntentId: idOf(dispute.payment_intent),
        })
      ).outcome;
    }
    default:
      return "ignored";
  }
}
