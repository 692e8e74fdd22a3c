/**
 * The readings of one release (payloads: docs/interface.md). Pure: a release in, a payload out; the
 * scoring already happened at publish time, so nothing here scores.
 */
import type { Distance, Scores } from "../domain/scores";
import type { ControlledSensitivity, MarketSensitivity, RankOdds } from "../scoring/sensitivity";
import { type Gates, hasGates, judge, passingFirst, rankPassing } from "./gates";
import { rankBy } from "./rank";
import { type ReleaseData, UnknownCountryError } from "./release";
import { overallLevels } from "./sovereignty";

/** What the sensitivity analysis of a release took, said once per snapshot (docs/methodology.md). */
function analysisOf(sensitivity: MarketSensitivity) {
  return {
    method: "monte-carlo" as const,
    draws: sensitivity.draws,
    seed: sensitivity.seed,
    concentration: sensitivity.concentration,
    evidenceSpread: sensitivity.spread,
  };
}

/** One product's entry of the analysis; a release is analysed whole, so it is always there. */
function entryOf<T>(entries: Readonly<Record<string, T>> | undefined, productId: string, what: string): T {
  const entry = entries?.[productId];
  if (entry === undefined) throw new Error(`no ${what} sensitivity for product ${productId}`);
  return entry;
}

/** How likely each rank is; a release analysed before the odds existed is analysed again when read (store.ts). */
function oddsOf(entries: Readonly<Record<string, RankOdds>> | undefined, productId: string): RankOdds {
  return entries?.[productId] ?? { top1: 0, top3: 0, top5: 0, tieGroup: null };
}

/** A Max entry as the reading says it: the rank's interval and that of the Innovation kept (`on`). */
const pick = ({ rankInterval, retained }: ControlledSensitivity) => ({ rankInterval, retainedInterval: retained });

export function snapshot(release: ReleaseData) {
  const sensitivity = release.sensitivity;
  return {
    marketId: release.marketId,
    name: release.name,
    release: release.release,
    lastUpdated: release.lastUpdated,
    methodologyVersion: release.methodologyVersion,
    methodology: release.methodology,
    dimensions: release.dimensions,
    products: release.products.map((product) => ({
      ...product,
      uncertainty: entryOf(sensitivity.products, product.productId, "score"),
    })),
    uncertainty: analysisOf(sensitivity),
  };
}

export function capaindex(release: ReleaseData) {
  const ranked = rankBy(release.products, (p) => p.scores.innovation);
  const sensitivity = release.sensitivity;
  return {
    marketId: release.marketId,
    release: release.release,
    lastUpdated: release.lastUpdated,
    products: ranked.map((p) => {
      const { interval, bandSettled } = entryOf(sensitivity.products, p.productId, "score").innovation;
      return {
        rank: p.rank,
        productId: p.productId,
        name: p.name,
        vendor: p.vendor,
        innovation: p.scores.innovation,
        band: p.bands.innovation,
        rankInterval: entryOf(sensitivity.capabilityIndex, p.productId, "rank").rankInterval,
        innovationInterval: interval,
        bandSettled,
        rankOdds: oddsOf(sensitivity.odds?.capabilityIndex, p.productId),
      };
    }),
  };
}

interface ProductMovement {
  productId: string;
  name: string;
  vendor: string;
  available: boolean;
  offering: { id: string; name: string } | null;
  missingControls: string[];
  off: Scores;
  on: Scores;
  distance: Distance;
}

/** Each product's published scores beside what it keeps under the country's controls. */
function underControls(release: ReleaseData, country: string) {
  const code = country.toUpperCase();
  const result = release.countries.get(code);
  if (!result) throw new UnknownCountryError(country);
  const names = new Map(release.controls.map((c) => [c.id, c.name]));
  const products: ProductMovement[] = result.products.map((moved, index) => {
    const published = release.products[index];
    if (!published || published.productId !== moved.productId)
      throw new Error(`release ${release.marketId}#${release.release}: results out of step with products`);
    return {
      productId: published.productId,
      name: published.name,
      vendor: published.vendor,
      available: moved.available,
      offering: moved.offering,
      missingControls: moved.missingControls,
      off: published.scores,
      on: moved.on,
      distance: moved.distance,
    };
  });
  return {
    header: {
      marketId: release.marketId,
      release: release.release,
      lastUpdated: release.lastUpdated,
      country: code,
      controls: result.controls.map((id) => ({ id, name: names.get(id) ?? id })),
    },
    products,
  };
}

/** The caller's gates judged for every product of an under-controls reading. */
function gated<T extends Pick<ProductMovement, "productId" | "available" | "offering">>(
  release: ReleaseData,
  country: string,
  products: T[],
  gates: Gates,
) {
  const levels = overallLevels(release, country);
  const satisfiesOf = new Map(
    release.definition.products.map((p) => [
      p.productId,
      new Map(p.offerings.map((o) => [o.id, new Set(o.satisfies)])),
    ]),
  );
  return products.map((p) => ({
    ...p,
    gate: judge(
      { productId: p.productId, available: p.available, offeringId: p.offering?.id ?? null },
      gates,
      country,
      levels.get(p.productId),
      satisfiesOf.get(p.productId)?.get(p.offering?.id ?? "") ?? new Set(),
    ),
  }));
}

/** What the gates asked and how many products passed; said at the top of a gated reading. */
function gatesHeader(gates: Gates, products: readonly { gate: { passed: boolean } }[]) {
  const passed = products.filter((p) => p.gate.passed).length;
  return {
    minSeal: gates.minSeal ?? null,
    requireControls: [...gates.requireControls],
    passed,
    failed: products.length - passed,
    note: "The caller's own filters, applied to the published reading: they change no offering, score or published rank, and the service recommends nothing. Products that fail are listed after those that pass, with every gate they failed; rank odds and intervals are those of the whole field.",
  };
}

/**
 * Max: ranked by the Innovation each product retains, with the overall SEAL level of the offering
 * engaged (null when unavailable: no offering to assess) and how likely each rank is. With gates,
 * the products that pass are ranked among themselves (`publishedRank` keeps the field's rank).
 */
export function servicemax(release: ReleaseData, country: string, gates: Gates = { requireControls: [] }) {
  const { header, products } = underControls(release, country);
  const ranks = release.sensitivity.max[header.country];
  const odds = release.sensitivity.odds?.max[header.country];
  const levels = overallLevels(release, header.country);
  const ranked = rankBy(products, (p) => p.on.innovation).map(({ rank, ...product }) => ({
    rank,
    ...product,
    ...pick(entryOf(ranks, product.productId, "Max rank")),
    seal: product.available ? (levels.get(product.productId) ?? null) : null,
    rankOdds: oddsOf(odds, product.productId),
  }));
  if (!hasGates(gates)) return { ...header, products: ranked };
  const judged = rankPassing(gated(release, header.country, ranked, gates), (p) => p.on.innovation);
  return { ...header, gates: gatesHeader(gates, judged), products: judged };
}

/** Delta: published vs under controls, products in the snapshot's order (by name); with gates, those that pass first. */
export function delta(release: ReleaseData, country: string, gates: Gates = { requireControls: [] }) {
  const { header, products } = underControls(release, country);
  const shaped = products.map(({ off, on, distance, ...product }) => ({
    ...product,
    published: off,
    underControls: on,
    distance,
  }));
  if (!hasGates(gates)) return { ...header, products: shaped };
  const judged = passingFirst(gated(release, header.country, shaped, gates));
  return { ...header, gates: gatesHeader(gates, judged), products: judged };
}
