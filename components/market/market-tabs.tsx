/**
 * The views of a market page as tabs, each in the page's reading context (the release, the
 * country — the server's choice, the organization's home, when the URL names none — gates, weights).
 */
import { ViewTabs } from "@/components/ui/view-tabs";
import { MARKET_VIEWS, type MarketView } from "@/server/2-http/reading-context";

export function MarketTabs({ marketId, view }: { marketId: string; view: MarketView }) {
  return (
    <ViewTabs
      label="Market views"
      testId="market-views"
      views={MARKET_VIEWS.map((v) => ({
        id: v.segment || "overview",
        label: v.label,
        destination: { to: "market", marketId, view: v.segment },
      }))}
      current={view || "overview"}
    />
  );
}
