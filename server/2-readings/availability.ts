/**
 * The availability matrix: every product of a release under every geography's controls, in one
 * payload. Each cell is read from the same per-country results the Delta reading serves, so a
 * cell never disagrees with the Delta for its country. Pure.
 */
import type { Geography } from "../1-domain/market-definition";
import type { ReleaseData } from "./release";

export interface AvailabilityCell {
  country: string;
  available: boolean;
  /** The offering engaged under the country's controls; null when unavailable. */
  offeringId: string | null;
  /** Innovation retained under the country's controls (0 when unavailable). */
  innovationRetained: number;
  /** The Delta's distance magnitude: how far the product moves under the controls. */
  distance: number;
  /** Controls no offering satisfies (or the closest offering lacks); empty when available. */
  missingControls: string[];
}

export interface AvailabilityMatrix {
  marketId: string;
  release: number;
  lastUpdated: string;
  /** The columns, by country code; `cells` of every product follow this order. */
  countries: { country: string; name: string; controls: { id: string; name: string }[] }[];
  /** The rows, in the snapshot's order (by name). */
  products: {
    productId: string;
    name: string;
    vendor: string;
    /** Published Innovation, for reading what each cell retains against it. */
    innovation: number;
    availableIn: number;
    cells: AvailabilityCell[];
  }[];
}

export function availability(release: ReleaseData, geographies: readonly Pick<Geography, "country" | "name">[]) {
  const names = new Map(geographies.map((g) => [g.country, g.name]));
  const controlNames = new Map(release.controls.map((c) => [c.id, c.name]));
  const columns = [...release.countries.values()].sort((a, b) =>
    a.country < b.country ? -1 : a.country > b.country ? 1 : 0,
  );
  // Per country, the product's entry by id (results are in the snapshot's order; the index is a guard).
  const byCountry = columns.map((result) => new Map(result.products.map((p) => [p.productId, p])));
  const matrix: AvailabilityMatrix = {
    marketId: release.marketId,
    release: release.release,
    lastUpdated: release.lastUpdated,
    countries: columns.map((result) => ({
      country: result.country,
      name: names.get(result.country) ?? result.country,
      controls: result.controls.map((id) => ({ id, name: controlNames.get(id) ?? id })),
    })),
    products: release.products.map((product) => {
      const cells = columns.map((result, c): AvailabilityCell => {
        const entry = byCountry[c]?.get(product.productId);
        if (!entry)
          throw new Error(`release ${release.release} has no result for ${product.productId} in ${result.country}`);
        return {
          country: result.country,
          available: entry.available,
          offeringId: entry.offering?.id ?? null,
          innovationRetained: entry.on.innovation,
          distance: entry.distance.magnitude,
          missingControls: entry.missingControls,
        };
      });
      return {
        productId: product.productId,
        name: product.name,
        vendor: product.vendor,
        innovation: product.scores.innovation,
        availableIn: cells.filter((cell) => cell.available).length,
        cells,
      };
    }),
  };
  return matrix;
}
