/**
 * The few lines a person reads of a release comparison: the biggest score moves with their causes,
 * band moves, availability moves. One wording for the MCP tool's text, in-app notifications and
 * e-mails. Pure.
 */

import { AXES, type Axis } from "../domain/market-definition";
import type { BandMove, ScoreMove } from "../domain/notifications";
import type { ReleaseComparison } from "./changes";
import { AXIS_LABELS } from "./changes-text";

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
