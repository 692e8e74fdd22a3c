/**
 * What-if weights (server/2-scoring/whatif.ts and the reading, server/2-readings/whatif.ts): the
 * published weights give the published scoring and readings exactly; other weights give scores
 * worked out here on paper, and on every axis what the engine scores a market carrying them; an
 * unavailable product is given no score under controls; the validator and the parser name the
 * weight at fault, in sentences.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkGeographies, checkMarket, parseDefinition } from "@/server/1-domain/definition-checks";
import { type Geography, type MarketFile, marketFileSchema } from "@/server/1-domain/market-definition";
import { capaindex } from "@/server/2-readings/capaindex";
import { servicemax } from "@/server/2-readings/servicemax";
import { whatif } from "@/server/2-readings/whatif";
import { scoreMarket } from "@/server/2-scoring/engine";
import { checkWhatIfWeights, parseWeightsParam, rescoreWithWeights } from "@/server/2-scoring/whatif";
import { fixtureGeographies, fixtureMarket, plainDimensions, rulesGeographies } from "../helpers/fixtures";
import { scoredRelease } from "../helpers/scored-release";

/**
 * Innovation: bench (number, higher, weight 1) and flag (boolean, weight 1); Control and Scale one
 * boolean each, true for everyone. Bands: Foundation [0, 60), Frontier [60, 100].
 * Field of bench over the default offerings: [20, 80], so alpha 80 → 1, bravo 20 → 0, charlie 50 → 0.5.
 */
const tiny = marketFileSchema.parse({
  kind: "market",
  marketId: "tiny",
  name: "Tiny",
  description: "d",
  methodologyVersion: "1",
  methodology: "m",
  dimensions: plainDimensions(60),
  indicators: [
    { id: "bench", axis: "innovation", name: "Bench", kind: "number", direction: "higher", weight: 1 },
    { id: "flag", axis: "innovation", name: "Flag", kind: "boolean", weight: 1 },
    { id: "c", axis: "control", name: "C", kind: "boolean", weight: 1 },
    { id: "s", axis: "scale", name: "S", kind: "boolean", weight: 1 },
  ],
  products: [
    ["alpha", { bench: 80, flag: false }],
    ["bravo", { bench: 20, flag: true }],
    ["charlie", { bench: 50, flag: true }],
  ].map(([productId, values]) => ({
    productId,
    name: productId,
    vendor: "V",
    offerings: [
      { id: "default", name: "Default", default: true, values: { c: true, s: true, ...(values as object) } },
      // Charlie alone has a sovereign offering: bench 80 (→ 1), flag false; it satisfies k1.
      ...(productId === "charlie"
        ? [{ id: "eu", name: "EU", satisfies: ["k1"], values: { bench: 80, flag: false } }]
        : []),
    ],
  })),
});
const geographies: Geography[] = [
  { country: "XK", name: "K1", controls: ["k1"] },
  { country: "ZZ", name: "None", controls: [] },
];

const innovation = (scored: ReturnType<typeof scoreMarket>) =>
  Object.fromEntries(scored.products.map((p) => [p.productId, [p.scores.innovation, p.bands.innovation]]));

