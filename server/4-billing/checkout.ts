/**
 * Beginning a purchase (docs/billing.md): the organization's Stripe customer, made once, then a
 * Checkout Session for one pack, whose purchase is written pending. The Stripe calls are made
 * before the dashboard mutation's transaction (its `audit.prepare`), so no database connection
 * waits on Stripe; the purchase is reserved under the monthly cap first (cap.ts) and takes its
 * session beside the audit event.
 */
import { eq } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client";
import { billingCustomers, creditPurchases, organizations } from "../../db/schema";
import { invalidRequest, notFound } from "../1-errors/api-error";
import { CREDITS_PATH } from "../2-http/paths";
import { releaseReservation, reservePurchase } from "./cap";
import { type BillingConfig, type CreditPack, howToGetCredits, type StripeSettings } from "./config";
import { METADATA_CREDITS, METADATA_ORGANIZATION } from "./metadata";
import { askStripe, type Stripe, stripeClient } from "./stripe";

/** The query parameter the return from Checkout carries: the session id, or `cancelled`. */
export const CHECKOUT_RETURN_PARAM = "checkout";

export interface PreparedCheckout {
  organizationId: string;
  pack: CreditPack;
  /** The purchase reserved under the monthly cap. */
  purchaseId: string;
  checkoutSessionId: string;
  url: string;
}

/**
 * The organization's name as Stripe's customer name: one line (control and line-separator
 * characters become spaces, so the owner's text cannot add lines of its own to an invoice) and
 * at most 256 UTF-16 units, Stripe's bound, without splitting a surrogate pair.
 */
export function customerName(name: string): string {
  const line = [...name]
    .map((c) => {
      const code = c.charCodeAt(0);
      return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 ? " " : c;
    })
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  const cut = line.slice(0, 256);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * The organization's Stripe customer, made on its first purchase. Two clicks at once, even on two
 * instances, make one: Stripe answers the same idempotency key with the same customer, and the
 * table keeps one row per organization (the loser of the insert reads the winner's).
 */
export async function ensureCustomer(db: Database, stripe: Stripe, organizationId: string): Promise<string> {
  const stored = async () =>
    (
      await db
        .select({ id: billingCustomers.stripeCustomerId })
        .from(billingCustomers)
        .where(eq(billingCustomers.organizationId, organizationId))
    )[0]?.id;
  const existing = await stored();
  if (existing) return existing;
  const [organization] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!organization) throw notFound("The organization no longer exists.");
  const customer = await stripe.customers.create(
    // The name is the owner's text: Stripe shows it on invoices, on one line; it is never our HTML.
    { name: customerName(organization.name), metadata: { [METADATA_ORGANIZATION]: organizationId } },
    { idempotencyKey: `customer-${organizationId}` },
  );
  await db
    .insert(billingCustomers)
    .values({ organizationId, stripeCustomerId: customer.id })
    .onConflictDoNothing({ target: billingCustomers.organizationId });
  const kept = await stored();
  if (!kept) throw new Error("the organization's Stripe customer was neither written nor found");
  return kept;
}

/** Card purchases are on: the Stripe settings, or a 404 saying whom to ask instead. */
export function stripeSettingsOf(config: BillingConfig) {
  if (config.stripe) return config.stripe;
  throw notFound(`Credits are not sold by card on this service. ${howToGetCredits(config, null)}`);
}

/** The Stripe calls of a checkout: cap, customer, session. Nothing is written but the customer. */
export async function prepareCheckout(
  db: Database,
  config: BillingConfig,
  request: { organizationId: string; packId: string; origin: string },
): Promise<PreparedCheckout> {
  const settings = stripeSettingsOf(config);
  const pack = config.packs.find((candidate) => candidate.id === request.packId);
  if (!pack) {
    const message = `no pack "${request.packId.slice(0, 40)}": choose one of ${config.packs.map((p) => p.id).join(", ")}`;
    throw invalidRequest(message, [{ path: "pack", message }]);
  }
  // Room under the monthly cap is taken before Stripe is asked, and given back if it refuses.
  const purchaseId = await reservePurchase(db, config, {
    organizationId: request.organizationId,
    credits: pack.credits,
    amount: pack.amount,
    currency: pack.currency,
  });
  try {
    const session = await askStripe("begin the checkout", () => createSession(db, settings, request, pack, purchaseId));
    return {
      organizationId: request.organizationId,
      pack,
      purchaseId,
      checkoutSessionId: session.id,
      url: session.url,
    };
  } catch (error) {
    await releaseReservation(db, purchaseId);
    throw error;
  }
}

async function createSession(
  db: Database,
  settings: StripeSettings,
  request: { organizationId: string; origin: string },
  pack: CreditPack,
  purchaseId: string,
): Promise<{ id: string; url: string }> {
  const stripe = stripeClient(settings);
  const customer = await ensureCustomer(db, stripe, request.organizationId);
  const back = `${request.origin}${CREDITS_PATH}?${CHECKOUT_RETURN_PARAM}=`;
  const session = await stripe.checkout.sessions.create(
    {
      mode: "payment",
      customer,
      client_reference_id: request.organizationId,
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: pack.currency,
            unit_amount: pack.amount,
            product_data: { name: `${pack.credits.toLocaleString("en")} credits` },
          },
        },
      ],
      invoice_creation: { enabled: true },
      metadata: {
        [METADATA_ORGANIZATION]: request.organizationId,
        [METADATA_CREDITS]: String(pack.credits),
        pack: pack.id,
        purchase: purchaseId,
      },
      // Stripe puts the session id in place of the braces: the page reads the purchase by it.
      success_url: `${back}{CHECKOUT_SESSION_ID}`,
      cancel_url: `${back}cancelled`,
    },
    // One session per reservation, however often a retry asks.
    { idempotencyKey: `checkout-${purchaseId}` },
  );
  if (!session.url) throw new Error("Stripe made a checkout session without a URL");
  return { id: session.id, url: session.url };
}

/**
 * The reserved purchase takes its Checkout Session (in the mutation's transaction, beside its audit
 * event). Had the webhook already granted the session (paid within milliseconds), the grant's row
 * stands and the reservation is dropped, so the cap does not count the purchase twice.
 */
export async function recordCheckout(tx: Database | Transaction, prepared: PreparedCheckout) {
  const granted = await tx
    .select({ id: creditPurchases.id })
    .from(creditPurchases)
    .where(eq(creditPurchases.checkoutSessionId, prepared.checkoutSessionId));
  let purchaseId = prepared.purchaseId;
  if (granted[0]) {
    await tx.delete(creditPurchases).where(eq(creditPurchases.id, prepared.purchaseId));
    purchaseId = granted[0].id;
  } else
    await tx
      .update(creditPurchases)
      .set({ checkoutSessionId: prepared.checkoutSessionId })
      .where(eq(creditPurchases.id, prepared.purchaseId));
  return { purchaseId, checkoutSessionId: prepared.checkoutSessionId, url: prepared.url, pack: prepared.pack };
}
