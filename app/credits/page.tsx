import type { Metadata } from "next";
import { CreditPacks } from "@/components/account/credit-packs";
import { CreditsView } from "@/components/account/credits-view";
import { TopUpPanel } from "@/components/account/top-up-panel";
import { CREDITS_PATH } from "@/server/2-http/paths";
import { CHECKOUT_RETURN_PARAM } from "@/server/4-billing/checkout";
import { CARD_RETURN_PARAM } from "@/server/4-billing/top-up";
import { requireOrganization } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Credits" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function CreditsPage({ searchParams }: { searchParams: SearchParams }) {
  const { organization } = await requireOrganization(CREDITS_PATH);
  // Stripe Checkout sends the person back with the session id (or `cancelled`); anything else is ignored.
  const params = await searchParams;
  const checkout = params[CHECKOUT_RETURN_PARAM];
  const checkoutReturn = typeof checkout === "string" && /^[A-Za-z0-9_]{1,255}$/.test(checkout) ? checkout : null;
  // Back from saving a card in Checkout's setup mode: `saved` or `cancelled`.
  const card = params[CARD_RETURN_PARAM];
  const cardReturn = card === "saved" || card === "cancelled" ? card : null;
  return (
    <main>
      <h1>Credits</h1>
      <p>
        Credits of <strong>{organization.name}</strong>.
      </p>
      <CreditsView
        buying={
          <>
            <CreditPacks checkoutReturn={checkoutReturn} />
            <TopUpPanel cardReturn={cardReturn} />
          </>
        }
      />
    </main>
  );
}