describe("rescoreWithWeights", () => {
  it("with the published weights is the published scoring, every score, band and country", () => {
    for (const [market, countries] of [
      [fixtureMarket(), fixtureGeographies().geographies],
      [fixtureMarket("rules.yaml"), rulesGeographies().geographies],
      [tiny, geographies],
    ] as const) {
      const published = scoreMarket(market, countries);
      expect(rescoreWithWeights(market, countries, new Map())).toEqual(published);
      const same = new Map(market.indicators.map((i) => [i.id, i.weight]));
      expect(rescoreWithWeights(market, countries, same)).toEqual(published);
    }
  });

  it("scores with a doubled weight as worked out by hand", () => {
    // Published (1, 1): alpha 100 × (1 + 0)/2 = 50, bravo 100 × (0 + 1)/2 = 50, charlie 100 × 1.5/2 = 75.
    expect(innovation(scoreMarket(tiny, geographies))).toEqual({
      alpha: [50, "Foundation"],
      bravo: [50, "Foundation"],
      charlie: [75, "Frontier"],
    });
    // bench doubled (2, 1): alpha 100 × 2/3 = 66.7, bravo 100 × 1/3 = 33.3, charlie 100 × (1 + 1)/3 = 66.7.
    const doubled = rescoreWithWeights(tiny, geographies, new Map([["bench", 2]]));
    expect(innovation(doubled)).toEqual({
      alpha: [66.7, "Frontier"],
      bravo: [33.3, "Foundation"],
      charlie: [66.7, "Frontier"],
    });
    // Control and Scale do not move: 100 for everyone.
    for (const p of doubled.products) expect([p.scores.control, p.scores.scale]).toEqual([100, 100]);
    // Under k1 only charlie's eu qualifies: 100 × (2 × 1 + 0)/3 = 66.7 (published: 100 × 1/2 = 50).
    const xk = doubled.countries.find((c) => c.country === "XK");
    expect(xk?.products.map((p) => [p.productId, p.available, p.offering?.id ?? null, p.on.innovation])).toEqual([
      ["alpha", false, null, 0],
      ["bravo", false, null, 0],
      ["charlie", true, "eu", 66.7],
    ]);
    // charlie keeps 66.7 of its 66.7: no Innovation distance.
    expect(xk?.products[2]?.distance.innovation).toBe(0);
  });

  it("drops an indicator weighted 0 from its axis", () => {
    // flag 0: Innovation is bench alone: alpha 100, bravo 0, charlie 50.
    const scored = rescoreWithWeights(tiny, geographies, new Map([["flag", 0]]));
    expect(innovation(scored)).toEqual({
      alpha: [100, "Frontier"],
      bravo: [0, "Foundation"],
      charlie: [50, "Foundation"],
    });
  });

  it("refuses weights the validator refuses", () => {
    expect(() => rescoreWithWeights(tiny, geographies, new Map([["bench", -1]]))).toThrow(
      /weights\.bench: The weight of bench is -1: a weight must be 0 or more\./,
    );
    const zeros = new Map([
      ["bench", 0],
      ["flag", 0],
    ]);
    expect(() => rescoreWithWeights(tiny, geographies, zeros)).toThrow(RangeError);
  });
});

describe("checkWhatIfWeights", () => {
  it("accepts known indicators with finite weights ≥ 0", () => {
    expect(
      checkWhatIfWeights(
        tiny,
        new Map([
          ["bench", 2.5],
          ["flag", 0],
        ]),
      ),
    ).toEqual([]);
  });

  it("names each weight at fault", () => {
    const problems = checkWhatIfWeights(
      tiny,
      new Map([
        ["benchmark", 1],
        ["bench", -1],
        ["flag", Number.NaN],
        ["c", Number.POSITIVE_INFINITY],
        ["s", 1e300],
      ]),
    );
    expect(problems).toEqual([
      { path: "weights.benchmark", message: 'Market tiny has no indicator "benchmark".' },
      { path: "weights.bench", message: "The weight of bench is -1: a weight must be 0 or more." },
      { path: "weights.flag", message: "The weight of flag is not a finite number (NaN)." },
      { path: "weights.c", message: "The weight of c is not a finite number (Infinity)." },
      { path: "weights.s", message: "The weight of s is 1e+300: a weight must be at most 1,000,000." },
    ]);
  });

  it("refuses an axis whose every weight is zero, once, in a sentence naming the axis and the way out", () => {
    const problems = checkWhatIfWeights(
      tiny,
      new Map([
        ["bench", 0],
        ["flag", 0],
        ["s", 0],
      ]),
    );
    expect(problems).toEqual([
      {
        path: "weights",
        message: "Every Innovation weight is zero: give at least one Innovation indicator a weight above 0.",
      },
      { path: "weights", message: "Every Scale weight is zero: give at least one Scale indicator a weight above 0." },
    ]);
  });
});

