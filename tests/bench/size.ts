/**
 * `BENCH_ONLY=size npm run bench`: the pure work behind a large market's public and paid surfaces,
 * at 10, 1,000 and 10,000 products (the 10-product figures are the baseline of the same run): an
 * embed's chart, SVG and page (bounded by design: the same at any size), and the readings computed
 * on the worker pool for a large market (what a worker thread spends; the event loop spends none of it).
 */
import { performance } from "node:perf_hooks";
import type { ReleaseData } from "@/server/2-readings/release";
import { availability } from "@/server/7-procedures/operations/availability";
import { changes } from "@/server/7-procedures/operations/changes";
import { delta } from "@/server/7-procedures/operations/delta";
import { servicemax } from "@/server/7-procedures/operations/servicemax";
import { whatif } from "@/server/7-procedures/operations/whatif";
import { embedChart, embedSvg } from "@/server/8-embeds/chart";
import { embedPage } from "@/server/8-embeds/page";
import { generatedEmbedFacts, generatedGeographies, generatedMarket } from "../helpers/generated-catalogue";
import { scoredRelease } from "../helpers/scored-release";

const SIZES = [10, 1_000, 10_000];

function best(run: () => unknown, times = 3): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const began = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - began);
  }
  return fastest;
}

// biome-ignore lint/suspicious/noExplicitAny: the declarations' own inputs, parsed by their schemas
type Any = any;

function computeOf(declaration: Any, scope: Record<string, unknown>, raw: Record<string, unknown>) {
  const cache = new Map<string, unknown>();
  const cached = (key: string, f: (r: ReleaseData) => unknown) => {
    if (!cache.has(key)) cache.set(key, f(scope.release as ReleaseData));
    return cache.get(key);
  };
  const input = declaration.input.parse(raw);
  return () => declaration.compute({ ...scope, cached, origin: "https://example.org" }, input);
}

export function sizeBench(): void {
  const geographies = generatedGeographies(30);
  const country = geographies.geographies.find((g) => g.controls.length > 2)?.country as string;
  const facts = generatedEmbedFacts(country);

  console.log(
    "\nSize: pure work per surface at 10 / 1,000 / 10,000 products (ms, best of 3; 10 products is the baseline)",
  );
  const rows: Record<string, string[]> = {};
  const add = (name: string, ms: number) => {
    rows[name] ??= [];
    rows[name].push(ms.toFixed(1));
  };
  for (const products of SIZES) {
    const first = scoredRelease(
      generatedMarket(products, 30, { seed: 11 }),
      geographies.geographies,
      geographies.controls,
      { draws: 20 },
    );
    const second = scoredRelease(
      generatedMarket(products, 30, { seed: 12 }),
      geographies.geographies,
      geographies.controls,
      { draws: 20, release: 2 },
    );
    const scope = { release: second, country };
    const payload = computeOf(delta, scope, { marketId: second.marketId, country })();
    add(
      "embed: chart, SVG and page (Delta bars)",
      best(() => {
        const chart = embedChart({ reading: "delta", payload }, "bars", "light", facts);
        embedPage(chart, { page: "p", svg: "s", oembed: "o" }, [
          embedChart({ reading: "delta", payload }, "map", "light", facts),
        ]);
        embedSvg(chart);
      }),
    );
    add("reading: Delta", best(computeOf(delta, scope, { marketId: second.marketId, country })));
    add("reading: Max", best(computeOf(servicemax, scope, { marketId: second.marketId, country })));
    add(
      "reading: availability",
      best(computeOf(availability, { ...scope, country: null }, { marketId: second.marketId })),
    );
    add(
      "reading: what-if (worker)",
      best(computeOf(whatif, scope, { marketId: second.marketId, weights: "indicator-1:2", country })),
    );
    add(
      "reading: changes (worker)",
      best(computeOf(changes, { ...scope, earlier: first }, { marketId: second.marketId, country }), 1),
    );
  }
  for (const [name, figures] of Object.entries(rows))
    console.log(`  ${name.padEnd(42)} ${figures.map((f) => f.padStart(9)).join("")}`);
}
