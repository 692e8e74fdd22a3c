"use client";
/**
 * Buying credits (docs/billing.md): the packs with their price per 1,000 credits and a Buy button
 * for owners and billing members (others read who may buy), how the return from Stripe Checkout
 * went, the organization's purchases with their invoices, Stripe's portal for cards and invoices,
 * and the monthly cap. Without card purchases configured,
 * one line says where credits come from instead.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { TableWrap } from "@/components/ui/table-wrap";
import { moneyText } from "@/server/2-formats/money";
import { count, utcMinute } from "../format";
import { useTRPC } from "../trpc";
import { ProblemAlert } from "./account-list";
import { PurchaseCap } from "./purchase-cap";

const RETURN_WORDS = {
  received: "Payment received: the credits are in the balance.",
  pending: "Payment pending: the credits are added as soon as Stripe confirms it. This page shows it once it has.",
  failed: "The payment failed: nothing was charged and no credits were added.",
  cancelled: "Checkout was cancelled: nothing was charged.",
  unknown: "This checkout is not one of this organization's.",
} as const;

/** The status line after Stripe sends the person back (`?checkout=<session id>` or `cancelled`). */
function CheckoutReturn({ session }: { session: string }) {
  const trpc = useTRPC();
  const returned = useQuery({
    ...trpc.billing.returned.queryOptions({ session }),
    // Pending until the webhook arrives, usually seconds: look again until it has.
    refetchInterval: (query) => (query.state.data?.state === "pending" ? 3000 : false),
  });
  if (!returned.data) return null;
  return (
    <p role="status" className={returned.data.state === "failed" ? "error" : "note"} data-testid="checkout-return">
      {RETURN_WORDS[returned.data.state]}
    </p>
  );
}

function Packs() {
  const trpc = useTRPC();
  const packs = useQuery(trpc.billing.packs.queryOptions());
  const checkout = useMutation(
    trpc.billing.checkout.mutationOptions({ onSuccess: (begun) => window.location.assign(begun.url) }),
  );
  const portal = useMutation(
    trpc.billing.portal.mutationOptions({ onSuccess: (opened) => window.location.assign(opened.url) }),
  );
  if (!packs.data) return <ProblemAlert errors={[packs.error]} />;
  if (!packs.data.enabled)
    return (
      <>
        <p className="note" data-testid="credits-contact">
          {packs.data.howToGetCredits}
        </p>
        <Purchases />
      </>
    );
  return (
    <>
      <TableWrap label="Credit packs">
        <table>
          <thead>
            <tr>
              <th scope="col" className="num">
                Credits
              </th>
              <th scope="col" className="num">
                Price
              </th>
              <th scope="col" className="num">
                Per 1,000 credits
              </th>
              {packs.data.canBuy ? <th scope="col">Buy</th> : null}
            </tr>
          </thead>
          <tbody>
            {packs.data.packs.map((pack) => (
              <tr key={pack.id} data-testid="credit-pack">
                <td className="num" data-label="Credits">
                  {count(pack.credits)}
                </td>
                <td className="num" data-label="Price">
                  {moneyText(pack.amount, pack.currency)}
                </td>
                <td className="num" data-label="Per 1,000 credits">
                  {moneyText(pack.pricePerThousand, pack.currency)}
                </td>
                {packs.data.canBuy ? (
                  <td data-label="Buy">
                    <button
                      type="button"
                      disabled={checkout.isPending}
                      onClick={() => checkout.mutate({ pack: pack.id })}
                      data-testid="buy-credits"
                    >
                      Buy
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {packs.data.canBuy ? (
        <p className="hint">
          Paid by card through Stripe; an invoice is sent with every purchase.{" "}
          <button type="button" className="link-button" disabled={portal.isPending} onClick={() => portal.mutate()}>
            Cards and invoices at Stripe
          </button>
        </p>
      ) : (
        <p className="hint">Only {packs.data.buyers.join(" and ")} members of the organization can buy credits.</p>
      )}
      <ProblemAlert errors={[checkout.error, portal.error]} />
      <Purchases />
      <PurchaseCap />
    </>
  );
}

function Purchases() {
  const trpc = useTRPC();
  const purchases = useQuery(trpc.billing.purchases.queryOptions({ limit: 25 }));
  if (!purchases.data?.length) return <ProblemAlert errors={[purchases.error]} />;
  return (
    <>
      <h3>Purchases</h3>
      <TableWrap label="Purchases">
        <table>
          <thead>
            <tr>
              <th scope="col">Date (UTC)</th>
              <th scope="col" className="num">
                Credits
              </th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col">Bought by</th>
              <th scope="col">State</th>
              <th scope="col">Invoice</th>
            </tr>
          </thead>
          <tbody>
            {purchases.data.map((purchase) => (
              <tr key={purchase.id} data-testid="purchase-row" data-state={purchase.state}>
                <td data-label="Date (UTC)">{utcMinute(purchase.createdAt)}</td>
                <td className="num" data-label="Credits">
                  {count(purchase.credits)}
                </td>
                <td className="num" data-label="Amount">
                  {moneyText(purchase.amount, purchase.currency)}
                </td>
                <td data-label="Bought by">{purchase.topUpId ? "automatic top-up" : "checkout"}</td>
                <td data-label="State">{purchase.state.replace("_", " ")}</td>
                <td data-label="Invoice">
                  {purchase.invoiceUrl ? (
                    <a href={purchase.invoiceUrl} rel="noopener noreferrer" target="_blank">
                      Invoice
                    </a>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}

export function CreditPacks({ checkoutReturn }: { checkoutReturn: string | null }) {
  return (
    <section aria-labelledby="buy-credits">
      <h2 id="buy-credits">Buy credits</h2>
      {checkoutReturn ? <CheckoutReturn session={checkoutReturn} /> : null}
      <Packs />
    </section>
  );
}
