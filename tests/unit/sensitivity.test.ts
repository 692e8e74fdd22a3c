/**
 * The Monte Carlo sensitivity analysis (server/2-scoring/sensitivity.ts): properties over generated
 * markets (fast-check), checked against the engine's own published scores and the readings' own
 * ranking, and distributions on tiny hand-made markets whose percentiles are worked out on paper.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AXES, type Geography, type MarketFile, marketFileSchema } from "@/server/1-domain/market-definition";
import type { MarketSensitivity } from "@/server/1-domain/sensitivity";
import { rankBy } from "@/server/2-readings/rank";
import { scoreMarket } from "@/server/2-scoring/engine";
import { analyseSensitivity, createRandom, SENSITIVITY_DEFAULTS } from "@/server/2-scoring/sensitivity";
import { fixtureMarket, plainDimensions, rulesGeographies } from "../helpers/fixtures";
import { GENERATED_CONTROLS, generatedGeographies, generatedMarketFile } from "../helpers/generated-markets";

// ------------------------------------------------------------------------------------------ generated markets

const CONTROLS = GENERATED_CONTROLS;
const CONFIDENCE = ["verified", "vendor-claimed", "estimated"] as const;

const indicatorArb = (axis: string, index: number) =>
  fc
    .oneof(
      fc.record({
        kind: fc.constant("number" as const),
        direction: fc.constantFrom("higher" as const, "lower" as const),
        ranged: fc.boolean(),
      }),
      fc.record({ kind: fc.constant("boolean" as const) }),
      fc.record({ kind: fc.constant("level" as const), levels: fc.integer({ min: 2, max: 5 }) }),
    )
    .chain((shape) =>
      fc.double({ min: 0.1, max: 10, noNaN: true }).map((weight) => {
        const base = { id: `${axis}-${index}`, axis, name: `${axis} ${index}`, weight };
        if (shape.kind === "level")
          return { ...base, kind: "level", levels: Array.from({ length: shape.levels }, (_, i) => `L${i}`) };
        if (shape.kind === "number")
          return {
            ...base,
            kind: "number",
            direction: shape.direction,
            ...(shape.ranged ? { range: [-1000, 1000] } : {}),
          };
        return { ...base, kind: "boolean" };
      }),
    );

type IndicatorShape = { id: string; kind: string; levels?: string[] };

interface Generation {
  /** Values may be null or absent. */
  gaps: boolean;
  /** Present values may carry evidence with a confidence. */
  evidence: boolean;
}

const presentArb = (indicator: IndicatorShape): fc.Arbitrary<number | boolean | string> =>
  indicator.kind === "number"
    ? fc.integer({ min: -1000, max: 1000 })
    : indicator.kind === "boolean"
      ? fc.boolean()
      : fc.constantFrom(...(indicator.levels ?? []));

/** One offering's values and evidence: entries [present?, value, confidence?] per indicator. */
const offeringArb = (indicators: IndicatorShape[], generation: Generation, sovereign: boolean) =>
  fc
    .tuple(
      ...indicators.map((i) =>
        fc.tuple(
          fc.boolean(),
          generation.gaps ? fc.option(presentArb(i), { nil: null, freq: 4 }) : presentArb(i),
          generation.evidence ? fc.option(fc.constantFrom(...CONFIDENCE), { nil: undefined }) : fc.constant(undefined),
        ),
      ),
    )
    .map((entries) => {
      const values: Record<string, unknown> = {};
      const evidence: Record<string, unknown> = {};
      entries.forEach(([include, value, confidence], k) => {
        const id = indicators[k]?.id as string;
        // A default offering without gaps writes every indicator; a sovereign one overrides a few.
        if (!include && (sovereign || generation.gaps)) return;
        values[id] = value;
        if (confidence && value !== null) evidence[id] = { source: "Generated", asOf: "2026-01-01", confidence };
      });
      return { values, evidence };
    });

