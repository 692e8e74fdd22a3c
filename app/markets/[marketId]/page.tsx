import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { utcDay } from "@/components/format";
import { bandSlug } from "@/components/market/band";
import { ReadingsPanel } from "@/components/market/readings-panel";
import { ReleasePicker } from "@/components/market/release-picker";
import { SnapshotTable } from "@/components/market/snapshot-table";
import { dashboardCaller } from "@/server/dashboard/caller";
import { requireOrganization, safeReturnPath } from "@/server/dashboard/guards";
import { ApiError } from "@/server/errors/api-error";
import { countryParam, releaseParam } from "@/server/procedures/schemas";

export const metadata: Metadata = { title: "Market" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

/** The release the page asks for, checked as the API checks it; else the latest. */
function releaseFrom(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d+$/.test(value)) return undefined;
  const parsed = releaseParam.safeParse(Number(value));
  return parsed.success ? parsed.data : undefined;
}

/** A country code from the URL, checked as the API checks it; whether it is a geography is the reading's call. */
function countryFrom(value: unknown): string | undefined {
  const parsed = countryParam.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

const SECTIONS = [
  ["snapshot", "Snapshot"],
  ["readings-title", "Readings"],
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
  // Sign-in and onboarding come back to this very reading: release, country and view included.
  const query = new URLSearchParams(
    ["release", "country", "view"].flatMap((key) => {
      const value = search[key];
      return typeof value === "string" ? [[key, value] as [string, string]] : [];
    }),
  ).toString();
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
  const latest = changelog.releases[0]?.release;
  const innovation = snapshot.dimensions.find((d) => d.id === "innovation");
  return (
    <main>
      <p className="hint">
        <Link href="/">Markets</Link> /
      </p>
      <h1>{snapshot.name}</h1>
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
      <SnapshotTable products={snapshot.products} />

      <ReadingsPanel
        marketId={snapshot.marketId}
        release={release}
        homeCountry={organization.homeCountry}
        initialCountry={countryFrom(search.country) ?? organization.homeCountry}
        initialView={search.view === "bars" ? "bars" : "map"}
        innovationCutoffs={innovation?.bands ?? []}
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
            <p>{r.notes}</p>
          </li>
        ))}
      </ol>
    </main>
  );
}
