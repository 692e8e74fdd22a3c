/**
 * Child process of the export benchmark: what a release export keeps alive while it is written.
 * Scores a generated market in memory, then writes its ZIP archive into a sink that takes one
 * piece per turn of the event loop (a slow client), collecting garbage every few pieces and
 * recording the live heap (heapUsed + external after a full GC): the memory the export holds, not
 * the garbage it leaves. Beside it, what an export built whole would hold — every file's text in
 * memory before it is archived — measured the same way. Prints one JSON line. Run with --expose-gc:
 *   node --expose-gc --import tsx tests/bench/export-live.ts PRODUCTS INDICATORS GEOGRAPHIES
 */
import { setImmediate as turn } from "node:timers/promises";
import { checkGeographies, checkMarket } from "@/server/1-domain/definition-checks";
import { exportFiles, releaseArchive } from "@/server/2-readings/export";
import { generatedGeographies, generatedMarket } from "../helpers/generated-catalogue";
import { scoredRelease } from "../helpers/scored-release";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const live = () => {
  gc();
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  return (heapUsed + external + arrayBuffers) / 2 ** 20;
};

const [products = 1000, indicators = 50, geographies = 60] = process.argv.slice(2).map(Number);
const file = generatedGeographies(geographies);
const market = generatedMarket(products, indicators);
checkGeographies("geographies", file);
checkMarket("market", market, file.controls);
const release = scoredRelease(market, file.geographies, file.controls, { draws: 100 });
void release.sensitivity;
const where = { origin: "https://bench.example" };

const baseline = live();
let streamedPeak = baseline;
let pieces = 0;
let bytes = 0;
const started = performance.now();
for (const piece of releaseArchive(release, where)) {
  bytes += piece.byteLength;
  pieces += 1;
  await turn(); // the client takes one piece per turn
  if (pieces % 32 === 0) streamedPeak = Math.max(streamedPeak, live());
}
const streamedMs = performance.now() - started;
streamedPeak = Math.max(streamedPeak, live());

const texts = exportFiles(release, where).map((f) => [...f.content()].join(""));
const wholeLive = live();
const textMiB = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) / 2 ** 20;
console.log(
  JSON.stringify({
    baselineMiB: baseline,
    streamedPeakMiB: streamedPeak,
    streamedMs,
    pieces,
    archiveMiB: bytes / 2 ** 20,
    wholeMiB: wholeLive,
    textMiB,
  }),
);
