/**
 * `ops catalog preview` in words: which country the comparison engages, and the comparison as
 * lines of text (the phrases of server/2-comparisons/comparison-phrases.ts, as on the dashboard).
 */

import { AXES } from "../1-domain/market-definition";
import {
  AXIS_LABELS,
  attributionText,
  availabilityText,
  bandText,
  marketChangeLines,
  rankText,
  scoreChangeText,
} from "../2-comparisons/comparison-phrases";
import type { ProductChange, ReleaseComparison } from "../2-comparisons/release-comparison";
import { CatalogStateError } from "../3-catalog/store";

/** The country a preview engages when none is asked for: US where both releases have it. */
export const PREVIEW_COUNTRY = "US";

/**
 * `requested` (upper-cased) when both releases were scored for it; without one, US when both
 * were, else the first country code both were scored for.
 */
export function previewCountry(
  requested: string | undefined,
  earlier: ReadonlyMap<string, unknown>,
  later: ReadonlyMap<string, unknown>,
): string {
  const both = [...later.keys()].filter((code) => earlier.has(code)).sort();
  if (requested !== undefined) {
    const code = requested.toUpperCase();
    if (both.includes(code)) return code;
    const where = later.has(code) ? "the latest release was not scored for it" : "it is not a live geography";
    throw new CatalogStateError(`cannot preview under "${requested}": ${where}; choose one of ${both.join(", ")}`);
  }
  const chosen = both.includes(PREVIEW_COUNTRY) ? PREVIEW_COUNTRY : both[0];
  if (!chosen) throw new CatalogStateError("the latest release and the live geographies have no country in common");
  return chosen;
}

/** Nothing to say about a product that stayed: no score, band, rank or availability moved. */
function unchanged(p: ProductChange): boolean {
  const scores = p.scores;
  if (!scores) return false;
  return (
    AXES.every(
      (axis) => scores[axis].change === 0 && attributionText(scores[axis].attribution) === "" && !p.bands[axis].changed,
    ) &&
    p.capabilityIndexRank.movedUp === 0 &&
    p.max.rank.movedUp === 0 &&
    p.max.availability === "unchanged"
  );
}

function productLines(p: ProductChange, country: string): string[] {
  const lines = [`${p.name} (${p.vendor}): ${unchanged(p) ? "no change" : p.status}`];
  if (unchanged(p)) return lines;
  const scores = p.scores;
  if (scores) {
    for (const axis of AXES) {
      const causes = attributionText(scores[axis].attribution);
      const band = bandText(p.bands[axis]);
      lines.push(
        `  ${AXIS_LABELS[axis]} ${scoreChangeText(scores[axis])}${causes ? `: ${causes}` : ""}${band ? `; band ${band}` : ""}`,
      );
    }
  } else lines.push(`  Bands: ${AXES.map((axis) => `${AXIS_LABELS[axis]} ${bandText(p.bands[axis])}`).join(", ")}`);
  lines.push(`  Capability Index rank ${rankText(p.capabilityIndexRank)}`);
  lines.push(`  Max under ${country}: rank ${rankText(p.max.rank)}; ${availabilityText(p.max)}`);
  return lines;
}

/** The whole preview as text: a header, the market-level changes, then every product. */
export function previewLines(comparison: ReleaseComparison): string[] {
  const market = marketChangeLines(comparison).map((line) => line.text);
  if (comparison.market.methodologyChanged)
    market.push("If the methodology change is material, publish with --material (this preview assumes it is not).");
  return [
    `Preview of ${comparison.marketId} release ${comparison.to.release} against release ${comparison.from.release} (country ${comparison.country})`,
    "",
    ...market,
    "",
    ...comparison.products.flatMap((p) => productLines(p, comparison.country)),
  ];
}
