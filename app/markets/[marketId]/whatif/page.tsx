import type { Metadata } from "next";
import { MarketFrame } from "@/components/market/market-frame";
import { WhatIfView } from "@/components/market/what-if-view";
import { loadMarketView, type MarketViewPageProps } from "@/server/8-dashboard/market-page";

export const metadata: Metadata = { title: "What if" };
export const dynamic = "force-dynamic";

/** The rankings with the reader's own weights, never the published ones. */
export default async function MarketWhatIf({ params, searchParams }: MarketViewPageProps) {
  const { marketId } = await params;
  const search = await searchParams;
  const market = await loadMarketView(marketId, "whatif", search);
  return (
    <MarketFrame market={market} view="whatif">
      <WhatIfView
        marketId={market.snapshot.marketId}
        release={market.release}
        initialCountry={market.country}
        axes={market.snapshot.dimensions.map((d) => ({
          id: d.id,
          indicators: d.indicators.map(({ id, name, weight }) => ({ id, name, weight })),
        }))}
        initialWeights={typeof search.whatif === "string" ? search.whatif : undefined}
        initialOrder={typeof search.whatifBy === "string" ? search.whatifBy : undefined}
      />
    </MarketFrame>
  );
}
