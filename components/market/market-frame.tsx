/**
 * The top of every view of a market page, compact so a phone's first screen holds data: the market
 * and its release in one line (Follow beside), the country every number of the view is read under
 * and the release, each changed in one step, then the views as tabs (one row, scrolling sideways on
 * a phone), each a link to its own URL. Every link inside keeps the page's reading context
 * (server/2-http/reading-context.ts): the breadcrumb's Markets the country, the tabs and the product
 * links the release, the country, the gates and the weights.
 */
import type { ReactNode } from "react";
import { count, utcDay } from "@/components/format";
import { CountryChooser } from "@/components/market/country-chooser";
import { FollowButton } from "@/components/market/follow-button";
import { MarketTabs } from "@/components/market/market-tabs";
import { ReleasePicker } from "@/components/market/release-picker";
import { ReadingContextProvider, ReadingLink } from "@/components/reading-link";
import type { LoadedMarketView, MarketView } from "@/server/8-dashboard/market-page";

export function MarketFrame({
  market,
  view,
  children,
}: {
  market: LoadedMarketView;
  view: MarketView;
  children: ReactNode;
}) {
  const { snapshot, changelog, latest, following, country, countries, organization, reading } = market;
  return (
    <main className="market-view" data-view={view || "overview"}>
      <ReadingContextProvider value={reading}>
        <p className="hint breadcrumb">
          <ReadingLink destination={{ to: "markets" }}>Markets</ReadingLink> /
        </p>
        <div className="market-head">
          {/* The market is the page's heading; the view is the marked tab below. */}
          {/* On a phone the name is cut short with an ellipsis; the title carries it whole. */}
          <h1 title={snapshot.name}>{snapshot.name}</h1>
          <p className="release-chip" data-testid="release-line">
            Release {snapshot.release} {snapshot.release === latest ? "(latest)" : `(latest is ${latest})`}
            <span className="wide-only">
              {" "}
              · <time dateTime={snapshot.lastUpdated}>{utcDay(snapshot.lastUpdated)}</time> · methodology{" "}
              {snapshot.methodologyVersion} · {count(snapshot.products.length)} products
            </span>
          </p>
          <FollowButton marketId={snapshot.marketId} initiallyFollowing={following} />
        </div>
        <div className="frame-controls">
          <CountryChooser countries={countries} current={country} home={organization.homeCountry} />
          <ReleasePicker releases={changelog.releases} current={snapshot.release} />
        </div>
        <MarketTabs marketId={snapshot.marketId} view={view} />
        {children}
      </ReadingContextProvider>
    </main>
  );
}
