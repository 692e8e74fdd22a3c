/**
 * What each verified Stripe event does (docs/billing.md), dispatched to purchases.ts: the
 * fields are read defensively (a field missing is treated as nothing to do, never a guess), and an
 * event type not listed changes nothing.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { organizations } from "../../db/schema";
import { currencyOf, idOf, METADATA_CREDITS, METADATA_ORGANIZATION, sessionId, text, whole } from "./metadata";
import {
  disputePurchase,
  failPurchase,
  grantPurchase,
  recordPendingPurchase,
  refundPurchase,
  safeInvoiceUrl,
} from "./purchases";
import type { Stripe } from "./stripe";
import { onCardSetupCompleted, onTopUpPaymentFailed, onTopUpSucceeded } from "./top-up";
import { forgetDetachedCard } from "./top-up-settings";

/** The session's metadata our checkout writes (server/4-billing/checkout.ts). */
export { METADATA_CREDITS, METADATA_ORGANIZATION };

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
  const rest = { organizationId, credits, amount, currency };
  const purchase = { ...rest, checkoutSessionId };
  if (!paid) {
    // Paid later (a bank debit): the purchase stays pending until async_payment_succeeded. For an
    // organization that is gone (deleted since, or never ours) there is nothing to keep: the insert
    // would break the foreign key, a 500 Stripe retries for days.
    const [organization] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    if (!organization) return "no_organization";
    await recordPendingPurchase(db, { ...rest, source: { checkoutSessionId } });
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
  /** The client to read what an event only names (a setup session's card); null: not configured. */
  stripe: Stripe | null = null,
): Promise<EventOutcome> {
  switch (event.type) {
    case "checkout.session.completed":
      if (event.data.object.mode === "setup") return onCardSetupCompleted(db, stripe, event.data.object);
      return onSession(db, event.data.object, event.data.object.payment_status === "paid", invoiceUrlOf);
    case "payment_intent.succeeded":
      return onTopUpSucceeded(db, event.data.object);
    case "payment_intent.payment_failed":
      return onTopUpPaymentFailed(db, event.data.object);
    case "payment_method.detached":
      return forgetDetachedCard(db, event.data.object.id);
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
