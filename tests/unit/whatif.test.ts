/**
 * What-if weights (server/scoring/whatif.ts): the published weights give the published scoring
 * exactly; other weights give scores worked out here on paper; the validator and the parser name
 * the weight at fault.
 */
import { describe, expect, it } from "vitest";
import { type Geography, marketFileSchema } from "@/server/domain/market-definition";
import { scoreMarket } from "@/server/scoring/engine";
import { checkWhatIfWeights, parseWeightsParam, rescoreWithWeights } from "@/server/scoring/whatif";
import { fixtureGeographies, fixtureMarket, plainDimensions, rulesGeographies } from "../helpers/fixtures";

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
