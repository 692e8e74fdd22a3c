/**
 * Stripe's customer portal (docs/billing.md): where owners and billing members change the saved
 * card and read every invoice, on Stripe's own page. A portal session is made per visit for the
 * organization's customer; an organization that never bought has no customer yet and is told so.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { billingCustomers } from "../../db/schema";
import { conflict } from "../1-errors/api-error";
import { CREDITS_PATH } from "../2-http/paths";
import { stripeSettingsOf } from "./checkout";
import type { BillingConfig } from "./config";
import { askStripe, stripeClient } from "./stripe";

/** The portal's address for this organization, coming back to the credits page. */
export async function customerPortalUrl(
  db: Database,
  config: BillingConfig,
  organizationId: string,
  origin: string,
): Promise<string> {
  const settings = stripeSettingsOf(config);
  const [customer] = await db
    .select({ id: billingCustomers.stripeCustomerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.organizationId, organizationId));
  if (!customer)
    throw conflict("This organization has no cards or invoices at Stripe yet: buy a pack or save a card first.");
  const session = await askStripe("open the customer portal", () =>
    stripeClient(settings).billingPortal.sessions.create({
      customer: customer.id,
      return_url: `${origin}${CREDITS_PATH}`,
    }),
  );
  return session.url;
}
