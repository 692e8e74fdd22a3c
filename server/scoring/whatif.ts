/**
 * What if the weights were different: a market scored with weights the caller chooses. Never
 * published and never stored; the same engine scores it (scoreMarket on a copy of the market whose
 * indicators carry the new weights), so there is one implementation of scoring.
 */
import { AXES, AXIS_LABELS, type Geography, type MarketFile } from "../domain/market-definition";
import { type ScoredMarket, scoreMarket } from "./engine";

/** One thing wrong with the weights asked for, at `weights.<indicatorId>` or `weights` as a whole. */
export interface WeightProblem {
  path: string;
  message: string;
}

/**
 * The published scoring with the named indicators' weights replaced (the others keep theirs).
 * Refuses weights checkWhatIfWeights refuses (throws a RangeError), so a caller that skipped the
 * check gets an error rather than scores of a meaningless weighting.
 */
export function rescoreWithWeights(
  market: MarketFile,
  geographies: readonly Geography[],
  weights: ReadonlyMap<string, number>,
): ScoredMarket {
  const problems = checkWhatIfWeights(market, weights);
  if (problems.length > 0)
    throw new RangeError(`weights refused: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`);
  // A plain copy, not through the market schema: the schema wants every weight > 0, and a what-if
  // may zero an indicator out (the engine sums the weights, so a zero weight simply drops it).
  const reweighted: MarketFile = {
    ...market,
    indicators: market.indicators.map((indicator) => {
      const weight = weights.get(indicator.id);
      return weight === undefined ? indicator : { ...indicator, weight };
    }),
  };
  return scoreMarket(reweighted, geographies);
}

/** The largest what-if weight: weights are relative within an axis, so a million to one is plenty. */
export const MAX_WEIGHT = 1_000_000;

/**
 * The problems of a set of what-if weights against a market: each named weight must be a known
 * indicator and a finite number from 0 to MAX_WEIGHT; and once merged with the published weights every axis needs
 * one weight above zero (an axis weighing nothing has no score to speak of).
 */
export function checkWhatIfWeights(market: MarketFile, weights: ReadonlyMap<string, number>): WeightProblem[] {
  const problems: WeightProblem[] = [];
  const known = new Set(market.indicators.map((i) => i.id));
  for (const [id, weight] of weights) {
    const path = `weights.${id}`;
    if (!known.has(id)) problems.push({ path, message: `"${id}" is not an indicator of market "${market.marketId}"` });
    else if (!Number.isFinite(weight)) problems.push({ path, message: `must be a finite number, not ${weight}` });
    else if (weight < 0) problems.push({ path, message: `must be ≥ 0, not ${weight}` });
    // Far beyond any meaningful weighting, and where sums of weights would overflow to Infinity.
    else if (weight > MAX_WEIGHT) problems.push({ path, message: `must be at most ${MAX_WEIGHT}, not ${weight}` });
  }
  if (problems.length > 0) return problems; // the totals below would only repeat these
  for (const axis of AXES) {
    const total = market.indicators
      .filter((i) => i.axis === axis)
      .reduce((sum, i) => sum + (weights.get(i.id) ?? i.weight), 0);
    if (total === 0)
      problems.push({
        path: "weights",
        message: `every ${AXIS_LABELS[axis]} weight is zero: give at least one ${AXIS_LABELS[axis]} indicator a weight above zero`,
      });
  }
  return problems;
}

// A decimal number as people write it: 2, 0.5, .5, 1e-3, -1 (the sign is checked afterwards, with a
// better message); not "", "0x10", "Infinity", which Number() would accept.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * `indicatorId:weight,indicatorId:weight` (spaces around items and parts tolerated) → the weights,
 * and every problem found: an empty text, an item that is not `id:weight` (at `weights`), a weight
 * that is not a number or an id given twice (at `weights.<id>`).
 */
export function parseWeightsParam(text: string): { weights: Map<string, number>; problems: WeightProblem[] } {
  const weights = new Map<string, number>();
  const problems: WeightProblem[] = [];
  const seen = new Set<string>();
  if (text.trim() === "")
    return {
      weights,
      problems: [{ path: "weights", message: "is empty: give indicatorId:weight pairs, comma-separated" }],
    };
  for (const raw of text.split(",")) {
    const item = raw.trim();
    const colon = item.indexOf(":");
    const id = item.slice(0, colon).trim();
    const written = item.slice(colon + 1).trim();
    if (colon < 0 || id === "") {
      problems.push({ path: "weights", message: `"${item}" is not indicatorId:weight` });
      continue;
    }
    const path = `weights.${id}`;
    if (seen.has(id)) problems.push({ path, message: "is given more than once" });
    else if (!DECIMAL.test(written)) problems.push({ path, message: `"${written}" is not a number` });
    else weights.set(id, Number(written));
    seen.add(id);
  }
  return { weights, problems };
}
