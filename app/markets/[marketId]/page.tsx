import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { MarketFrame } from "@/components/market/market-frame";
import { SnapshotTable } from "@/components/market/snapshot-table";
import { underCountry } from "@/components/market/under-country";
import { ReadingLink } from "@/components/reading-link";
import { usableHeadline } from "@/server/2-charts/chart-data";
import { givenParams, loadMarketView, type MarketViewPageProps, marketPath } from "@/server/8-dashboard/market-page";

export const metadata: Metadata = { title: "Market" };
export const dynamic = "force-dynamic";

/** A market's overview: the answer under the country first, then the snapshot as a sortable table. */
export default async function MarketOverview({ params, searchParams }: MarketViewPageProps) {
  const { marketId } = await params;
  const search = await searchParams;
  // Links from before the views (e-mails already sent) named a comparison on this page.
  if (typeof search.from === "string" || typeof search.to === "string")
    redirect(`${marketPath(marketId, "changes")}?${new URLSearchParams(givenParams(search))}`);
  const market = await loadMarketView(marketId, "", search);
  const { api, snapshot, country, release } = market;
  const max = await api.readings.servicemax({ marketId, country, ...(release ? { release } : {}) }).catch(() => null);
  return (
    <MarketFrame market={market} view="">
      {max ? (
        <p className="usable-headline" data-testid="usable-headline">
          {usableHeadline(max.products, max.country)}{" "}
          <ReadingLink destination={{ to: "market", marketId, view: "readings" }}>
            See the readings under {max.country}
          </ReadingLink>
        </p>
      ) : null}
      <h2 id="snapshot">Snapshot</h2>
      <p className="hint">
        Every product's published scores, 0–100 against the field of this market, with the band of each
        {max ? `; the last column is the Innovation each keeps under ${max.country}'s controls` : ""}.
      </p>
      <SnapshotTable
        products={snapshot.products}
        marketId={snapshot.marketId}
        release={snapshot.release}
        {...(max ? { under: underCountry(max) } : {})}
      />
    </MarketFrame>
  );
}
