/**
 * The top of every view of a product page, compact like a market's: the product, its vendor and
 * release on one line; the country every number is read under and the release; then — before any
 * score — what the product is under that country: usable through which offering, or unavailable
 * and what it lacks. The views follow as tabs. Every link keeps the page's reading context
 * (server/2-http/reading-context.ts): the breadcrumb's Markets the country, the market and the tabs
 * the release, the country, the gates and the weights.
 */
import type { ReactNode } from "react";
import { utcDay } from "@/components/format";
import { CountryChooser } from "@/components/market/country-chooser";
import { ReleasePicker } from "@/components/market/release-picker";
import { ReadingContextProvider, ReadingLink } from "@/components/reading-link";
import { ViewTabs } from "@/components/ui/view-tabs";
import { PRODUCT_VIEWS, type ProductView } from "@/server/2-http/reading-context";
import { countryChoices } from "@/server/8-dashboard/market-page";
import type { LoadedProductView } from "@/server/8-dashboard/product-page";
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
  const { product, market, changelog, geographies, countryProblem, latest, country, organization, reading } = loaded;
  return (
    <main className="product-view" data-view={view || "overview"}>
      <ReadingContextProvider value={reading}>
        <p className="hint breadcrumb">
          <ReadingLink destination={{ to: "markets" }}>Markets</ReadingLink> /{" "}
          <ReadingLink destination={{ to: "market", marketId: product.marketId }}>{market.name}</ReadingLink> /
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
          <CountryChooser countries={countryChoices(geographies)} current={country} home={organization.homeCountry} />
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
            destination: { to: "product", marketId: product.marketId, productId: product.productId, view: v.segment },
          }))}
          current={view || "overview"}
        />
        {children}
      </ReadingContextProvider>
    </main>
  );
}
