import type { Metadata } from "next";
import { utcDay } from "@/components/format";
import { bandSlug } from "@/components/market/band";
import { MarketFrame } from "@/components/market/market-frame";
import { ReadingLink } from "@/components/reading-link";
import { loadMarketView, type MarketViewPageProps } from "@/server/8-dashboard/market-page";

export const metadata: Metadata = { title: "Methodology and releases" };
export const dynamic = "force-dynamic";

/** How the market is scored: its dimensions and bands, the methodology verbatim, every release. */
export default async function MarketMethodology({ params, searchParams }: MarketViewPageProps) {
  const { marketId } = await params;
  const market = await loadMarketView(marketId, "methodology", await searchParams);
  const { snapshot, changelog } = market;
  return (
    <MarketFrame market={market} view="methodology">
      <h2 id="dimensions">Dimensions and bands</h2>
      <div className="cards">
        {snapshot.dimensions.map((dimension) => (
          <section key={dimension.id} className="card" aria-labelledby={`dimension-${dimension.id}`}>
            <h3 id={`dimension-${dimension.id}`}>{dimension.name}</h3>
            <p className="hint">{dimension.description}</p>
            <table data-testid={`bands-${dimension.id}`}>
              <thead>
                <tr>
                  <th scope="col">Band</th>
                  <th scope="col" className="num">
                    From
                  </th>
                  <th scope="col" className="num">
                    To
                  </th>
                </tr>
              </thead>
              <tbody>
                {dimension.bands.map((band) => (
                  <tr key={band.name}>
                    <td>
                      <span className={`badge band-${bandSlug(band.name)}`}>{band.name}</span>
                    </td>
                    <td className="num">{band.from}</td>
                    <td className="num">{band.to}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      </div>

      <h2 id="methodology">Methodology</h2>
      <blockquote className="methodology" data-testid="methodology">
        {snapshot.methodology
          .trimEnd()
          .split(/\n\s*\n/)
          .map((paragraph) => (
            <p key={paragraph.slice(0, 48)}>{paragraph}</p>
          ))}
      </blockquote>

      <h2 id="releases">Releases</h2>
      <ol className="changelog" data-testid="changelog">
        {changelog.releases.map((r) => (
          <li key={r.release}>
            <ReadingLink destination={{ to: "market", marketId }} over={{ release: String(r.release) }}>
              Release {r.release}
            </ReadingLink>
            , {utcDay(r.lastUpdated)}, methodology {r.methodologyVersion}
            {r.material ? <strong className="material"> — material methodology change</strong> : null}
            {r.release > 1 ? (
              <>
                {" "}
                ·{" "}
                <ReadingLink
                  destination={{ to: "market", marketId, view: "changes" }}
                  query={{ from: r.release - 1, to: r.release }}
                  hash="changes"
                  data-testid={`changelog-changes-${r.release}`}
                >
                  What changed
                </ReadingLink>
              </>
            ) : null}
            <p>{r.notes}</p>
          </li>
        ))}
      </ol>
    </MarketFrame>
  );
}
