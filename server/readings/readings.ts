/**
 * The readings of one release (payloads: docs/interface.md). Pure: a release in, a payload out; the
 * scoring already happened at publish time, so nothing here scores.
 */
import type { Distance, Scores } from "../domain/scores";
import type { ControlledSensitivity, MarketSensitivity } from "../scoring/sensitivity";
import { rankBy } from "./rank";
import { type ReleaseData, UnknownCountryError } from "./release";

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

/** Max: ranked by the Innovation each product retains with every control engaged. */
export function servicemax(release: ReleaseData, country: string) {
  const { header, products } = underControls(release, country);
  const ranks = release.sensitivity.max[header.country];
  return {
    ...header,
    products: rankBy(products, (p) => p.on.innovation).map(({ rank, ...product }) => ({
      rank,
      ...product,
      ...pick(entryOf(ranks, product.productId, "Max rank")),
    })),
  };
}

/** Delta: published vs under controls, products in the snapshot's order (by name). */
export function delta(release: ReleaseData, country: string) {
  const { header, products } = underControls(release, country);
  return {
    ...header,
    products: products.map(({ off, on, distance, ...product }) => ({
      ...product,
      published: off,
      underControls: on,
      distance,
    })),
  };
}