const marketArb = (generation: Generation): fc.Arbitrary<MarketFile> =>
  fc
    .tuple(
      ...AXES.map((axis) =>
        fc
          .integer({ min: 1, max: 3 })
          .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => indicatorArb(axis, i)))),
      ),
    )
    .chain((perAxis) => {
      const indicators = perAxis.flat() as IndicatorShape[];
      const product = (index: number) =>
        fc
          .tuple(
            fc.constantFrom("Atlas", "Borealis", "Cirrus", "Atlas"),
            offeringArb(indicators, generation, false),
            fc.array(fc.tuple(fc.subarray(CONTROLS), offeringArb(indicators, generation, true)), { maxLength: 3 }),
          )
          .map(([name, base, sovereign]) => ({
            productId: `p${index}`,
            name,
            vendor: `Vendor ${index}`,
            offerings: [
              { id: "default", name: "Default", default: true, satisfies: [], ...base },
              ...sovereign.map(([satisfies, own], k) => ({
                id: `sovereign-${k}`,
                name: `Sovereign ${k}`,
                satisfies,
                ...own,
              })),
            ],
          }));
      return fc
        .integer({ min: 1, max: 7 })
        .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => product(i))))
        .map((products) => generatedMarketFile(indicators, products));
    });

const geographiesArb = generatedGeographies;

const anything = marketArb({ gaps: true, evidence: true });
const complete = marketArb({ gaps: false, evidence: false });

// ------------------------------------------------------------------------------------------ what is published

/** The published scores (the engine) and ranks (the readings' competition ranking) to compare with. */
function publishedOf(market: MarketFile, geographies: readonly Geography[]) {
  const scored = scoreMarket(market, geographies);
  const ranks = <T extends { productId: string; name: string }>(items: T[], score: (item: T) => number) =>
    new Map(rankBy(items, score).map((item) => [item.productId, item.rank]));
  const names = new Map(scored.products.map((p) => [p.productId, p.name]));
  return {
    products: new Map(scored.products.map((p) => [p.productId, p])),
    capabilityIndex: ranks(scored.products, (p) => p.scores.innovation),
    max: new Map(
      scored.countries.map((c) => [
        c.country,
        ranks(
          c.products.map((p) => ({ ...p, name: names.get(p.productId) ?? "" })),
          (p) => p.on.innovation,
        ),
      ]),
    ),
    /** Per country, per productId: the Innovation it keeps under the controls (0 when unavailable). */
    retained: new Map(
      scored.countries.map((c) => [c.country, new Map(c.products.map((p) => [p.productId, p.on.innovation]))]),
    ),
  };
}

const at = <T>(record: Record<string, T>, key: string): T => {
  const value = record[key];
  if (value === undefined) throw new Error(`nothing for "${key}"`);
  return value;
};

const FEW = 120; // draws in property tests: enough to move, cheap enough for a hundred markets

// ------------------------------------------------------------------------------------------ properties

