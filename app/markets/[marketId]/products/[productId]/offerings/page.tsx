import type { Metadata } from "next";
import { OfferingsTable } from "@/components/product/offerings-table";
import { ProductFrame } from "@/components/product/product-frame";
import { loadProductView, type ProductViewPageProps } from "@/server/8-dashboard/product-page";

export const metadata: Metadata = { title: "Product offerings" };
export const dynamic = "force-dynamic";

/** A product's offerings: which is the default, which controls each satisfies. */
export default async function ProductOfferings({ params, searchParams }: ProductViewPageProps) {
  const { marketId, productId } = await params;
  const loaded = await loadProductView(marketId, productId, "offerings", await searchParams);
  return (
    <ProductFrame loaded={loaded} view="offerings">
      <h2 id="offerings">Offerings</h2>
      <p className="hint">
        The default offering is what the scores are computed from. Under a country's controls, of the offerings that
        satisfy every control engaged, the one with the highest Innovation is engaged; it keeps the default's values
        where it writes none of its own.
      </p>
      <OfferingsTable product={loaded.product} controlNames={loaded.controlNames} />
    </ProductFrame>
  );
}
