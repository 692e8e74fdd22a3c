/** The Delta reading of one release under a country's controls (payload: docs/interface.md). Pure. */
import { type Gates, hasGates, passingFirst } from "./gates";
import type { ReleaseData } from "./release";
import { gated, gatesHeader, underControls } from "./under-controls";

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
