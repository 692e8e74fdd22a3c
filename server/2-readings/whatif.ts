/**
 * The what-if reading: the Capability Index (and, for a country, the Max reading) of a release
 * recomputed with weights the caller chooses, beside the published ranking, with each product's
 * three axes recomputed too (and, under the controls, what it keeps of each). Pure: the release and
 * the weights in, a payload out; nothing is stored and nothing published changes.
 */
import type { Axis } from "../1-domain/market-definition";
import type { ProductUnderControls, Scores } from "../1-domain/scores";
import { rescoreWithWeights } from "../2-scoring/whatif";
import { rankBy } from "./rank";
import type { ReleaseData } from "./release";
import { UnknownCountryError } from "./release";

/** Rank → each product's rank, by productId. */
const ranksOf = (ranked: readonly { productId: string; rank: number }[]) =>
  new Map(ranked.map((p) => [p.productId, p.rank]));

/**
 * A ranked product beside its published rank: `rankChange` is positive when it moved up (a
 * smaller rank number) under the caller's weights.
 */
function moved<T extends { rank: number; productId: string; name: string; vendor: string }>(
  product: T,
  publishedRanks: ReadonlyMap<string, number>,
) {
  const publishedRank = publishedRanks.get(product.productId) as number;
  return {
    rank: product.rank,
    publishedRank,
    rankChange: publishedRank - product.rank,
    productId: product.productId,
    name: product.name,
    vendor: product.vendor,
  };
}

export function whatif(release: ReleaseData, weights: ReadonlyMap<string, number>, country: string | null) {
  // Only the country asked for is scored again (none without one): a what-if is computed per call,
  // and a market's every geography would be most of its cost.
  const rescored = rescoreWithWeights(
    release.definition,
    release.geographies.filter((g) => g.country === country),
    weights,
  );
  const publishedRanks = ranksOf(rankBy(release.products, (p) => p.scores.innovation));
  const publishedScores = new Map(release.products.map((p) => [p.productId, p.scores]));
  // Every axis with the caller's weights, beside the published one: a Control or Scale weight
  // moves no Innovation ranking, but it does move these, and a reader must see that it does.
  const capabilityIndex = rankBy(rescored.products, (p) => p.scores.innovation).map((p) => {
    const published = publishedScores.get(p.productId) as Scores;
    return {
      ...moved(p, publishedRanks),
      innovation: p.scores.innovation,
      publishedInnovation: published.innovation,
      band: p.bands.innovation,
      scores: p.scores,
      publishedScores: published,
      bands: p.bands,
    };
  });
  return {
    marketId: release.marketId,
    release: release.release,
    lastUpdated: release.lastUpdated,
    published: false as const,
    weights: release.definition.indicators.map((indicator) => ({
      indicatorId: indicator.id,
      axis: indicator.axis as Axis,
      published: indicator.weight,
      used: weights.get(indicator.id) ?? indicator.weight,
    })),
    capabilityIndex: { products: capabilityIndex },
    ...(country === null ? {} : { max: maxUnder(release, rescored.countries, country) }),
  };
}

/** The Max reading under the country's controls with the caller's weights, beside the published one. */
function maxUnder(
  release: ReleaseData,
  countries: readonly { country: string; controls: string[]; products: ProductUnderControls[] }[],
  country: string,
) {
  const published = release.countries.get(country);
  const rescored = countries.find((c) => c.country === country);
  if (!published || !rescored) throw new UnknownCountryError(country);
  const products = new Map(release.products.map((p) => [p.productId, p]));
  const named = (moved: ProductUnderControls) => {
    const product = products.get(moved.productId);
    if (!product) throw new Error(`release ${release.marketId}#${release.release}: no product ${moved.productId}`);
    return { ...moved, name: product.name, vendor: product.vendor };
  };
  const publishedRanks = ranksOf(rankBy(published.products.map(named), (p) => p.on.innovation));
  const publishedOn = new Map(published.products.map((p) => [p.productId, p]));
  const names = new Map(release.controls.map((c) => [c.id, c.name]));
  return {
    country,
    controls: rescored.controls.map((id) => ({ id, name: names.get(id) ?? id })),
    products: rankBy(rescored.products.map(named), (p) => p.on.innovation).map((p) => {
      const before = publishedOn.get(p.productId) as ProductUnderControls;
      return {
        ...moved(p, publishedRanks),
        available: p.available,
        offering: p.offering,
        retainedInnovation: p.on.innovation,
        publishedRetainedInnovation: before.on.innovation,
        // An unavailable product keeps nothing to score: null, never the engine's zeros. (Weights
        // choose among the offerings that meet the controls, never whether one does.)
        on: p.available ? p.on : null,
        publishedOn: before.available ? before.on : null,
      };
    }),
  };
}