describe("sensitivity properties", () => {
  it("gives the same output for the same seed, bit for bit, whatever the order of products", () => {
    fc.assert(
      fc.property(anything, geographiesArb, fc.string(), (market, geographies, seed) => {
        const first = JSON.stringify(analyseSensitivity(market, geographies, { seed, draws: FEW }));
        const again = analyseSensitivity(structuredClone(market), structuredClone(geographies), { seed, draws: FEW });
        const reversed = { ...market, products: [...market.products].reverse() };
        expect(JSON.stringify(again)).toBe(first);
        expect(JSON.stringify(analyseSensitivity(reversed, [...geographies].reverse(), { seed, draws: FEW }))).toBe(
          first,
        );
      }),
      { numRuns: 40 },
    );
  });

  it("contains every published score and rank in its intervals, for every product and country", () => {
    fc.assert(
      fc.property(anything, geographiesArb, fc.string(), (market, geographies, seed) => {
        const result = analyseSensitivity(market, geographies, { seed, draws: FEW });
        expectContained(result, publishedOf(market, geographies), market.products.length);
      }),
    );
  });

  it("collapses every interval onto the published score and rank with fixed weights, no gaps, no evidence", () => {
    // concentration Infinity is the limit κ → ∞: the published weights themselves.
    fc.assert(
      fc.property(complete, geographiesArb, fc.string(), (market, geographies, seed) => {
        const result = analyseSensitivity(market, geographies, { seed, draws: 30, concentration: Infinity });
        expect(result.concentration).toBe(Infinity);
        expectCollapsed(result, publishedOf(market, geographies));
      }),
    );
  });

  it("stays within a tenth of the published score when κ is very large", () => {
    fc.assert(
      fc.property(complete, geographiesArb, (market, geographies) => {
        const result = analyseSensitivity(market, geographies, { seed: "large", draws: 50, concentration: 1e12 });
        for (const [productId, product] of publishedOf(market, geographies).products)
          for (const axis of AXES) {
            const { p5, p95 } = at(result.products, productId)[axis].interval;
            expect(p95 - p5).toBeLessThanOrEqual(0.1 + 1e-9);
            expect(Math.abs(p5 - product.scores[axis]) + Math.abs(p95 - product.scores[axis])).toBeLessThanOrEqual(
              0.1 + 1e-9,
            );
          }
      }),
    );
  });

  it("only ever raises a score by filling gaps: with fixed weights and no evidence, p5 is the published score", () => {
    fc.assert(
      fc.property(
        marketArb({ gaps: true, evidence: false }),
        geographiesArb,
        fc.string(),
        (market, geographies, seed) => {
          const result = analyseSensitivity(market, geographies, { seed, draws: FEW, concentration: Infinity });
          for (const [productId, product] of publishedOf(market, geographies).products)
            for (const axis of AXES) {
              const { p5, p95 } = at(result.products, productId)[axis].interval;
              expect(p5).toBe(product.scores[axis]);
              expect(p95).toBeGreaterThanOrEqual(product.scores[axis]);
              if (product.gaps.length === 0) expect(p95).toBe(product.scores[axis]);
            }
        },
      ),
    );
  });

  it("shares the draws out among every band of the axis: each share in [0, 1], together 1", () => {
    fc.assert(
      fc.property(anything, geographiesArb, (market, geographies) => {
        const result = analyseSensitivity(market, geographies, { seed: "bands", draws: FEW });
        for (const product of Object.values(result.products))
          for (const axis of AXES) {
            const names = market.dimensions[axis].bands.map((b) => b.name);
            const shares = product[axis].bands;
            expect(Object.keys(shares)).toEqual(names);
            for (const share of Object.values(shares)) {
              expect(share).toBeGreaterThanOrEqual(0);
              expect(share).toBeLessThanOrEqual(1);
            }
            const total = Object.values(shares).reduce((sum, share) => sum + share, 0);
            expect(Math.abs(total - 1)).toBeLessThanOrEqual(0.001 * names.length);
          }
      }),
    );
  });

  it("ranks first, always, a product with the best value on every indicator", () => {
    fc.assert(
      fc.property(anything, geographiesArb, fc.string(), (market, geographies, seed) => {
        const withBest = { ...market, products: [...market.products, bestOf(market)] };
        const result = analyseSensitivity(withBest, geographies, { seed, draws: FEW });
        expect(at(result.capabilityIndex, "best").rankInterval).toEqual({ best: 1, worst: 1 });
        for (const axis of AXES) {
          expect(at(result.products, "best")[axis].bandSettled).toBe(true);
          expect(at(result.products, "best")[axis].interval).toEqual({ p5: 100, p95: 100 });
        }
      }),
    );
  });
});

/** Every interval contains the published score or rank, and names every product and country. */
function expectContained(result: MarketSensitivity, published: ReturnType<typeof publishedOf>, products: number) {
  expect(Object.keys(result.products).sort()).toEqual([...published.products.keys()].sort());
  expect(Object.keys(result.max).sort()).toEqual([...published.max.keys()].sort());
  for (const [productId, product] of published.products) {
    for (const axis of AXES) {
      const { interval } = at(result.products, productId)[axis];
      expect(interval.p5).toBeLessThanOrEqual(product.scores[axis]);
      expect(interval.p95).toBeGreaterThanOrEqual(product.scores[axis]);
    }
    const capability = at(result.capabilityIndex, productId).rankInterval;
    const rank = published.capabilityIndex.get(productId) as number;
    expect(capability.best).toBeLessThanOrEqual(rank);
    expect(capability.worst).toBeGreaterThanOrEqual(rank);
  }
  for (const [country, ranks] of published.max)
    for (const [productId, rank] of ranks) {
      const { best, worst } = at(at(result.max, country), productId).rankInterval;
      expect(best).toBeLessThanOrEqual(rank);
      expect(worst).toBeGreaterThanOrEqual(rank);
      expect(best).toBeGreaterThanOrEqual(1);
      expect(worst).toBeLessThanOrEqual(products);
      const kept = published.retained.get(country)?.get(productId) as number;
      const { p5, p95 } = at(at(result.max, country), productId).retained;
      expect(p5).toBeLessThanOrEqual(kept);
      expect(p95).toBeGreaterThanOrEqual(kept);
    }
}

