/**
 * The caller's gates on a reading under a country (docs/sovereignty.md): a minimum overall SEAL
 * level and controls the engaged offering must satisfy. They are the caller's filters, applied to
 * the reading as published — they never change an offering, a score or a published rank, and the
 * service recommends nothing. Every product stays in the answer: those that pass first, ranked as
 * the reading ranks them among themselves; those that fail after them, each naming every gate it
 * failed, unranked (their rank is one past the last passing product's, as an unavailable product's
 * is). Pure.
 */
import type { SealLevel, SovObjective } from "../1-domain/sovereignty";
import { rankBy } from "./rank";

export interface Gates {
  /** The overall SEAL level a product must reach under the country; undefined: no such gate. */
  minSeal?: SealLevel;
  /** Controls the engaged offering must satisfy besides the country's; empty: no such gate. */
  requireControls: readonly string[];
}

export const hasGates = (gates: Gates) => gates.minSeal !== undefined || gates.requireControls.length > 0;

export type GateFailure =
  | { gate: "available"; detail: string }
  | { gate: "minSeal"; required: SealLevel; actual: SealLevel | null; weakest: SovObjective[] }
  | { gate: "requireControls"; missing: string[] };

export interface GateVerdict {
  passed: boolean;
  failed: GateFailure[];
}

export interface Gated {
  productId: string;
  available: boolean;
  /** The engaged offering's id, null when unavailable. */
  offeringId: string | null;
}

/** Whether one product passes the gates, and which it failed. */
export function judge(
  product: Gated,
  gates: Gates,
  country: string,
  overall: { level: SealLevel | null; weakest: SovObjective[] } | undefined,
  satisfies: ReadonlySet<string>,
): GateVerdict {
  const failed: GateFailure[] = [];
  if (!product.available)
    failed.push({ gate: "available", detail: `unavailable under ${country}'s controls: no offering to assess` });
  else {
    if (gates.minSeal !== undefined && (overall?.level ?? -1) < gates.minSeal)
      failed.push({
        gate: "minSeal",
        required: gates.minSeal,
        actual: overall?.level ?? null,
        weakest: overall?.weakest ?? [],
      });
    const missing = gates.requireControls.filter((id) => !satisfies.has(id));
    if (missing.length > 0) failed.push({ gate: "requireControls", missing });
  }
  return { passed: failed.length === 0, failed };
}

/** Passing products first, in the given order, then the failing ones, in the given order. */
export function passingFirst<T extends { gate: GateVerdict }>(products: readonly T[]): T[] {
  return [...products.filter((p) => p.gate.passed), ...products.filter((p) => !p.gate.passed)];
}

/**
 * A ranked reading's products gated: the passing ranked among themselves by `score` (competition
 * ranking, ties by name), the failing after them at one past the last rank. `publishedRank` keeps
 * each product's rank in the whole field.
 */
export function rankPassing<T extends { name: string; productId: string; rank: number; gate: GateVerdict }>(
  products: readonly T[],
  score: (product: T) => number,
): (T & { publishedRank: number })[] {
  const published = new Map(products.map((p) => [p.productId, p.rank]));
  const passing = rankBy(
    products.filter((p) => p.gate.passed),
    score,
  );
  const after = passing.length + 1;
  return [
    ...passing.map((p) => ({ ...p, publishedRank: published.get(p.productId) ?? p.rank })),
    ...products.filter((p) => !p.gate.passed).map((p) => ({ ...p, publishedRank: p.rank, rank: after })),
  ];
}
