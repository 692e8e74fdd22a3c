/**
 * A generated catalogue for the benchmarks and the size tests: a market of N products × M
 * indicators (all three kinds, some values missing, 0–2 sovereign offerings per product) and G
 * geographies over 12 controls. Deterministic for a seed, so runs compare.
 */
import type { GeographiesFile, MarketFile } from "@/server/1-domain/market-definition";

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const AXES = ["innovation", "control", "scale"] as const;
const LEVELS = ["None", "Basic", "Standard", "Advanced", "Leading"];

export function generatedGeographies(count: number, seed = 7): GeographiesFile {
  const next = random(seed);
  const controls = Array.from({ length: 12 }, (_, i) => ({
    id: `control-${i + 1}`,
    name: `Control ${i + 1}`,
    description: `Generated control ${i + 1}.`,
    framework: "Generated framework",
  }));
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const geographies = Array.from({ length: count }, (_, i) => ({
    country: `${letters[Math.floor(i / 26) % 26]}${letters[i % 26]}`,
    name: `Country ${i + 1}`,
    // A fifth engage nothing; the rest 1–5 controls, so many countries share a control set.
    controls: next() < 0.2 ? [] : controls.filter(() => next() < 0.25).map((c) => c.id),
  }));
  return { kind: "geographies", controls, geographies } as GeographiesFile;
}

/** The generator's own controls; a market for another catalogue names 12 of that one's instead. */
const GENERATED_CONTROLS = Array.from({ length: 12 }, (_, c) => `control-${c + 1}`);

export interface GeneratedMarketOptions {
  seed?: number;
  marketId?: string;
  /** The 12 control ids offerings satisfy (default: those of `generatedGeographies`). */
  controls?: readonly string[];
}

export function generatedMarket(
  products: number,
  indicators: number,
  { seed = 11, marketId = "generated-market", controls = GENERATED_CONTROLS }: GeneratedMarketOptions = {},
): MarketFile {
  const next = random(seed);
  const indicatorList = Array.from({ length: indicators }, (_, i) => {
    const axis = AXES[i % 3] as (typeof AXES)[number];
    const base = { id: `indicator-${i + 1}`, axis, name: `Indicator ${i + 1}`, weight: 1 + (i % 3) };
    if (i % 5 === 3) return { ...base, kind: "boolean" as const };
    if (i % 5 === 4) return { ...base, kind: "level" as const, levels: LEVELS };
    return { ...base, kind: "number" as const, direction: i % 2 ? ("lower" as const) : ("higher" as const) };
  });
  const generateValue = (indicator: (typeof indicatorList)[number]) => {
    if (next() < 0.05) return null; // not demonstrated: a gap
    if (indicator.kind === "boolean") return next() < 0.5;
    if (indicator.kind === "level") return LEVELS[Math.floor(next() * LEVELS.length)] as string;
    return Math.round(next() * 10_000) / 10;
  };
  const productList = Array.from({ length: products }, (_, p) => {
    const values = Object.fromEntries(indicatorList.map((indicator) => [indicator.id, generateValue(indicator)]));
    const sovereign = Array.from({ length: Math.floor(next() * 3) }, (_, o) => ({
      id: `sovereign-${o + 1}`,
      name: `Sovereign ${o + 1}`,
      satisfies: controls.filter(() => next() < 0.5),
      values: Object.fromEntries(
        indicatorList.filter(() => next() < 0.2).map((indicator) => [indicator.id, generateValue(indicator)]),
      ),
    }));
    return {
      productId: `product-${p + 1}`,
      name: `Product ${p + 1}`,
      vendor: `Vendor ${(p % 97) + 1}`,
      offerings: [
        {
          id: "default",
          name: "Default",
          default: true,
          satisfies: controls.slice(0, 1).filter(() => next() < 0.3),
          values,
        },
        ...sovereign,
      ],
    };
  });
  const bands = [
    { name: "Foundation", from: 0 },
    { name: "Established", from: 35 },
    { name: "Frontier", from: 75 },
  ];
  const dimension = (name: string) => ({ name, description: `Generated ${name}.`, bands });
  return {
    kind: "market",
    marketId,
    name: "Generated market",
    description: `Generated for the benchmark: ${products} products × ${indicators} indicators.`,
    methodologyVersion: "1.0",
    methodology: "Generated data; no methodology.",
    dimensions: { innovation: dimension("Innovation"), control: dimension("Control"), scale: dimension("Scale") },
    indicators: indicatorList,
    products: productList,
  } as MarketFile;
}

/** What an embed of a generated market says around its chart (its caption, citation and links), under `country`. */
export const generatedEmbedFacts = (country: string, marketName = "Generated") => ({
  marketName,
  release: 2,
  releasedAt: "2026-01-01T00:00:00.000Z",
  country: { code: country, name: country, controls: [] },
  latest: false,
  methodologyUrl: "https://example.org/m",
  publisher: "Market Positioning Service",
  fullTableUrl: "https://example.org/t",
});