/** Every interval is the published score or rank, exactly. */
function expectCollapsed(result: MarketSensitivity, published: ReturnType<typeof publishedOf>) {
  for (const [productId, product] of published.products) {
    for (const axis of AXES) {
      const score = product.scores[axis];
      expect(at(result.products, productId)[axis].interval).toEqual({ p5: score, p95: score });
      expect(at(result.products, productId)[axis].bands[product.bands[axis]]).toBe(1);
      expect(at(result.products, productId)[axis].bandSettled).toBe(true);
    }
    const rank = published.capabilityIndex.get(productId);
    expect(at(result.capabilityIndex, productId).rankInterval).toEqual({ best: rank, worst: rank });
  }
  for (const [country, ranks] of published.max)
    for (const [productId, rank] of ranks) {
      const entry = at(at(result.max, country), productId);
      const kept = published.retained.get(country)?.get(productId);
      expect(entry.rankInterval).toEqual({ best: rank, worst: rank });
      expect(entry.retained).toEqual({ p5: kept, p95: kept });
    }
}

/**
 * A product strictly better than every other on every indicator (a number beyond anyone's value in
 * the good direction, true, the top level), with no gaps and no evidence, so nothing of it varies.
 */
function bestOf(market: MarketFile): MarketFile["products"][number] {
  const numbers = market.products.flatMap((p) =>
    p.offerings.flatMap((o) => Object.values(o.values).filter((v): v is number => typeof v === "number")),
  );
  const values = Object.fromEntries(
    market.indicators.map((i) => {
      if (i.kind === "boolean") return [i.id, true];
      if (i.kind === "level") return [i.id, i.levels.at(-1)];
      return [i.id, i.direction === "higher" ? Math.max(0, ...numbers) + 1 : Math.min(0, ...numbers) - 1];
    }),
  );
  return {
    productId: "best",
    name: "Best",
    vendor: "Best Co",
    offerings: [{ id: "default", name: "Default", default: true, satisfies: [], values, evidence: {} }],
  };
}

// ------------------------------------------------------------------------------------------ hand-made markets

type Values = Record<string, number | boolean | string | null>;

/**
 * A market whose Innovation axis is `innovation` and whose Control and Scale are one boolean each,
 * true for everyone (so they never vary); bands Foundation [0, 60), Frontier [60, 100].
 */
function tiny(innovation: object[], products: [id: string, values: Values, evidence?: Record<string, string>][]) {
  return marketFileSchema.parse({
    kind: "market",
    marketId: "tiny",
    name: "Tiny",
    description: "d",
    methodologyVersion: "1",
    methodology: "m",
    dimensions: plainDimensions(60),
    indicators: [
      ...innovation.map((i) => ({ axis: "innovation", name: "I", weight: 1, ...i })),
      { id: "c", axis: "control", name: "C", kind: "boolean", weight: 1 },
      { id: "s", axis: "scale", name: "S", kind: "boolean", weight: 1 },
    ],
    products: products.map(([productId, values, evidence = {}]) => ({
      productId,
      name: productId,
      vendor: "V",
      offerings: [
        {
          id: "default",
          name: "Default",
          default: true,
          values: { c: true, s: true, ...values },
          evidence: Object.fromEntries(
            Object.entries(evidence).map(([id, confidence]) => [id, { source: "Doc", asOf: "2026-01-01", confidence }]),
          ),
        },
      ],
    })),
  });
}

const NONE: Geography[] = [{ country: "ZZ", name: "None", controls: [] }];
const fixed = { seed: "hand", concentration: Number.POSITIVE_INFINITY };
const innovationOf = (result: MarketSensitivity, productId: string) => at(result.products, productId).innovation;

