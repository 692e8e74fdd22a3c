/**
 * What the Max and Delta readings share: each product's published scores beside what it keeps under
 * a country's controls, and the caller's gates judged for each. Pure: a release in, rows out.
 */
import type { Distance, Scores } from "../1-domain/scores";
import { type Gates, judge } from "./gates";
import { type ReleaseData, UnknownCountryError } from "./release";
import { overallLevels } from "./sovereignty";

export interface ProductMovement {
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
export function underControls(release: ReleaseData, country: string) {
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
export function gated<T extends Pick<ProductMovement, "productId" | "available" | "offering">>(
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
export function gatesHeader(gates: Gates, products: readonly { gate: { passed: boolean } }[]) {
  const passed = products.filter((p) => p.gate.passed).length;
  return {
    minSeal: gates.minSeal ?? null,
    requireControls: [...gates.requireControls],
    passed,
    failed: products.length - passed,
    note: "The caller's own filters, applied to the published reading: they change no offering, score or published rank, and the service recommends nothing. Products that fail are listed after those that pass, with every gate they failed; rank odds and intervals are those of the whole field.",
  };
}
