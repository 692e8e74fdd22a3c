/** Properties of the scoring engine over generated markets (fast-check). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AXES, type MarketFile } from "@/server/1-domain/market-definition";
import { scoreMarket } from "@/server/2-scoring/engine";
import { round1 } from "@/server/2-scoring/round";
import { GENERATED_CONTROLS, generatedGeographies, generatedMarketFile } from "../helpers/generated-markets";

const CONTROLS = GENERATED_CONTROLS;

const indicatorArb = (axis: string, index: number) =>
  fc
    .oneof(
      fc.record({
        kind: fc.constant("number" as const),
        direction: fc.constantFrom("higher" as const, "lower" as const),
      }),
      fc.record({ kind: fc.constant("boolean" as const) }),
      fc.record({ kind: fc.constant("level" as const), levels: fc.integer({ min: 2, max: 5 }) }),
    )
    .chain((shape) =>
      fc.double({ min: 0.1, max: 10, noNaN: true }).map((weight) => {
        const base = { id: `${axis}-${index}`, axis, name: `${axis} ${index}`, weight };
        return shape.kind === "level"
          ? { ...base, kind: "level", levels: Array.from({ length: shape.levels }, (_, i) => `L${i}`) }
          : { ...base, ...shape };
      }),
    );

type IndicatorShape = { id: string; kind: string; levels?: string[] };

const valueArb = (indicator: IndicatorShape) => {
  const present: fc.Arbitrary<number | boolean | string> =
    indicator.kind === "number"
      ? fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }))
      : indicator.kind === "boolean"
        ? fc.boolean()
        : fc.constantFrom(...(indicator.levels ?? []));
  return fc.option(present, { nil: null, freq: 4 });
};

const valuesArb = (indicators: IndicatorShape[], partial: boolean) =>
  fc
    .tuple(...indicators.map((i) => fc.tuple(fc.boolean(), valueArb(i))))
    .map((pairs) =>
      Object.fromEntries(
        pairs.flatMap(([include, value], k) => (partial && !include ? [] : [[indicators[k]?.id as string, value]])),
      ),
    );

const marketArb: fc.Arbitrary<MarketFile> = fc
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
          fc.constantFrom("Atlas", "Borealis", "Cirrus", "Atlas"), // repeated names exercise the name/id tie-break
          valuesArb(indicators, true),
          fc.array(fc.tuple(fc.subarray(CONTROLS), valuesArb(indicators, true)), { maxLength: 3 }),
        )
        .map(([name, values, sovereign]) => ({
          productId: `p${index}`,
          name,
          vendor: `Vendor ${index}`,
          offerings: [
            { id: "default", name: "Default", default: true, satisfies: [], values },
            ...sovereign.map(([satisfies, overrides], k) => ({
              id: `sovereign-${k}`,
              name: `Sovereign ${k}`,
              satisfies,
              values: overrides,
            })),
          ],
        }));
    return fc
      .integer({ min: 1, max: 8 })
      .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => product(i))))
      .map((products) => generatedMarketFile(indicators, products));
  });

const geographiesArb = generatedGeographies;

const isOneDecimal = (x: number) => round1(x) === x;

describe("scoring properties", () => {
  it("keeps every score within 0..100 and at one decimal", () => {
    fc.assert(
      fc.property(marketArb, geographiesArb, (market, geographies) => {
        const result = scoreMarket(market, geographies);
        const all = [
          ...result.products.map((p) => p.scores),
          ...result.countries.flatMap((c) => c.products.map((p) => p.on)),
        ];
        for (const scores of all)
          for (const axis of AXES) {
            expect(scores[axis]).toBeGreaterThanOrEqual(0);
            expect(scores[axis]).toBeLessThanOrEqual(100);
            expect(isOneDecimal(scores[axis])).toBe(true);
          }
      }),
    );
  });

  it("moves nothing under an empty control set: on = off, distance 0", () => {
    fc.assert(
      fc.property(marketArb, geographiesArb, (market, geographies) => {
        const result = scoreMarket(market, geographies);
        const none = result.countries.find((c) => c.country === "ZZ");
        result.products.forEach((p, i) => {
          const moved = none?.products[i];
          expect(moved?.available).toBe(true);
          expect(moved?.on).toEqual(p.scores);
          expect(moved?.distance).toEqual({ innovation: 0, control: 0, scale: 0, magnitude: 0 });
        });
      }),
    );
  });

  it("computes distance = on − off from rounded scores, and its Euclidean magnitude", () => {
    fc.assert(
      fc.property(marketArb, geographiesArb, (market, geographies) => {
        const result = scoreMarket(market, geographies);
        for (const country of result.countries)
          country.products.forEach((moved, i) => {
            const off = result.products[i]?.scores;
            if (!off) throw new Error("missing product");
            for (const axis of AXES) expect(moved.distance[axis]).toBe(round1(moved.on[axis] - off[axis]));
            const { innovation, control, scale } = moved.distance;
            expect(moved.distance.magnitude).toBe(round1(Math.sqrt(innovation ** 2 + control ** 2 + scale ** 2)));
            if (!moved.available) expect(moved.missingControls.length).toBeGreaterThan(0);
          });
      }),
    );
  });

  it("is deterministic: the same input gives the same bytes", () => {
    fc.assert(
      fc.property(marketArb, geographiesArb, (market, geographies) => {
        const first = JSON.stringify(scoreMarket(market, geographies));
        const second = JSON.stringify(scoreMarket(structuredClone(market), structuredClone(geographies)));
        expect(second).toBe(first);
      }),
    );
  });

  it("does not depend on the order of products or geographies in the input", () => {
    fc.assert(
      fc.property(
        marketArb,
        geographiesArb,
        fc.array(fc.integer(), { minLength: 8, maxLength: 8 }),
        (market, geographies, keys) => {
          const shuffled = {
            ...market,
            products: market.products
              .map((p, i) => ({ p, key: keys[i] ?? 0 }))
              .sort((a, b) => a.key - b.key)
              .map(({ p }) => p),
          };
          expect(JSON.stringify(scoreMarket(shuffled, [...geographies].reverse()))).toBe(
            JSON.stringify(scoreMarket(market, geographies)),
          );
        },
      ),
    );
  });
});
