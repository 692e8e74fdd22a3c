"use client";
/**
 * The views of a market page as tabs. Each link keeps the release and the country the page shows
 * now — read from the live URL, so a country just picked on the readings view carries over before
 * the server has rendered anything again.
 */
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { MARKET_VIEWS, type MarketView, marketPath } from "@/server/dashboard/market-views";

export function MarketTabs({ marketId, view, country }: { marketId: string; view: MarketView; country: string }) {
  const search = useSearchParams();
  const kept = new URLSearchParams();
  const release = search.get("release");
  if (release) kept.set("release", release);
  kept.set("country", search.get("country") ?? country);
  return (
    <nav aria-label="Market views" className="tabs" data-testid="market-views">
      {MARKET_VIEWS.map((v) => (
        <Link
          key={v.segment}
          href={`${marketPath(marketId, v.segment)}?${kept}`}
          aria-current={v.segment === view ? "page" : undefined}
          data-view={v.segment || "overview"}
        >
          {v.label}
        </Link>
      ))}
    </nav>
  );
}