describe("drawing a missing value", () => {
  // Field of "bench": A 0, B 100 → bounds [0, 100]; C is missing, so it is drawn.
  const bench = (extra: object) => [{ id: "bench", kind: "number", direction: "higher", ...extra }];
  const field: [string, Values][] = [
    ["a", { bench: 0 }],
    ["b", { bench: 100 }],
    ["c", { bench: null }],
  ];

  // The published score of C is 0 (its gap), and every draw is at least that, so p5 is 0 whatever
  // the draws: the 95th percentile and the share below the Frontier cutoff (60) say how they fell.

  it("is uniform over the field's bounds without a declared range", () => {
    // n = v/100, v uniform on [0, 100]: the 95th percentile of 100·n is about 95, P(< 60) = 0.6.
    const c = innovationOf(analyseSensitivity(tiny(bench({}), field), NONE, fixed), "c");
    expect(c.interval.p5).toBe(0);
    expect(c.interval.p95).toBeGreaterThanOrEqual(93.5);
    expect(c.interval.p95).toBeLessThanOrEqual(96.5);
    expect(c.bands.Foundation).toBeGreaterThan(0.56);
    expect(c.bands.Foundation).toBeLessThan(0.64);
    expect(c.bandSettled).toBe(false);
  });

  it("is uniform over a declared range, normalised against the field and clamped", () => {
    // v uniform on [0, 200] against bounds [0, 100]: half the draws clamp to 1 (100), the other half
    // are uniform on [0, 100): P(score < 60) = 60/200 = 0.3, and p95 is 100.
    const higher = innovationOf(analyseSensitivity(tiny(bench({ range: [0, 200] }), field), NONE, fixed), "c");
    expect(higher.interval.p95).toBe(100);
    expect(higher.bands.Foundation).toBeGreaterThan(0.27);
    expect(higher.bands.Foundation).toBeLessThan(0.33);
    // Lower is better: n = 1 − v/100, half clamp to 0: P(score < 60) = 0.5 + 0.5 × 0.6 = 0.8 and
    // P(score ≤ x) = 0.5 + x/200, so the 95th percentile is about 90.
    const lower = innovationOf(
      analyseSensitivity(tiny(bench({ direction: "lower", range: [0, 200] }), field), NONE, fixed),
      "c",
    );
    expect(lower.interval.p95).toBeGreaterThanOrEqual(87);
    expect(lower.interval.p95).toBeLessThanOrEqual(93);
    expect(lower.bands.Foundation).toBeGreaterThan(0.77);
    expect(lower.bands.Foundation).toBeLessThan(0.83);
  });

  it("draws a boolean true half the time and a level uniformly over its levels", () => {
    const market = tiny(
      [
        { id: "flag", kind: "boolean" },
        { id: "tier", kind: "level", levels: ["none", "basic", "full"] },
      ],
      [
        ["a", { flag: true, tier: "full" }],
        ["gap", { flag: null, tier: null }],
      ],
    );
    // score = 100 × (flag + tier/2)/2 ∈ {0, 25, 50, 50, 75, 100} with probabilities 1/6 each
    // (flag false: 0, 25, 50; true: 50, 75, 100): Foundation (< 60) 4/6, Frontier 2/6.
    const gap = innovationOf(analyseSensitivity(market, NONE, { ...fixed, draws: 4000 }), "gap");
    expect(gap.interval).toEqual({ p5: 0, p95: 100 });
    expect(gap.bands.Foundation).toBeGreaterThan(0.64);
    expect(gap.bands.Foundation).toBeLessThan(0.69);
  });

  it("widens a gap's interval upwards from the published 0 and leaves complete products alone", () => {
    const market = tiny(
      [{ id: "flag", kind: "boolean" }],
      [
        ["full", { flag: true }],
        ["gap", { flag: null }],
      ],
    );
    const result = analyseSensitivity(market, NONE, fixed);
    expect(innovationOf(result, "gap").interval).toEqual({ p5: 0, p95: 100 });
    expect(innovationOf(result, "full").interval).toEqual({ p5: 100, p95: 100 });
    // Half the draws tie the gap at 100 with "full": full is first in every draw.
    expect(at(result.capabilityIndex, "full").rankInterval).toEqual({ best: 1, worst: 1 });
    expect(at(result.capabilityIndex, "gap").rankInterval).toEqual({ best: 1, worst: 2 });
  });
});

