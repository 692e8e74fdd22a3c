/** The views of a market page, each at its own URL: the segment after /markets/{id}, and its name. */
export const MARKET_VIEWS = [
  { segment: "", label: "Overview" },
  { segment: "readings", label: "Readings" },
  { segment: "whatif", label: "What if" },
  { segment: "changes", label: "What changed" },
  { segment: "availability", label: "Availability" },
  { segment: "methodology", label: "Methodology and releases" },
] as const;

export type MarketView = (typeof MARKET_VIEWS)[number]["segment"];

export const marketPath = (marketId: string, view: MarketView = "") =>
  `/markets/${encodeURIComponent(marketId)}${view ? `/${view}` : ""}`;
