/**
 * The few lines a person reads of a release comparison: the biggest score moves with their causes,
 * band moves, availability moves. One wording for the MCP tool's text, in-app notifications and
 * e-mails. Pure.
 */

import { AXES, type Axis } from "../domain/market-definition";
import type { BandMove, ScoreMove } from "../domain/notification-content";
import { AXIS_LABELS, availabilityText, marketChangeLines, rankText } from "./comparison-phrases";
import type { ReleaseComparison } from "./release-comparison";

/** Every non-zero score move of the comparison, biggest first (ties by product name, then axis). */
export function scoreMoves(comparison: Pick<ReleaseComparison, "products">): ScoreMove[] {
  return comparison.products
    .flatMap((p) =>
      p.scores
        ? AXES.map((axis) => {
            const s = (p.scores as NonNullable<typeof p.scores>)[axis];
            return { productId: p.productId, product: p.name, vendor: p.vendor, axis, ...s };
          })
        : [],
    )
    .filter((move) => move.change !== 0)
    .sort(
      (a, b) =>
        Math.abs(b.change) - Math.abs(a.change) ||
        (a.product < b.product ? -1 : a.product > b.product ? 1 : 0) ||
        AXES.indexOf(a.axis) - AXES.indexOf(b.axis),
    );
}

/** The `perAxis` biggest moves of each axis, biggest first overall. */
export function moversPerAxis(moves: readonly ScoreMove[], perAxis: number): ScoreMove[] {
  const kept = new Map<Axis, number>();
  return moves.filter((move) => {
    const n = kept.get(move.axis) ?? 0;
    kept.set(move.axis, n + 1);
    return n < perAxis;
  });
}

export function bandMoves(comparison: Pick<ReleaseComparison, "products">): BandMove[] {
  return comparison.products.flatMap((p) =>
    AXES.filter((axis) => p.bands[axis].changed).map((axis) => ({
      product: p.name,
      axis,
      from: p.bands[axis].from as string,
      to: p.bands[axis].to as string,
    })),
  );
}

export const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** "Quillmere Atlas: -3.1 Innovation (62.4 → 59.3), of which -2.9 because the field moved, -0.2 from its own values" */
export function moveSentence(move: ScoreMove): string {
  const { ownValues, field, method } = move.attribution;
  const causes = [
    ownValues ? `${signed(ownValues)} from its own values` : "",
    field ? `${signed(field)} because the field moved` : "",
    method ? `${signed(method)} from the method` : "",
  ].filter(Boolean);
  return `${move.product}: ${signed(move.change)} ${AXIS_LABELS[move.axis]} (${move.from} → ${move.to})${causes.length ? `, of which ${causes.join(", ")}` : ""}`;
}

export function bandSentence(move: BandMove): string {
  return `${move.product}: ${AXIS_LABELS[move.axis]} band ${move.from} → ${move.to}`;
}

/** How many of a kind a summary lists before it says how many more there are. */
const SHOWN = 5;

function listed<T>(items: readonly T[], line: (item: T) => string, more: (n: number) => string): string[] {
  const lines = items.slice(0, SHOWN).map((item) => `- ${line(item)}.`);
  if (items.length > SHOWN) lines.push(`- ${more(items.length - SHOWN)}`);
  return lines;
}

/**
 * A release comparison in the words a model would quote, every question an agent asks of it
 * answered even when the answer is "nothing": what the market's methodology, bands, indicators and
 * weights did; which products entered and left; the biggest score moves with their causes; and
 * under the comparison's country, what moved in availability, in Max rank (among the products
 * usable there in both releases: an unavailable product has no rank to move) and in bands.
 */
export function comparisonText(comparison: ReleaseComparison): string {
  const { country, products } = comparison;
  const lines = [
    `Release ${comparison.to.release} of ${comparison.marketId} against release ${comparison.from.release}, under ${country}'s controls.`,
    ...marketChangeLines(comparison).map((line) => line.text),
  ];
  const moves = scoreMoves(comparison);
  lines.push(moves.length ? "Biggest score moves:" : "No score changed.");
  lines.push(...listed(moves, moveSentence, (n) => `and ${n} smaller moves.`));

  const availability = products.filter((p) => p.max.availability !== null && p.max.availability !== "unchanged");
  const usableInBoth = products.filter((p) => p.max.available.from === true && p.max.available.to === true);
  if (availability.length === 0)
    lines.push(
      `Availability under ${country}: nothing moved (${usableInBoth.length} of ${products.length} products usable in both releases).`,
    );
  else {
    lines.push(`Availability under ${country}:`);
    lines.push(
      ...listed(
        availability,
        (p) => `${p.name} ${availabilityText(p.max)}`,
        (n) => `and ${n} more.`,
      ),
    );
  }
  const reranked = usableInBoth.filter((p) => p.max.rank.from !== null && p.max.rank.from !== p.max.rank.to);
  if (reranked.length === 0)
    lines.push(`Max ranks under ${country}: none moved among the ${usableInBoth.length} products usable in both.`);
  else {
    lines.push(`Max ranks under ${country} (among the ${usableInBoth.length} usable in both):`);
    lines.push(
      ...listed(
        reranked,
        (p) => `${p.name} ${rankText(p.max.rank)}`,
        (n) => `and ${n} more.`,
      ),
    );
  }
  const bands = bandMoves(comparison);
  if (bands.length === 0) lines.push("Bands: no product changed band.");
  else {
    lines.push("Bands:");
    lines.push(...listed(bands, bandSentence, (n) => `and ${n} more band changes.`));
  }
  return lines.join("\n");
}