describe("varying a value by its evidence", () => {
  const market = (confidence: string, value: number | boolean | string, kind: object) =>
    tiny(
      [{ id: "x", ...kind }],
      [
        ["low", { x: typeof value === "number" ? 0 : null }],
        ["high", { x: typeof value === "number" ? 100 : null }],
        ["claimed", { x: value }, { x: confidence }],
      ],
    );
  const number = { kind: "number", direction: "higher" };

  it("moves an estimated number ±15 % and a vendor's claim ±5 %, a verified one not at all", () => {
    // 50 × (1 + ε) against [0, 100]: ε uniform on ±0.15 → score uniform on [42.5, 57.5],
    // percentiles about 43.3 and 56.8; ±0.05 → [47.5, 52.5], about 47.8 and 52.3.
    const estimated = innovationOf(analyseSensitivity(market("estimated", 50, number), NONE, fixed), "claimed");
    expect(estimated.interval.p5).toBeGreaterThanOrEqual(42.7);
    expect(estimated.interval.p5).toBeLessThanOrEqual(44);
    expect(estimated.interval.p95).toBeGreaterThanOrEqual(56);
    expect(estimated.interval.p95).toBeLessThanOrEqual(57.3);
    const claimed = innovationOf(analyseSensitivity(market("vendor-claimed", 50, number), NONE, fixed), "claimed");
    expect(claimed.interval.p5).toBeGreaterThanOrEqual(47.5);
    expect(claimed.interval.p5).toBeLessThanOrEqual(48.1);
    expect(claimed.interval.p95).toBeGreaterThanOrEqual(51.9);
    expect(claimed.interval.p95).toBeLessThanOrEqual(52.5);
    const verified = innovationOf(analyseSensitivity(market("verified", 50, number), NONE, fixed), "claimed");
    expect(verified.interval).toEqual({ p5: 50, p95: 50 });
  });

  it("flips an estimated boolean in 15 % of the draws and steps an estimated level by one", () => {
    // true → 100 in 85 % of the draws, 0 in 15 %: p5 = 0, Frontier about 0.85.
    const flag = innovationOf(
      analyseSensitivity(market("estimated", true, { kind: "boolean" }), NONE, fixed),
      "claimed",
    );
    expect(flag.interval).toEqual({ p5: 0, p95: 100 });
    expect(flag.bands.Frontier).toBeGreaterThan(0.82);
    expect(flag.bands.Frontier).toBeLessThan(0.88);
    // "mid" of five levels is 2/4 → 50; 15 % of the draws move it to 25 or 75 (7.5 % each).
    const levels = { kind: "level", levels: ["l0", "l1", "mid", "l3", "l4"] };
    const tier = innovationOf(analyseSensitivity(market("estimated", "mid", levels), NONE, fixed), "claimed");
    expect(tier.interval).toEqual({ p5: 25, p95: 75 });
    expect(tier.bands.Frontier).toBeGreaterThan(0.05);
    expect(tier.bands.Frontier).toBeLessThan(0.1);
  });

  it("takes the spread per confidence from the options, 0 meaning fixed", () => {
    const result = analyseSensitivity(market("estimated", 50, number), NONE, { ...fixed, spread: { estimated: 0 } });
    expect(innovationOf(result, "claimed").interval).toEqual({ p5: 50, p95: 50 });
    expect(result.spread).toEqual({ ...SENSITIVITY_DEFAULTS.spread, estimated: 0 });
  });
});

describe("drawing the weights", () => {
  it("draws Dirichlet weights around the published ones, tighter as κ grows", () => {
    // Innovation = 100 × gA/(gA + gB) with A = 1, B = 0, equal weights: Beta(κ/2, κ/2) × 100.
    // κ = 100: sd = 100 × √(0.25/101) = 4.98, percentiles 50 ∓ 1.645 × 4.98 = 41.8 and 58.2;
    // κ = 10 000: sd 0.5, percentiles 49.2 and 50.8.
    const market = tiny(
      [
        { id: "a", kind: "boolean" },
        { id: "b", kind: "boolean" },
      ],
      [["half", { a: true, b: false }]],
    );
    const loose = innovationOf(analyseSensitivity(market, NONE, { seed: "w" }), "half").interval;
    expect(loose.p5).toBeGreaterThanOrEqual(40.5);
    expect(loose.p5).toBeLessThanOrEqual(43);
    expect(loose.p95).toBeGreaterThanOrEqual(57);
    expect(loose.p95).toBeLessThanOrEqual(59.5);
    const tight = innovationOf(analyseSensitivity(market, NONE, { seed: "w", concentration: 10_000 }), "half").interval;
    expect(tight.p5).toBeGreaterThanOrEqual(48.9);
    expect(tight.p5).toBeLessThanOrEqual(49.5);
    expect(tight.p95).toBeGreaterThanOrEqual(50.5);
    expect(tight.p95).toBeLessThanOrEqual(51.1);
  });

  it("samples Gamma variates with the right mean and variance, small shapes included", () => {
    const random = createRandom("gamma");
    for (const shape of [0.05, 0.3, 1, 4.5, 50]) {
      const n = 20_000;
      const draws = Array.from({ length: n }, () => Math.exp(random.logGamma(shape)));
      const mean = draws.reduce((sum, x) => sum + x, 0) / n;
      const variance = draws.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1);
      // Gamma(k, 1): mean k, variance k; five standard errors of the mean. The sample variance of
      // a very small shape is too heavy-tailed to pin down, so it is checked from 0.3 up.
      expect(Math.abs(mean - shape)).toBeLessThan(5 * Math.sqrt(shape / n));
      if (shape >= 0.3) {
        expect(variance / shape).toBeGreaterThan(0.85);
        expect(variance / shape).toBeLessThan(1.15);
      }
      expect(draws.every((x) => x >= 0 && Number.isFinite(x))).toBe(true);
    }
    const uniforms = Array.from({ length: 20_000 }, () => random.uniform());
    expect(uniforms.every((u) => u > 0 && u < 1)).toBe(true);
    expect(Math.abs(uniforms.reduce((sum, u) => sum + u, 0) / 20_000 - 0.5)).toBeLessThan(0.01);
  });
});

