import type { Metadata } from "next";
import { AvailabilityHeatmap } from "@/components/market/availability-heatmap";
import { EmbedAction } from "@/components/market/embed-action";
import { MarketFrame } from "@/components/market/market-frame";
import { loadMarketView, type MarketViewPageProps } from "@/server/8-dashboard/market-page";

export const metadata: Metadata = { title: "Availability" };
export const dynamic = "force-dynamic";

/** Every product under every country's controls. */
export default async function MarketAvailability({ params, searchParams }: MarketViewPageProps) {
  const { marketId } = await params;
  const market = await loadMarketView(marketId, "availability", await searchParams);
  const availability = await market.api.readings.availability({ marketId, release: market.snapshot.release });
  return (
    <MarketFrame market={market} view="availability">
      <AvailabilityHeatmap matrix={availability} country={market.country} />
      <EmbedAction marketId={marketId} reading="availability" release={availability.release} />
    </MarketFrame>
  );
}
