import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { utcDay } from "@/components/format";
import { bandSlug } from "@/components/market/band";
import { ReleasePicker } from "@/components/market/release-picker";
import { ContributionFigure } from "@/components/product/contribution-figure";
import { CountryPicker } from "@/components/product/country-picker";
import { OfferingsTable } from "@/components/product/offerings-table";
import { AXES, AXIS_LABELS, type ProductBreakdown } from "@/components/product/types";
import { AxisChanges, UnderControlsSummary } from "@/components/product/under-controls";
import { dashboardCaller } from "@/server/dashboard/caller";
import { requireOrganization, safeReturnPath } from "@/server/dashboard/guards";
import { countryFrom, releaseFrom } from "@/server/dashboard/search-params";
import { describeError } from "@/server/errors/describe";

export const metadata: Metadata = { title: "Product" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;
type Caller = Awaited<ReturnType<typeof dashboardCaller>>;

/**
 * The breakdown, under the country when one is asked for. A country the release was not scored
 * for is said in the API's words above the published breakdown; other failures fail the page.
 */
async function breakdown(
  api: Caller,
  input: { marketId: string; productId: string; release?: number },
  country: string | undefined,
): Promise<{ product: ProductBreakdown; countryProblem?: string }> {
  if (country === undefined) return { product: await api.readings.product(input) };
  try {
    return { product: await api.readings.product({ ...input, country }) };
  } catch (error) {
    const { code, detail } = describeError(error);
    if (code !== "invalid_request") throw error;
    return { product: await api.readings.product(input), countryProblem: detail };
  }
}

/** One product taken apart: its scores, each axis's contributions with their evidence, its offerings, a country's controls. */
export default async function ProductPage({
  params,
  searchParams,
}: {
  params: Promise<{ marketId: string; productId: string }>;
  searchParams: Search;
}) {
  const { marketId, productId } = await params;
  const search = await searchParams;
  const path = `/markets/${encodeURIComponent(marketId)}/products/${encodeURIComponent(productId)}`;
  const given = Object.fromEntries(
    ["release", "country"].flatMap((key) => {
      const value = search[key];
      return typeof value === "string" && value !== "" ? [[key, value]] : [];
    }),
  );
  const query = new URLSearchParams(given).toString();
  await requireOrganization(safeReturnPath(query ? `${path}?${query}` : path) ?? "/");
  const api = await dashboardCaller();
  const release = releaseFrom(search.release);
  const country = countryFrom(search.country);
  const input = { marketId, productId, ...(release ? { release } : {}) };

  let loaded: Awaited<ReturnType<typeof breakdown>>;
  let market: Awaited<ReturnType<Caller["markets"]["get"]>>;
  let changelog: Awaited<ReturnType<Caller["markets"]["changelog"]>>;
  let geographies: Awaited<ReturnType<Caller["geographies"]["list"]>>["geographies"];
  try {
    [loaded, market, changelog, { geographies }] = await Promise.all([
      breakdown(api, input, country),
      api.markets.get({ marketId }),
      api.markets.changelog({ marketId }),
      api.geographies.list({}),
    ]);
  } catch (error) {
    const { code } = describeError(error);
    if (code === "not_found" || code === "invalid_request") notFound();
    throw error;
  }
  const { product, countryProblem } = loaded;
  const latest = changelog.releases[0]?.release ?? product.release;
  const marketPath = `/markets/${encodeURIComponent(marketId)}${release ? `?release=${release}` : ""}`;
  const controlNames = new Map(geographies.flatMap((g) => g.controls.map((c) => [c.id, c.name] as const)));
  const under = product.underControls;
  const countryName = (code: string) => geographies.find((g) => g.country === code)?.name ?? code;
  const sections = [
    ["scores", "Scores"],
    ...(under ? [["under-controls", `Under ${under.country}`]] : []),
    ...AXES.map((axis) => [`axis-${axis}`, AXIS_LABELS[axis]]),
    ["offerings", "Offerings"],
  ];

  return (
    <main>
      <p className="hint">
        <Link href="/">Markets</Link> / <Link href={marketPath}>{market.name}</Link> /
      </p>
      <h1 data-testid="product-name">{product.name}</h1>
      <p data-testid="product-vendor">
        by <strong>{product.vendor}</strong>
      </p>
      <p data-testid="release-line">
        Release <strong>{product.release}</strong>
        {product.release === latest ? " (latest)" : ` (latest is ${latest})`}, updated{" "}
        <time dateTime={product.lastUpdated}>{utcDay(product.lastUpdated)}</time>, methodology{" "}
        {product.methodologyVersion}.
      </p>
      <ReleasePicker releases={changelog.releases} current={product.release} />
      <CountryPicker countries={geographies} current={under?.country ?? country} release={release} />
      {countryProblem ? (
        <div className="notice error-notice" role="alert" data-testid="country-problem">
          <p>
            <strong>Could not engage that country's controls.</strong> {countryProblem}
          </p>
        </div>
      ) : null}

      <nav aria-label="On this page" className="toc">
        {sections.map(([id, label]) => (
          <a key={id} href={`#${id}`}>
            {label}
          </a>
        ))}
      </nav>

      <h2 id="scores">Scores</h2>
      <div className="cards">
        {AXES.map((axis) => (
          <section key={axis} className="card" aria-labelledby={`score-${axis}-name`} data-testid={`score-${axis}`}>
            <h3 id={`score-${axis}-name`}>{AXIS_LABELS[axis]}</h3>
            <span className="figure" data-testid={`score-${axis}-value`}>
              {product.scores[axis].toFixed(1)}
            </span>
            <span>
              <span className={`badge band-${bandSlug(product.bands[axis])}`}>{product.bands[axis]}</span>
            </span>
          </section>
        ))}
      </div>
      <p className="hint" data-testid="product-gaps">
        {product.gaps.length
          ? `Not demonstrated (scored 0): ${product.axes.innovation.indicators
              .concat(product.axes.control.indicators, product.axes.scale.indicators)
              .filter((i) => i.gap)
              .map((i) => i.name)
              .join(", ")}.`
          : "Every indicator is demonstrated."}
      </p>

      {under ? (
        <section aria-labelledby="under-controls">
          <h2 id="under-controls">Under {countryName(under.country)}'s controls</h2>
          <UnderControlsSummary
            product={product}
            under={under}
            countryName={countryName(under.country)}
            controlNames={controlNames}
          />
        </section>
      ) : null}

      {AXES.map((axis) => (
        <section key={axis} aria-labelledby={`axis-${axis}`} data-testid={`axis-${axis}`}>
          <h2 id={`axis-${axis}`}>
            {AXIS_LABELS[axis]}: {product.axes[axis].score.toFixed(1)}{" "}
            <span className={`badge band-${bandSlug(product.axes[axis].band)}`}>{product.axes[axis].band}</span>
          </h2>
          <ContributionFigure
            axis={axis}
            breakdown={product.axes[axis]}
            marketId={product.marketId}
            release={product.release}
            productId={product.productId}
          />
          {under ? <AxisChanges axis={axis} published={product.axes[axis]} under={under} /> : null}
        </section>
      ))}

      <h2 id="offerings">Offerings</h2>
      <p className="hint">
        The default offering is what the scores above are computed from. Under a country's controls, of the offerings
        that satisfy every control engaged, the one with the highest Innovation is engaged; it keeps the default's
        values where it writes none of its own.
      </p>
      <OfferingsTable product={product} controlNames={controlNames} />
    </main>
  );
}