describe("ranks and the seed", () => {
  it("gives tied products the same rank interval", () => {
    const market = tiny(
      [
        { id: "a", kind: "boolean" },
        { id: "b", kind: "level", levels: ["x", "y", "z"] },
      ],
      [
        ["one", { a: true, b: "y" }],
        ["twin", { a: true, b: "y" }],
        ["other", { a: false, b: "z" }],
        ["last", { a: false, b: "x" }],
      ],
    );
    const result = analyseSensitivity(market, NONE, { seed: "ties" });
    expect(at(result.capabilityIndex, "one")).toEqual(at(result.capabilityIndex, "twin"));
    // Published: one and twin 75 (rank 1), other 50 (rank 3), last 0 (rank 4).
    const published = analyseSensitivity(market, NONE, fixed).capabilityIndex;
    expect(published).toEqual({
      last: { rankInterval: { best: 4, worst: 4 } },
      one: { rankInterval: { best: 1, worst: 1 } },
      other: { rankInterval: { best: 3, worst: 3 } },
      twin: { rankInterval: { best: 1, worst: 1 } },
    });
  });

  it("gives different intervals for different seeds", () => {
    const market = tiny(
      [
        { id: "bench", kind: "number", direction: "higher" },
        { id: "flag", kind: "boolean" },
      ],
      [
        ["a", { bench: 10, flag: true }],
        ["b", { bench: 90, flag: null }],
        ["c", { bench: null, flag: false }],
      ],
    );
    const outputs = new Set(
      ["one", "two", "three", "four"].map((seed) => {
        const { seed: _, ...rest } = analyseSensitivity(market, NONE, { seed, draws: 100 });
        return JSON.stringify(rest);
      }),
    );
    expect(outputs.size).toBeGreaterThan(1);
  });

  it("holds on the edge-rule fixture: ties, clamps, all-equal and empty fields, unavailable products", () => {
    const market = fixtureMarket("rules.yaml");
    const geographies = rulesGeographies().geographies;
    const published = publishedOf(market, geographies);
    expectContained(analyseSensitivity(market, geographies, { seed: "rules" }), published, market.products.length);
    // With the published weights only the gaps move, and only upwards.
    const filled = analyseSensitivity(market, geographies, { seed: "rules", concentration: Infinity });
    for (const [productId, product] of published.products)
      for (const axis of AXES) expect(at(filled.products, productId)[axis].interval.p5).toBe(product.scores[axis]);
  });

  it("echoes what it used and refuses what it cannot use", () => {
    const market = tiny([{ id: "a", kind: "boolean" }], [["one", { a: true }]]);
    const result = analyseSensitivity(market, NONE, { seed: "echo" });
    expect([result.seed, result.draws, result.concentration, result.spread]).toEqual([
      "echo",
      2000,
      100,
      { verified: 0, "vendor-claimed": 0.05, estimated: 0.15 },
    ]);
    expect(() => analyseSensitivity(market, NONE, { seed: "x", draws: 0 })).toThrow(RangeError);
    expect(() => analyseSensitivity(market, NONE, { seed: "x", draws: 1.5 })).toThrow(RangeError);
    expect(() => analyseSensitivity(market, NONE, { seed: "x", concentration: 0 })).toThrow(RangeError);
    expect(() => analyseSensitivity(market, NONE, { seed: "x", spread: { estimated: 2 } })).toThrow(RangeError);
  });
});

// ------------------------------------------------------------------------------------------ rank odds

