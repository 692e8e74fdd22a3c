/**
 * The views of a market page as tabs, keeping the release and the country (the server's choice,
 * the organization's home, when the URL names none).
 */
import { ViewTabs } from "@/components/ui/view-tabs";
import { MARKET_VIEWS, type MarketView, marketPath } from "@/server/dashboard/market-views";

export function MarketTabs({ marketId, view, country }: { marketId: string; view: MarketView; country: string }) {
  return (
    <ViewTabs
      label="Market views"
      testId="market-views"
      views={MARKET_VIEWS.map((v) => ({
        id: v.segment || "overview",
        label: v.label,
        path: marketPath(marketId, v.segment),
      }))}
      current={view || "overview"}
      kept={["release", "country"]}
      fallback={{ country }}
    />
  );
}