describe("parseWeightsParam", () => {
  it("reads indicatorId:weight pairs, tolerating spaces", () => {
    expect(parseWeightsParam("bench:2,flag:0.5")).toEqual({
      weights: new Map([
        ["bench", 2],
        ["flag", 0.5],
      ]),
      problems: [],
    });
    expect(parseWeightsParam("  bench : 2 , flag:.5 ,c:1e-1").weights).toEqual(
      new Map([
        ["bench", 2],
        ["flag", 0.5],
        ["c", 0.1],
      ]),
    );
    // A negative number is a number: the validator says what is wrong with it.
    expect(parseWeightsParam("bench:-1")).toEqual({ weights: new Map([["bench", -1]]), problems: [] });
  });

  it("refuses an empty text", () => {
    expect(parseWeightsParam(" ")).toEqual({
      weights: new Map(),
      problems: [
        { path: "weights", message: "No weights were given: write indicatorId:weight pairs, separated by commas." },
      ],
    });
  });

  it("names the weight or the item at fault, and keeps the good ones", () => {
    const { weights, problems } = parseWeightsParam("bench:abc,flag,c:1,c:2,:3,s:,,s:0x10,x:Infinity");
    expect(weights).toEqual(new Map([["c", 1]]));
    expect(problems).toEqual([
      { path: "weights.bench", message: 'The weight of bench, "abc", is not a number.' },
      { path: "weights", message: '"flag" is not an indicatorId:weight pair.' },
      { path: "weights.c", message: "c is given more than once: give each indicator one weight." },
      { path: "weights", message: '":3" is not an indicatorId:weight pair.' },
      { path: "weights.s", message: "The weight of s is missing: write a number after the colon." },
      { path: "weights", message: "One item of the list is empty: remove the extra comma." },
      { path: "weights.s", message: "s is given more than once: give each indicator one weight." },
      { path: "weights.x", message: 'The weight of x, "Infinity", is not a number.' },
    ]);
  });

  it("hands a number too large for a double to the validator, which refuses it", () => {
    const { weights, problems } = parseWeightsParam("bench:1e999");
    expect(problems).toEqual([]);
    expect(checkWhatIfWeights(tiny, weights)).toEqual([
      { path: "weights.bench", message: "The weight of bench is not a finite number (Infinity)." },
    ]);
  });
});

/** The demo catalogue's Foundation-model APIs (release 3): 13 products, 5 indicators per axis. */
function demoRelease() {
  const root = path.resolve(import.meta.dirname, "../../db/demo");
  const read = (file: string) => parseDefinition(file, readFileSync(path.join(root, file), "utf8"));
  const geo = checkGeographies("geographies.yaml", read("geographies.yaml") as never);
  const market = checkMarket("r3", read("markets/foundation-model-apis.r3.yaml") as never, geo.controls);
  return { market, geographies: geo.geographies, release: scoredRelease(market, geo.geographies, geo.controls) };
}

/** The market with these weights written into its indicators: what the engine scores, independently of the what-if. */
const carrying = (market: MarketFile, weights: ReadonlyMap<string, number>): MarketFile => ({
  ...market,
  indicators: market.indicators.map((i) => ({ ...i, weight: weights.get(i.id) ?? i.weight })),
});