describe("how likely each rank is", () => {
  const thousandths = (n: number) => Math.round(n * 1000);
  const rankings = (result: MarketSensitivity) => {
    const odds = result.odds;
    if (!odds) throw new Error("no odds");
    return [odds.capabilityIndex, ...Object.values(odds.max)];
  };

  it("gives out exactly k places over the products, for every k, in every ranking", () => {
    fc.assert(
      fc.property(anything, geographiesArb, fc.string(), (market, geographies, seed) => {
        const result = analyseSensitivity(market, geographies, { seed, draws: FEW });
        for (const ranking of rankings(result)) {
          const ranked = Object.values(ranking).filter((o) => o.tieGroup !== null);
          for (const [k, key] of [
            [1, "top1"],
            [3, "top3"],
            [5, "top5"],
          ] as const) {
            const sum = Object.values(ranking).reduce((total, o) => total + thousandths(o[key]), 0);
            expect(sum).toBe(Math.min(k, ranked.length) * 1000);
          }
          for (const o of Object.values(ranking)) {
            expect(o.top1).toBeLessThanOrEqual(o.top3);
            expect(o.top3).toBeLessThanOrEqual(o.top5);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it("is consistent with the rank intervals: a product whose interval starts below k is in the top k in at most 5 % of draws", () => {
    fc.assert(
      fc.property(anything, geographiesArb, fc.string(), (market, geographies, seed) => {
        const result = analyseSensitivity(market, geographies, { seed, draws: 200 });
        const pairs = [
          [result.capabilityIndex, result.odds?.capabilityIndex],
          ...Object.entries(result.max).map(([country, ranks]) => [ranks, result.odds?.max[country]] as const),
        ] as const;
        for (const [intervals, odds] of pairs)
          for (const [id, { rankInterval }] of Object.entries(intervals)) {
            const o = odds?.[id];
            if (!o || o.tieGroup === null) continue;
            for (const [k, share] of [
              [1, o.top1],
              [3, o.top3],
              [5, o.top5],
            ] as const)
              if (rankInterval.best > k) expect(share, `${id} top ${k}`).toBeLessThanOrEqual(0.05 + 0.0005);
          }
      }),
      { numRuns: 40 },
    );
  });

  it("numbers tie groups from 1 along the published order, and separates a product that always leads", () => {
    fc.assert(
      fc.property(anything, fc.string(), (market, seed) => {
        const result = analyseSensitivity(market, [], { seed, draws: FEW });
        const published = rankBy(scoreMarket(market, []).products, (p) => p.scores.innovation);
        const groups = published.map((p) => result.odds?.capabilityIndex[p.productId]?.tieGroup as number);
        expect(groups[0]).toBe(1);
        groups.forEach((g, i) => {
          if (i > 0) expect(g - (groups[i - 1] as number)).toBeGreaterThanOrEqual(0);
          if (i > 0) expect(g - (groups[i - 1] as number)).toBeLessThanOrEqual(1);
        });
      }),
      { numRuns: 40 },
    );
    // Hand-made: one product best on every indicator, far ahead; two identical ones behind it.
    const market = marketFileSchema.parse({
      kind: "market",
      marketId: "odds",
      name: "Odds",
      description: "d",
      methodologyVersion: "1",
      methodology: "m",
      dimensions: plainDimensions(60),
      indicators: [
        { id: "i", axis: "innovation", name: "i", kind: "number", direction: "higher", weight: 1 },
        { id: "c", axis: "control", name: "c", kind: "boolean", weight: 1 },
        { id: "s", axis: "scale", name: "s", kind: "boolean", weight: 1 },
      ],
      products: ["a", "b", "c"].map((id, n) => ({
        productId: id,
        name: id.toUpperCase(),
        vendor: "v",
        offerings: [{ id: "d", name: "d", default: true, values: { i: n === 0 ? 100 : 10, c: true, s: true } }],
      })),
    });
    const odds = analyseSensitivity(market, [], { seed: "s", draws: 500 }).odds?.capabilityIndex;
    expect(odds?.a).toEqual({ top1: 1, top3: 1, top5: 1, tieGroup: 1 });
    // B and C tie in every draw over places 2–3: half of place 2 each, both within the top 3.
    expect(odds?.b).toEqual({ top1: 0, top3: 1, top5: 1, tieGroup: 2 });
    expect(odds?.c).toEqual({ top1: 0, top3: 1, top5: 1, tieGroup: 2 });
  });
});
