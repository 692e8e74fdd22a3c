import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { score } from "@/components/format";
import { bandSlug } from "@/components/market/band";
import { ContributionFigure } from "@/components/product/contribution-figure";
import { ProductFrame } from "@/components/product/product-frame";
import { AXES, AXIS_LABELS, type Axis } from "@/components/product/types";
import { AxisChanges } from "@/components/product/under-controls";
import { loadProductView, type ProductViewPageProps } from "@/server/8-dashboard/product-page";

export const metadata: Metadata = { title: "Product axis" };
export const dynamic = "force-dynamic";

const isAxis = (value: string): value is Axis => (AXES as readonly string[]).includes(value);

/** One axis of a product taken apart: each indicator's contribution with its evidence, and a country's changes. */
export default async function ProductAxis({
  params,
  searchParams,
}: Omit<ProductViewPageProps, "params"> & { params: Promise<{ marketId: string; productId: string; axis: string }> }) {
  const { marketId, productId, axis } = await params;
  if (!isAxis(axis)) notFound();
  const loaded = await loadProductView(marketId, productId, axis, await searchParams);
  const { product } = loaded;
  const under = product.underControls;
  return (
    <ProductFrame loaded={loaded} view={axis}>
      <section aria-labelledby={`axis-${axis}`} data-testid={`axis-${axis}`}>
        <h2 id={`axis-${axis}`}>
          {AXIS_LABELS[axis]}: {score(product.axes[axis].score)}{" "}
          <span className={`badge band-${bandSlug(product.axes[axis].band)}`}>{product.axes[axis].band}</span>
        </h2>
        <ContributionFigure
          axis={axis}
          breakdown={product.axes[axis]}
          marketId={product.marketId}
          release={product.release}
          productId={product.productId}
        />
        {under ? <AxisChanges axis={axis} published={product.axes[axis]} under={under} /> : null}
      </section>
    </ProductFrame>
  );
}
