/**
 * The pieces of a release's sensitivity analysis the readings quote (docs/methodology.md): shared by
 * the snapshot, Capability index and Max readings. Pure.
 */
import type { ControlledSensitivity, MarketSensitivity, RankOdds } from "../1-domain/sensitivity";

/** What the sensitivity analysis of a release took, said once per snapshot (docs/methodology.md). */
export function analysisOf(sensitivity: MarketSensitivity) {
  return {
    method: "monte-carlo" as const,
    draws: sensitivity.draws,
    seed: sensitivity.seed,
    concentration: sensitivity.concentration,
    evidenceSpread: sensitivity.spread,
  };
}

/** One product's entry of the analysis; a release is analysed whole, so it is always there. */
export function entryOf<T>(entries: Readonly<Record<string, T>> | undefined, productId: string, what: string): T {
  const entry = entries?.[productId];
  if (entry === undefined) throw new Error(`no ${what} sensitivity for product ${productId}`);
  return entry;
}

/** How likely each rank is; a release analysed before the odds existed is analysed again when read (store.ts). */
export function oddsOf(entries: Readonly<Record<string, RankOdds>> | undefined, productId: string): RankOdds {
  return entries?.[productId] ?? { top1: 0, top3: 0, top5: 0, tieGroup: null };
}

/** A Max entry as the reading says it: the rank's interval and that of the Innovation kept (`on`). */
export const pick = ({ rankInterval, retained }: ControlledSensitivity) => ({
  rankInterval,
  retainedInterval: retained,
});