describe("the what-if reading", () => {
  const demo = demoRelease();

  it("with the published weights is the published Capability Index and Max, every axis beside itself", () => {
    const published = new Map(demo.market.indicators.map((i) => [i.id, i.weight]));
    for (const weights of [new Map<string, number>(), published]) {
      const reading = whatif(demo.release, weights, "FR");
      const index = capaindex(demo.release);
      expect(reading.capabilityIndex.products.map((p) => [p.rank, p.productId, p.innovation, p.band])).toEqual(
        index.products.map((p) => [p.rank, p.productId, p.innovation, p.band]),
      );
      for (const p of reading.capabilityIndex.products) {
        const snapshot = demo.release.products.find((s) => s.productId === p.productId);
        expect(p.rankChange).toBe(0);
        expect(p.scores).toEqual(snapshot?.scores);
        expect(p.publishedScores).toEqual(snapshot?.scores);
        expect(p.bands).toEqual(snapshot?.bands);
      }
      const max = servicemax(demo.release, "FR");
      expect(reading.max?.products.map((p) => [p.rank, p.productId, p.available, p.offering, p.on])).toEqual(
        max.products.map((p) => [p.rank, p.productId, p.available, p.offering, p.available ? p.on : null]),
      );
      for (const p of reading.max?.products ?? []) expect(p.publishedOn).toEqual(p.on);
    }
  });

  it("scores every axis, with and without the controls, as the engine scores a market carrying the weights", () => {
    const ids = demo.market.indicators.map((i) => i.id);
    const weightsOf = fc
      .array(fc.tuple(fc.constantFrom(...ids), fc.oneof(fc.constant(0), fc.double({ min: 0, max: 20, noNaN: true }))), {
        minLength: 1,
        maxLength: 15,
      })
      .map((pairs) => new Map(pairs));
    fc.assert(
      fc.property(weightsOf, fc.constantFrom("FR", "DE", "US"), (weights, country) => {
        fc.pre(checkWhatIfWeights(demo.market, weights).length === 0);
        const engine = scoreMarket(
          carrying(demo.market, weights),
          demo.geographies.filter((g) => g.country === country),
        );
        const reading = whatif(demo.release, weights, country);
        const products = reading.capabilityIndex.products;
        expect(products).toHaveLength(engine.products.length);
        for (const p of products) {
          const scored = engine.products.find((e) => e.productId === p.productId);
          expect(p.scores).toEqual(scored?.scores);
          expect(p.bands).toEqual(scored?.bands);
          expect(p.innovation).toBe(scored?.scores.innovation);
        }
        // Ranked by the recomputed Innovation, highest first.
        for (let i = 1; i < products.length; i++)
          expect(products[i - 1]?.innovation).toBeGreaterThanOrEqual(products[i]?.innovation as number);
        const under = engine.countries[0]?.products ?? [];
        for (const p of reading.max?.products ?? []) {
          const scored = under.find((e) => e.productId === p.productId);
          expect(p.available).toBe(scored?.available);
          expect(p.on).toEqual(scored?.available ? scored.on : null);
          if (p.available) expect(p.retainedInnovation).toBe(p.on?.innovation);
        }
      }),
      { numRuns: 60 },
    );
  });

  /**
   * tiny with a second Control indicator, c2 (weight 1): alpha true, bravo and charlie false (charlie's
   * eu offering keeps its default's false). Published Control: alpha 100, bravo and charlie
   * 100 × 1/2 = 50.
   */
  const twoControls = marketFileSchema.parse({
    ...tiny,
    indicators: [...tiny.indicators, { id: "c2", axis: "control", name: "C2", kind: "boolean", weight: 1 }],
    products: tiny.products.map((p) => ({
      ...p,
      offerings: p.offerings.map((o) =>
        o.default ? { ...o, values: { ...o.values, c2: p.productId === "alpha" } } : o,
      ),
    })),
  });
  const release = scoredRelease(twoControls, geographies, [
    { id: "k1", name: "K one", description: "d", framework: "Test" },
  ]);
  const control = (reading: ReturnType<typeof whatif>) =>
    Object.fromEntries(reading.capabilityIndex.products.map((p) => [p.productId, p.scores.control]));

  it("moves Control with a Control weight, as worked out by hand, and leaves Innovation and its ranks alone", () => {
    expect(control(whatif(release, new Map(), null))).toEqual({ alpha: 100, bravo: 50, charlie: 50 });
    // c2 weighted 3: bravo and charlie 100 × 1/4 = 25; alpha keeps 100.
    const heavier = whatif(release, new Map([["c2", 3]]), "XK");
    expect(control(heavier)).toEqual({ alpha: 100, bravo: 25, charlie: 25 });
    for (const p of heavier.capabilityIndex.products) {
      expect(p.publishedScores.control).toBe(p.productId === "alpha" ? 100 : 50);
      expect(p.scores.innovation).toBe(p.publishedScores.innovation);
      expect(p.rankChange).toBe(0);
    }
    // Under k1 only charlie's eu offering qualifies: it keeps Control 25 (published 50).
    expect(
      heavier.max?.products.map((p) => [
        p.productId,
        p.available,
        p.on?.control ?? null,
        p.publishedOn?.control ?? null,
      ]),
    ).toEqual([
      ["charlie", true, 25, 50],
      ["alpha", false, null, null],
      ["bravo", false, null, null],
    ]);
    // c weighted 0: Control is c2 alone: alpha 100, bravo and charlie 0.
    expect(control(whatif(release, new Map([["c", 0]]), null))).toEqual({ alpha: 100, bravo: 0, charlie: 0 });
  });

  it("gives an unavailable product no score under the controls, whatever the weights", () => {
    for (const weights of [
      new Map<string, number>(),
      new Map([
        ["bench", 5],
        ["c2", 0],
        ["s", 2],
      ]),
    ]) {
      const max = whatif(release, weights, "XK").max;
      for (const p of max?.products ?? []) {
        expect(p.on === null).toBe(!p.available);
        expect(p.publishedOn === null).toBe(!p.available);
      }
      expect(max?.products.filter((p) => !p.available).map((p) => p.productId)).toEqual(["alpha", "bravo"]);
    }
  });

  it("leaves out the Max without a country, and refuses an axis weighted all zero", () => {
    expect(whatif(release, new Map([["bench", 2]]), null)).not.toHaveProperty("max");
    expect(() =>
      whatif(
        release,
        new Map([
          ["c", 0],
          ["c2", 0],
        ]),
        null,
      ),
    ).toThrow(/Every Control weight is zero: give at least one Control indicator a weight above 0\./);
  });
});
