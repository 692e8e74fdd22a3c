import { Landing } from "@/components/landing";
import { MarketsTable } from "@/components/market/markets-table";
import { dashboardCaller } from "@/server/8-dashboard/caller";
import { currentUser } from "@/server/8-dashboard/guards";
import { sampleReading } from "@/server/8-dashboard/sample-reading";

export const dynamic = "force-dynamic";

/**
 * The home page. A visitor sees what the service is, a real reading without signing in and the way
 * in; a signed-in person goes straight to the markets. Each market name opens its page.
 */
export default async function HomePage() {
  const [{ markets }, user] = await Promise.all([(await dashboardCaller()).markets.browse(), currentUser()]);
  const sample = user ? null : await sampleReading();
  return (
    <main>
      {user ? null : <Landing sample={sample} />}
      {user ? <h1 id="markets">Markets</h1> : <h2 id="markets">Markets</h2>}
      <p>
        Each product of a technology market is scored 0–100 on Innovation, Control and Scale against its field, and
        again under a country&apos;s sovereign controls: what it keeps, and what it loses.
        {user ? null : " Sign in to open a market's readings under any country."}
      </p>
      <p className="demo-note">The catalogue shipped with the service is demo data: every vendor in it is fictional.</p>
      {markets.length === 0 ? (
        <p className="notice" data-testid="no-markets">
          No market is published yet. An operator publishes one with <code>npm run ops -- catalog publish FILE</code>.
        </p>
      ) : (
        <MarketsTable markets={markets} />
      )}
    </main>
  );
}
