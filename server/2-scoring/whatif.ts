/**
 * What if the weights were different: a market scored with weights the caller chooses. Never
 * published and never stored; the same engine scores it (scoreMarket on a copy of the market whose
 * indicators carry the new weights), so there is one implementation of scoring.
 */
import { AXES, AXIS_LABELS, type Geography, type MarketFile } from "../1-domain/market-definition";
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
    throw new RangeError(`weights refused: ${problems.map((p) => `${p.path}: ${p.message}`).join(" ")}`);
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
 * one weight above zero (an axis weighing nothing has no score to speak of). Each message is a
 * sentence that stands on its own — the dashboard shows it to a person as it is, and the API joins
 * them into its problem's detail — naming the weight and saying what would be accepted.
 */
export function checkWhatIfWeights(market: MarketFile, weights: ReadonlyMap<string, number>): WeightProblem[] {
  const problems: WeightProblem[] = [];
  const known = new Set(market.indicators.map((i) => i.id));
  for (const [id, weight] of weights) {
    const path = `weights.${id}`;
    if (!known.has(id)) problems.push({ path, message: `Market ${market.marketId} has no indicator "${id}".` });
    else if (!Number.isFinite(weight))
      problems.push({ path, message: `The weight of ${id} is not a finite number (${weight}).` });
    else if (weight < 0)
      problems.push({ path, message: `The weight of ${id} is ${weight}: a weight must be 0 or more.` });
    // Far beyond any meaningful weighting, and where sums of weights would overflow to Infinity.
    else if (weight > MAX_WEIGHT)
      problems.push({
        path,
        message: `The weight of ${id} is ${weight}: a weight must be at most ${MAX_WEIGHT.toLocaleString("en")}.`,
      });
  }
  if (problems.length > 0) return problems; // the totals below would only repeat these
  for (const axis of AXES) {
    const total = market.indicators
      .filter((i) => i.axis === axis)
      .reduce((sum, i) => sum + (weights.get(i.id) ?? i.weight), 0);
    if (total === 0)
      problems.push({
        path: "weights",
        message: `Every ${AXIS_LABELS[axis]} weight is zero: give at least one ${AXIS_LABELS[axis]} indicator a weight above 0.`,
      });
  }
  return problems;
}

// A decimal number as people write it: 2, 0.5, .5, 1e-3, -1 (the sign is checked afterwards, with a
// better message); not "", "0x10", "Infinity", which Number() would accept.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * `indicatorId:weight,indicatorId:weight` (spaces around items and parts tolerated) → the weights,
 * and every problem found, each a sentence as checkWhatIfWeights writes them: an empty text, an
 * item that is not `id:weight` (at `weights`), a weight that is missing or not a number or an id
 * given twice (at `weights.<id>`).
 */
export function parseWeightsParam(text: string): { weights: Map<string, number>; problems: WeightProblem[] } {
  const weights = new Map<string, number>();
  const problems: WeightProblem[] = [];
  const seen = new Set<string>();
  if (text.trim() === "")
    return {
      weights,
      problems: [
        { path: "weights", message: "No weights were given: write indicatorId:weight pairs, separated by commas." },
      ],
    };
  for (const raw of text.split(",")) {
    const item = raw.trim();
    const colon = item.indexOf(":");
    const id = item.slice(0, colon).trim();
    const written = item.slice(colon + 1).trim();
    if (item === "") {
      problems.push({ path: "weights", message: "One item of the list is empty: remove the extra comma." });
      continue;
    }
    if (colon < 0 || id === "") {
      problems.push({ path: "weights", message: `"${item}" is not an indicatorId:weight pair.` });
      continue;
    }
    const path = `weights.${id}`;
    if (seen.has(id))
      problems.push({ path, message: `${id} is given more than once: give each indicator one weight.` });
    else if (written === "")
      problems.push({ path, message: `The weight of ${id} is missing: write a number after the colon.` });
    else if (!DECIMAL.test(written))
      problems.push({ path, message: `The weight of ${id}, "${written}", is not a number.` });
    else weights.set(id, Number(written));
    seen.add(id);
  }
  return { weights, problems };
}
