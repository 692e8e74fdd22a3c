/**
 * The top of every view of a market page: where you are, the market and its release, Follow, the
 * release picker, then the views as tabs, each a link to its own URL keeping the release and the
 * country. The view's own content follows.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import { FollowButton } from "@/components/follow-button";
import { utcDay } from "@/components/format";
import { MarketTabs } from "@/components/market/market-tabs";
import { ReleasePicker } from "@/components/market/release-picker";
import { type LoadedMarketView, MARKET_VIEWS, type MarketView, marketPath } from "@/server/dashboard/market-page";

export function MarketFrame({
  market,
  view,
  children,
}: {
  market: LoadedMarketView;
  view: MarketView;
  children: ReactNode;
}) {
  const { snapshot, changelog, latest, following, release, country } = market;
  const current = MARKET_VIEWS.find((v) => v.segment === view);
  return (
    <main className="market-view" data-view={view || "overview"}>
      <p className="hint breadcrumb">
        <Link href="/">Markets</Link> /{" "}
        {current && view ? <Link href={marketPath(snapshot.marketId)}>{snapshot.name}</Link> : null}
      </p>
      <div className="market-head">
        {/* The market is the page's heading; the view is the marked tab below. */}
        <h1>{snapshot.name}</h1>
        <FollowButton marketId={snapshot.marketId} initiallyFollowing={following} />
      </div>
      <div className="market-facts">
        <p data-testid="release-line">
          Release <strong>{snapshot.release}</strong>
          {snapshot.release === latest ? " (latest)" : ` (latest is ${latest})`}, updated{" "}
          <time dateTime={snapshot.lastUpdated}>{utcDay(snapshot.lastUpdated)}</time>, methodology{" "}
          {snapshot.methodologyVersion}. {snapshot.products.length} products.
        </p>
        <ReleasePicker releases={changelog.releases} current={snapshot.release} />
      </div>
      <MarketTabs marketId={snapshot.marketId} view={view} country={country} />
      {children}
    </main>
  );
}
