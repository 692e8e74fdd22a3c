/**
 * Child process of the scoring benchmark: checks and scores a generated market in a fresh process,
 * so its peak memory is this work's alone. Prints one JSON line: time and memory.
 *   tsx tests/bench/score-generated.ts PRODUCTS INDICATORS GEOGRAPHIES
 */
import { checkGeographies, checkMarket } from "@/server/1-domain/definition-checks";
import { scoreMarket } from "@/server/2-scoring/engine";
import { generatedGeographies, generatedMarket } from "../helpers/generated-catalogue";

const [products = 1000, indicators = 50, geographies = 60] = process.argv.slice(2).map(Number);
const before = process.resourceUsage().maxRSS;
const geographiesFile = generatedGeographies(geographies);
const market = generatedMarket(products, indicators);
const started = performance.now();
checkGeographies("geographies", geographiesFile);
checkMarket("market", market, geographiesFile.controls);
const scored = scoreMarket(market, geographiesFile.geographies);
const ms = performance.now() - started;
// The payload a release stores: serialising it is part of publishing.
const bytes = Buffer.byteLength(JSON.stringify(scored));
console.log(
  JSON.stringify({
    ms,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    baselineRssMiB: before / 1024,
    countries: scored.countries.length,
    controlSets: new Set(scored.countries.map((c) => c.controls.join(","))).size,
    payloadMiB: bytes / 2 ** 20,
  }),
);
