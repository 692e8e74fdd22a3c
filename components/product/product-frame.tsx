/**
 * The top of every view of a product page: where you are, the product and its vendor, its release,
 * the release and country pickers (a country the release was not scored for said in the API's
 * words), then the views as tabs, each a link to its own URL keeping the release and the country.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import { utcDay } from "@/components/format";
import { ReleasePicker } from "@/components/market/release-picker";
import { ViewTabs } from "@/components/view-tabs";
import { marketPath } from "@/server/dashboard/market-views";
import type { LoadedProductView } from "@/server/dashboard/product-page";
import { PRODUCT_VIEWS, type ProductView, productPath } from "@/server/dashboard/product-views";
import { CountryPicker } from "./country-picker";

export function ProductFrame({
  loaded,
  view,
  children,
}: {
  loaded: LoadedProductView;
  view: ProductView;
  children: ReactNode;
}) {
  const { product, market, changelog, geographies, countryProblem, latest, release, country } = loaded;
  const under = product.underControls;
  const marketHref = `${marketPath(product.marketId)}${release ? `?release=${release}` : ""}`;
  return (
    <main className="product-view" data-view={view || "overview"}>
      <p className="hint breadcrumb">
        <Link href="/">Markets</Link> / <Link href={marketHref}>{market.name}</Link> /
      </p>
      <div className="market-head">
        <h1 data-testid="product-name">{product.name}</h1>
        <p data-testid="product-vendor">
          by <strong>{product.vendor}</strong>
        </p>
      </div>
      <div className="market-facts">
        <p data-testid="release-line">
          Release <strong>{product.release}</strong>
          {product.release === latest ? " (latest)" : ` (latest is ${latest})`}, updated{" "}
          <time dateTime={product.lastUpdated}>{utcDay(product.lastUpdated)}</time>, methodology{" "}
          {product.methodologyVersion}.
        </p>
        <ReleasePicker releases={changelog.releases} current={product.release} />
        <CountryPicker countries={geographies} current={under?.country ?? country} release={release} />
      </div>
      {countryProblem ? (
        <div className="notice error-notice" role="alert" data-testid="country-problem">
          <p>
            <strong>Could not engage that country's controls.</strong> {countryProblem}
          </p>
        </div>
      ) : null}
      <ViewTabs
        label="Product views"
        testId="product-views"
        views={PRODUCT_VIEWS.map((v) => ({
          id: v.segment || "overview",
          label: v.label,
          path: productPath(product.marketId, product.productId, v.segment),
        }))}
        current={view || "overview"}
        kept={["release", "country"]}
      />
      {children}
    </main>
  );
}
