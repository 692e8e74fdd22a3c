/**
 * The markets, each name opening its page: on the home page and at /markets. Under a country, each
 * market also says how many of its products are usable there (the Max reading's headline), and its
 * link opens the market under that country.
 */
import Link from "next/link";
import { count, utcDay } from "@/components/format";
import { TableWrap } from "@/components/ui/table-wrap";
import { readingHref } from "@/server/2-http/reading-context";

export interface MarketRow {
  marketId: string;
  name: string;
  description: string;
  productCount: number;
  release: number;
  lastUpdated: string;
  /** Under the table's country: how many products are usable there; absent without a country. */
  usable?: number;
}

export function MarketsTable({
  markets,
  country,
}: {
  markets: readonly MarketRow[];
  country?: { code: string; name: string };
}) {
  // Another market each: of the reading, only the country carries over.
  const link = (marketId: string) => readingHref({ to: "market", marketId }, country ? { country: country.code } : {});
  return (
    <TableWrap label="Markets">
      <table data-testid="markets-table">
        <caption className="sr-only">
          Every listed market
          {country ? `, and how many of its products are usable under ${country.name}'s controls` : ""}.
        </caption>
        <thead>
          <tr>
            <th scope="col">Market</th>
            <th scope="col">Description</th>
            <th scope="col" className="num">
              Products
            </th>
            {country ? (
              <th scope="col" className="num">
                Usable under {country.code}
              </th>
            ) : null}
            <th scope="col" className="num">
              Release
            </th>
            <th scope="col">Last updated</th>
          </tr>
        </thead>
        <tbody>
          {markets.map((m) => (
            <tr key={m.marketId} data-market-id={m.marketId}>
              <th scope="row">
                <Link href={link(m.marketId)}>{m.name}</Link>
              </th>
              <td data-label="Description" className="long">
                {m.description}
              </td>
              <td className="num" data-label="Products">
                {count(m.productCount)}
              </td>
              {country ? (
                <td className="num" data-label={`Usable under ${country.code}`} data-testid="market-usable">
                  {m.usable === undefined ? "—" : `${count(m.usable)} of ${count(m.productCount)}`}
                </td>
              ) : null}
              <td className="num" data-label="Release">
                {m.release}
              </td>
              <td data-label="Last updated">
                <time dateTime={m.lastUpdated}>{utcDay(m.lastUpdated)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
