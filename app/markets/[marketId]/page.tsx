import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { FollowButton } from "@/components/follow-button";
import { utcDay } from "@/components/format";
import { AvailabilityHeatmap } from "@/components/market/availability-heatmap";
import { bandSlug } from "@/components/market/band";
import { ReadingsPanel } from "@/components/market/readings-panel";
import { ReleasePicker } from "@/components/market/release-picker";
import { SnapshotTable } from "@/components/market/snapshot-table";
import { type ComparisonResult, WhatChanged } from "@/components/market/what-changed";
import { dashboardCaller } from "@/server/dashboard/caller";
import { requireOrganization, safeReturnPath } from "@/server/dashboard/guards";
import { countryFrom, releaseFrom } from "@/server/dashboard/search-params";
import { ApiError } from "@/server/errors/api-error";
import { describeError } from "@/server/errors/describe";

export const metadata: Metadata = { title: "Market" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

/**
 * A release of the comparison from the URL: absent is undefined (the default), digits a number,
 * anything else NaN, which the procedure refuses in its own words.
 */
function pairFrom(value: unknown): number | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  return /^\d+$/.test(value) ? Number(value) : Number.NaN;
}

type Caller = Awaited<ReturnType<typeof dashboardCaller>>;

/** The comparison, or the problem's detail when the pair cannot be compared; other failures fail the page. */
async function compare(api: Caller, input: Parameters<Caller["readings"]["changes"]>[0]): Promise<ComparisonResult> {
  try {
    return { comparison: await api.readings.changes(input) };
  } catch (error) {
    const { code, detail } = describeError(error);
    if (code === "invalid_request" || code === "not_found") return { problem: detail };
    throw error;
  }
}

const SECTIONS = [
  ["snapshot", "Snapshot"],
  ["readings-title", "Readings"],
  ["whatif-title", "What if"],
  ["availability", "Availability"],
  ["changes", "What changed"],
  ["dimensions", "Dimensions and bands"],
  ["methodology", "Methodology"],
  ["releases", "Releases"],
] as const;

/** One market: its snapshot as a sortable table, dimensions and bands, methodology, releases. */
export default async function MarketPage({
  params,
  searchParams,
}: {
  params: Promise<{ marketId: string }>;
  searchParams: Search;
}) {
  const { marketId } = await params;
  const search = await searchParams;
  const path = `/markets/${encodeURIComponent(marketId)}`;
  // Sign-in and onboarding come back to this very reading: release, country, view and comparison included.
  const given = (keys: string[]) =>
    keys.flatMap((key) => {
      const value = search[key];
      return typeof value === "string" ? [[key, value] as [string, string]] : [];
    });
  const query = new URLSearchParams(given(["release", "country", "view", "from", "to", "whatif"])).toString();
  const here = safeReturnPath(query ? `${path}?${query}` : path) ?? "/";
  const { organization } = await requireOrganization(here);
  const api = await dashboardCaller();
  const release = releaseFrom(search.release);
  let snapshot: Awaited<ReturnType<typeof api.readings.snapshot>>;
  let changelog: Awaited<ReturnType<typeof api.markets.changelog>>;
  try {
    [snapshot, changelog] = await Promise.all([
      api.readings.snapshot({ marketId, ...(release ? { release } : {}) }),
      api.markets.changelog({ marketId }),
    ]);
  } catch (error) {
    if (error instanceof ApiError && (error.problemCode === "not_found" || error.problemCode === "invalid_request"))
      notFound();
    throw error;
  }
  const latest = changelog.releases[0]?.release ?? snapshot.release;
  const innovation = snapshot.dimensions.find((d) => d.id === "innovation");
  const country = countryFrom(search.country) ?? organization.homeCountry;
  const asked = { from: pairFrom(search.from), to: pairFrom(search.to) };
  const [comparison, { following }, availability] = await Promise.all([
    changelog.releases.length < 2 ? undefined : compare(api, { marketId, ...asked, country }),
    api.following.status({ marketId }),
    api.readings.availability({ marketId, release: snapshot.release }),
  ]);
  return (
    <main>
      <p className="hint">
        <Link href="/">Markets</Link> /
      </p>
      <h1>{snapshot.name}</h1>
      <FollowButton marketId={snapshot.marketId} initiallyFollowing={following} />
      <p data-testid="release-line">
        Release <strong>{snapshot.release}</strong>
        {snapshot.release === latest ? " (latest)" : ` (latest is ${latest})`}, updated{" "}
        <time dateTime={snapshot.lastUpdated}>{utcDay(snapshot.lastUpdated)}</time>, methodology{" "}
        {snapshot.methodologyVersion}. {snapshot.products.length} products.
      </p>
      <ReleasePicker releases={changelog.releases} current={snapshot.release} />

      <nav aria-label="On this page" className="toc">
        {SECTIONS.map(([id, label]) => (
          <a key={id} href={`#${id}`}>
            {label}
          </a>
        ))}
      </nav>

      <h2 id="snapshot">Snapshot</h2>
      <SnapshotTable products={snapshot.products} marketId={snapshot.marketId} release={snapshot.release} />

      <ReadingsPanel
        marketId={snapshot.marketId}
        release={release}
        homeCountry={organization.homeCountry}
        initialCountry={country}
        initialView={search.view === "bars" ? "bars" : "map"}
        innovationCutoffs={innovation?.bands ?? []}
        axes={snapshot.dimensions.map((d) => ({
          id: d.id,
          indicators: d.indicators.map(({ id, name, weight }) => ({ id, name, weight })),
        }))}
        initialWeights={typeof search.whatif === "string" ? search.whatif : undefined}
      />

      <AvailabilityHeatmap matrix={availability} />

      <WhatChanged
        releases={changelog.releases}
        asked={asked}
        result={comparison}
        keep={Object.fromEntries(given(["release", "country", "view"]))}
      />

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
            <Link href={`${path}?release=${r.release}`}>Release {r.release}</Link>, {utcDay(r.lastUpdated)}, methodology{" "}
            {r.methodologyVersion}
            {r.material ? <strong className="material"> — material methodology change</strong> : null}
            {r.release > 1 ? (
              <>
                {" "}
                ·{" "}
                <Link
                  href={`${path}?from=${r.release - 1}&to=${r.release}#changes`}
                  data-testid={`changelog-changes-${r.release}`}
                >
                  What changed
                </Link>
              </>
            ) : null}
            <p>{r.notes}</p>
          </li>
        ))}
      </ol>
    </main>
  );
}
