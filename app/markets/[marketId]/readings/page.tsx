import type { Metadata } from "next";
import { MarketFrame } from "@/components/market/market-frame";
import { ReadingsPanel } from "@/components/market/readings-panel";
import { loadMarketView, type MarketViewPageProps } from "@/server/8-dashboard/market-page";
import { gatesFrom } from "@/server/8-dashboard/search-params";

export const metadata: Metadata = { title: "Readings" };
export const dynamic = "force-dynamic";

/** The Capability Index, Max and Delta under a country of the reader's choice. */
export default async function MarketReadings({ params, searchParams }: MarketViewPageProps) {
  const { marketId } = await params;
  const search = await searchParams;
  const market = await loadMarketView(marketId, "readings", search);
  const innovation = market.snapshot.dimensions.find((d) => d.id === "innovation");
  return (
    <MarketFrame market={market} view="readings">
      <ReadingsPanel
        marketId={market.snapshot.marketId}
        release={market.release}
        initialCountry={market.country}
        initialView={search.view === "bars" ? "bars" : "map"}
        initialGates={gatesFrom(search)}
        innovationCutoffs={innovation?.bands ?? []}
      />
    </MarketFrame>
  );
}
