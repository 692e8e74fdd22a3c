import type { Metadata } from "next";
import { MarketFrame } from "@/components/market/market-frame";
import { type ComparisonResult, WhatChanged } from "@/components/market/what-changed";
import { describeError } from "@/server/1-errors/describe";
import { readingEntries } from "@/server/2-http/reading-context";
import { givenParams, loadMarketView, type MarketViewPageProps } from "@/server/8-dashboard/market-page";

export const metadata: Metadata = { title: "What changed" };
export const dynamic = "force-dynamic";

/**
 * A release of the comparison from the URL: absent is undefined (the default), digits a number,
 * anything else NaN, which the procedure refuses in its own words.
 */
function pairFrom(value: unknown): number | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  return /^\d+$/.test(value) ? Number(value) : Number.NaN;
}

/** What one release changed against another, under the page's country. */
export default async function MarketChanges({ params, searchParams }: MarketViewPageProps) {
  const { marketId } = await params;
  const search = await searchParams;
  const market = await loadMarketView(marketId, "changes", search);
  const { api, changelog, country } = market;
  const asked = { from: pairFrom(search.from), to: pairFrom(search.to) };
  let result: ComparisonResult | undefined;
  let published: Record<string, Record<"innovation" | "control" | "scale", number>> | undefined;
  if (changelog.releases.length >= 2) {
    try {
      const comparison = await api.readings.changes({ marketId, ...asked, country });
      result = { comparison };
      // The products that entered are shown with their published scores, from the later release.
      const later = await api.readings.snapshot({ marketId, release: comparison.to.release });
      published = Object.fromEntries(later.products.map((p) => [p.productId, p.scores]));
    } catch (error) {
      const { code, detail } = describeError(error);
      if (code !== "invalid_request" && code !== "not_found") throw error;
      result = { problem: detail };
    }
  }
  return (
    <MarketFrame market={market} view="changes">
      <WhatChanged
        releases={changelog.releases}
        asked={asked}
        result={result}
        keep={Object.fromEntries([...readingEntries(market.reading), ...givenParams(search, ["view"])])}
        published={published}
      />
    </MarketFrame>
  );
}
