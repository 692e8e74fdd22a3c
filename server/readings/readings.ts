/**
 * The readings of one release (payloads: docs/interface.md). Pure: a release in, a payload out; the
 * scoring already happened at publish time, so nothing here scores.
 */
import type { Distance, Scores } from "../domain/scores";
import { rankBy } from "./rank";
import { type ReleaseData, UnknownCountryError } from "./release";

export function snapshot(release: ReleaseData) {
  return {
    marketId: release.marketId,
    name: release.name,
    release: release.release,
    lastUpdated: release.lastUpdated,
    methodologyVersion: release.methodologyVersion,
    methodology: release.methodology,
    dimensions: release.dimensions,
    products: release.products,
  };
}

export function capabilityIndex(release: ReleaseData) {
  const ranked = rankBy(release.products, (p) => p.scores.innovation);
  return {
    marketId: release.marketId,
    release: release.release,
    lastUpdated: release.lastUpdated,
    products: ranked.map((p) => ({
      rank: p.rank,
      productId: p.productId,
      name: p.name,
      vendor: p.vendor,
      innovation: p.scores.innovation,
      band: p.bands.innovation,
    })),
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
export function maxReading(release: ReleaseData, country: string) {
  const { header, products } = underControls(release, country);
  return {
    ...header,
    products: rankBy(products, (p) => p.on.innovation).map(({ rank, ...product }) => ({ rank, ...product })),
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
