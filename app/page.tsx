import { getDatabase } from "@/db";
import { listMarkets } from "@/server/catalog/store";

export const dynamic = "force-dynamic";

/** Stand-in home page until the dashboard: the listed markets of the catalogue. */
export default async function HomePage() {
  const { db } = await getDatabase();
  const markets = await listMarkets(db, { listedOnly: true });
  return (
    <main>
      <h1>Market Positioning Service</h1>
      <p>
        Each product of a technology market is scored 0–100 on Innovation, Control and Scale against its field, and
        again under a country&apos;s sovereign controls.
      </p>
      <p className="demo-note">The catalogue shipped with the service is demo data: every vendor in it is fictional.</p>
      <table>
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
              <td>{m.name}</td>
              <td>{m.description}</td>
              <td className="num">{m.productCount}</td>
              <td className="num">{m.release}</td>
              <td>{m.lastUpdated?.toISOString().slice(0, 10)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
