import type { Metadata } from "next";
import Link from "next/link";
import { MarketsTable } from "@/components/market/markets-table";
import { GEOGRAPHIES_PATH } from "@/server/2-http/paths";
import { readingHref } from "@/server/2-http/reading-context";
import { dashboardCaller } from "@/server/8-dashboard/caller";
import { requireOrganization } from "@/server/8-dashboard/guards";
import { countryFrom } from "@/server/8-dashboard/search-params";

export const metadata: Metadata = { title: "Markets" };
export const dynamic = "force-dynamic";

/**
 * Every listed market under a country (the URL's, else the organization's home): how many of each
 * market's products are usable there, each market opening under that country.
 */
export default async function MarketsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const search = await searchParams;
  const asked = countryFrom(search.country);
  const { organization } = await requireOrganization(readingHref({ to: "markets" }, asked ? { country: asked } : {}));
  const api = await dashboardCaller();
  const country = asked ?? organization.homeCountry;
  const [{ markets }, { geographies }] = await Promise.all([
    api.markets.browse(),
    api.geographies.list({ detail: "ids" }),
  ]);
  const name = geographies.find((g) => g.country === country)?.name ?? country;
  // One Max reading per market (each computed once per release and kept): its usable count.
  const usable = await Promise.all(
    markets.map((m) =>
      api.readings
        .servicemax({ marketId: m.marketId, country })
        .then((max) => max.products.filter((p) => p.available).length)
        .catch(() => undefined),
    ),
  );
  return (
    <main>
      <h1>Markets</h1>
      <p data-testid="markets-country">
        Under <strong>{name}</strong>&apos;s controls ({country})
        {country === organization.homeCountry ? ", your home country" : ""}: how many products of each market can be
        used there. Pick another country on the <Link href={GEOGRAPHIES_PATH}>geographies</Link> page or in any market.
      </p>
      {markets.length === 0 ? (
        <p className="notice" data-testid="no-markets">
          No market is published yet. An operator publishes one with <code>npm run ops -- catalog publish FILE</code>.
        </p>
      ) : (
        <MarketsTable
          markets={markets.map((m, i) => ({ ...m, usable: usable[i] }))}
          country={{ code: country, name }}
        />
      )}
    </main>
  );
}
