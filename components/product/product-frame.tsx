/**
 * The top of every view of a product page, compact like a market's: the product, its vendor and
 * release on one line; the country every number is read under and the release; then — before any
 * score — what the product is under that country: usable through which offering, or unavailable
 * and what it lacks. The views follow as tabs keeping the release and the country.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import { utcDay } from "@/components/format";
import { CountryChooser } from "@/components/market/country-chooser";
import { ReleasePicker } from "@/components/market/release-picker";
import { ViewTabs } from "@/components/ui/view-tabs";
import { countryChoices } from "@/server/dashboard/market-page";
import { marketPath } from "@/server/dashboard/market-views";
import type { LoadedProductView } from "@/server/dashboard/product-page";
import { PRODUCT_VIEWS, type ProductView, productPath } from "@/server/dashboard/product-views";
import { UnderCountryVerdict } from "./under-country-verdict";

export function ProductFrame({
  loaded,
  view,
  children,
}: {
  loaded: LoadedProductView;
  view: ProductView;
  children: ReactNode;
}) {
  const { product, market, changelog, geographies, countryProblem, latest, release, country, organization } = loaded;
  const marketHref = `${marketPath(product.marketId)}?${new URLSearchParams([
    ...(release ? [["release", String(release)]] : []),
    ["country", country],
  ])}`;
  return (
    <main className="product-view" data-view={view || "overview"}>
      <p className="hint breadcrumb">
        <Link href="/markets">Markets</Link> / <Link href={marketHref}>{market.name}</Link> /
      </p>
      <div className="market-head">
        <h1 data-testid="product-name" title={product.name}>
          {product.name}
        </h1>
        <p className="release-chip" data-testid="release-line">
          <span data-testid="product-vendor">
            by <strong>{product.vendor}</strong>
          </span>{" "}
          · Release {product.release} {product.release === latest ? "(latest)" : `(latest is ${latest})`}
          <span className="wide-only">
            {" "}
            · <time dateTime={product.lastUpdated}>{utcDay(product.lastUpdated)}</time> · methodology{" "}
            {product.methodologyVersion}
          </span>
        </p>
      </div>
      <div className="frame-controls">
        <CountryChooser
          countries={countryChoices(geographies)}
          current={country}
          home={organization.homeCountry}
          keep={release ? { release: String(release) } : {}}
        />
        <ReleasePicker releases={changelog.releases} current={product.release} />
      </div>
      {countryProblem ? (
        <div className="notice error-notice" role="alert" data-testid="country-problem">
          <p>
            <strong>Could not engage that country's controls.</strong> {countryProblem}
          </p>
        </div>
      ) : (
        <UnderCountryVerdict loaded={loaded} />
      )}
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
        fallback={{ country }}
      />
      {children}
    </main>
  );
}
