/**
 * "How sure is a rank" at size: the Monte Carlo sensitivity analysis of a generated market of 1,000
 * products × 50 indicators under 60 geographies (the scoring benchmark's market), 2,000 draws, beside
 * scoreMarket of the same market in the same process as a baseline. Target: < 2,000 ms.
 */

import { scoreMarket } from "@/server/2-scoring/engine";
import { analyseSensitivity } from "@/server/2-scoring/sensitivity";
import { generatedGeographies, generatedMarket } from "../helpers/generated-catalogue";

export interface SensitivityFigures {
  analyseMs: number;
  scoreMs: number;
  draws: number;
  countries: number;
}

const TARGET_MS = 2000;

export function sensitivityBench(products = 1000, indicators = 50, geographies = 60, draws = 2000): SensitivityFigures {
  const market = generatedMarket(products, indicators);
  const countries = generatedGeographies(geographies).geographies;
  const timed = <T>(work: () => T) => {
    const started = performance.now();
    const result = work();
    return { ms: performance.now() - started, result };
  };
  const score = timed(() => scoreMarket(market, countries));
  const analysis = timed(() => analyseSensitivity(market, countries, { seed: `${market.marketId}#bench`, draws }));
  const figures = {
    analyseMs: analysis.ms,
    scoreMs: score.ms,
    draws: analysis.result.draws,
    countries: Object.keys(analysis.result.max).length,
  };
  console.log(
    `\nSensitivity: ${products.toLocaleString("en")} products × ${indicators} indicators under ${geographies} geographies, ${draws.toLocaleString("en")} draws`,
  );
  console.log(
    `  analyseSensitivity: ${figures.analyseMs.toFixed(0)} ms (< ${TARGET_MS.toLocaleString("en")} ms: ${figures.analyseMs < TARGET_MS ? "met" : "MISSED"}); Max intervals for ${figures.countries} countries`,
  );
  console.log(`  scoreMarket of the same market, same process (baseline): ${figures.scoreMs.toFixed(0)} ms`);
  return figures;
}
