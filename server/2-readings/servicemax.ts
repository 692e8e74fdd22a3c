/** The Max reading of one release under a country's controls (payload: docs/interface.md). Pure. */
import { type Gates, hasGates, rankPassing } from "./gates";
import { rankBy } from "./rank";
import type { ReleaseData } from "./release";
import { entryOf, oddsOf, pick } from "./sensitivity-entries";
import { overallLevels } from "./sovereignty";
import { gated, gatesHeader, underControls } from "./under-controls";

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
