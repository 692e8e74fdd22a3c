import type { Metadata } from "next";
import { ProductFrame } from "@/components/product/product-frame";
import { OverallSeal, SovereigntyTable } from "@/components/product/sovereignty-profile";
import { dashboardCaller } from "@/server/8-dashboard/caller";
import { loadProductView, type ProductViewPageProps } from "@/server/8-dashboard/product-page";

export const metadata: Metadata = { title: "Sovereignty" };
export const dynamic = "force-dynamic";

/**
 * The product against the EU Cloud Sovereignty Framework under the country the page engages (the
 * organization's home country when none is picked): each objective's SEAL level with its facts,
 * the weakest marked, as the sovereignty reading answers it.
 */
export default async function ProductSovereignty({ params, searchParams }: ProductViewPageProps) {
  const { marketId, productId } = await params;
  const search = await searchParams;
  const loaded = await loadProductView(marketId, productId, "sovereignty", search);
  const api = await dashboardCaller();
  const profile = await api.readings.sovereignty({
    marketId,
    productId,
    ...(loaded.release ? { release: loaded.release } : {}),
    ...(loaded.product.underControls ? { country: loaded.product.underControls.country } : {}),
  });
  return (
    <ProductFrame loaded={loaded} view="sovereignty">
      <section aria-labelledby="sovereignty-heading">
        <h2 id="sovereignty-heading">
          EU Cloud Sovereignty Framework under {loaded.countryName(profile.country)}'s controls
        </h2>
        <p className="hint" data-testid="sovereignty-assessed">
          {profile.available
            ? `Assessed: ${profile.offering.name}, the offering engaged there.`
            : `${profile.name} has no offering that meets ${loaded.countryName(profile.country)}'s controls: its default offering, ${profile.offering.name}, is assessed.`}
          {loaded.product.underControls ? "" : " (Your organization's home country; pick another above.)"}
        </p>
        <OverallSeal profile={profile} />
        <SovereigntyTable profile={profile} />
        <p className="hint">{profile.note}</p>
      </section>
    </ProductFrame>
  );
}
