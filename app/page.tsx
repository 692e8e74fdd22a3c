import Link from "next/link";
import { utcDay } from "@/components/format";
import { dashboardCaller } from "@/server/dashboard/caller";

export const dynamic = "force-dynamic";

/** The markets of the catalogue; each name opens its page (snapshot, readings, methodology). */
export default async function HomePage() {
  const { markets } = await (await dashboardCaller()).markets.browse();
  return (
    <main>
      <h1>Markets</h1>
      <p>
        Each product of a technology market is scored 0–100 on Innovation, Control and Scale against its field, and
        again under a country&apos;s sovereign controls: what it keeps, and what it loses.
      </p>
      <p className="demo-note">The catalogue shipped with the service is demo data: every vendor in it is fictional.</p>
      {markets.length === 0 ? (
        <p className="notice" data-testid="no-markets">
          No market is published yet. An operator publishes one with <code>npm run ops -- catalog publish FILE</code>.
        </p>
      ) : (
        <div className="table-wrap">
          <table data-testid="markets-table">
            <thead>
              <tr>
                <th scope="col">Market</th>
                <th scope="col">Description</th>
                <th scope="col" className="num">
                  Products
                </th>
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
                    <Link href={`/markets/${m.marketId}`}>{m.name}</Link>
                  </th>
                  <td data-label="Description" className="long">
                    {m.description}
                  </td>
                  <td className="num" data-label="Products">
                    {m.productCount}
                  </td>
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
        </div>
      )}
    </main>
  );
}
