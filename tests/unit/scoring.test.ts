/**
 * Scoring engine against hand-computed examples (tests/fixtures/market.yaml). Every expected
 * number below was worked out on paper from docs/methodology.md; the arithmetic is in the comments.
 */
import { describe, expect, it } from "vitest";
import { type Indicator, marketFileSchema } from "@/server/1-domain/market-definition";
import { bandOf, scoreMarket } from "@/server/2-scoring/engine";
import { normalize } from "@/server/2-scoring/normalize";
import { round1 } from "@/server/2-scoring/round";
import { fixtureGeographies, fixtureMarket, plainDimensions } from "../helpers/fixtures";

const scored = () => scoreMarket(fixtureMarket(), fixtureGeographies().geographies);
const product = (id: string) => scored().products.find((p) => p.productId === id);
const inCountry = (country: string, productId: string) => {
  const result = scored();
  const index = result.products.findIndex((p) => p.productId === productId);
  return result.countries.find((c) => c.country === country)?.products[index];
};

describe("published scores", () => {
  // Field bounds over the default offerings: bench [60, 90], latency [100, 400], regions [6, 30].
  it("scores Alpha: number higher, number lower, boolean, level", () => {
    // innovation = 100 × (3×(90−60)/30 + 1×(1 − (200−100)/300) + 1×1) / 5 = 100 × 4.6667/5 = 93.3
    // control    = 100 × (2×0 + 1×1/2) / 3 = 16.7;  scale = 100 × (1×3/3 + 1×(30−6)/24) / 2 = 100
    expect(product("alpha")).toEqual({
      productId: "alpha",
      name: "Alpha",
      vendor: "Alpha Co",
      scores: { innovation: 93.3, control: 16.7, scale: 100 },
      bands: { innovation: "Frontier", control: "Foundation", scale: "Frontier" },
      gaps: [],
    });
  });

  it("scores Bravo at the bottom and top of the field", () => {
    // innovation = 100 × (0 + 1×1 + 0) / 5 = 20;  control = 100 × (2 + 1) / 3 = 100
    // scale = 100 × (1/3 + 0) / 2 = 16.7
    expect(product("bravo")?.scores).toEqual({ innovation: 20, control: 100, scale: 16.7 });
    expect(product("bravo")?.bands).toEqual({ innovation: "Foundation", control: "Frontier", scale: "Foundation" });
  });

  it("scores a missing value as 0 and lists it in gaps", () => {
    // innovation = 100 × (3×0.5 + 0 + 1) / 5 = 50;  control = 100 × 2/3 = 66.7
    // scale = 100 × (0 [sla missing] + (10−6)/24) / 2 = 8.3
    expect(product("charlie")?.scores).toEqual({ innovation: 50, control: 66.7, scale: 8.3 });
    expect(product("charlie")?.gaps).toEqual(["sla"]);
    // 66.7 is exactly the Control Frontier cutoff: a band covers [from, next.from).
    expect(product("charlie")?.bands).toEqual({ innovation: "Established", control: "Frontier", scale: "Foundation" });
  });

  it("orders products by name and describes dimensions with band ranges", () => {
    const result = scored();
    expect(result.products.map((p) => p.productId)).toEqual(["alpha", "bravo", "charlie"]);
    expect(result.dimensions.map((d) => d.id)).toEqual(["innovation", "control", "scale"]);
    expect(result.dimensions[0]?.bands).toEqual([
      { name: "Foundation", from: 0, to: 40 },
      { name: "Established", from: 40, to: 80 },
      { name: "Frontier", from: 80, to: 100 },
    ]);
    expect(result.dimensions[0]?.indicators.map((i) => [i.id, i.weight])).toEqual([
      ["bench", 3],
      ["latency", 1],
      ["multimodal", 1],
    ]);
  });
});

describe("under controls", () => {
  it("engages the satisfying offering with the highest Innovation, clamping above the field", () => {
    // XA = {eu-data-residency}: eu-region (inn 33.3) and eu-plus qualify. eu-plus: bench 95 > max 90 → 1,
    // multimodal false: innovation = 100 × (3 + 0.6667 + 0)/5 = 73.3; control = 100 × (2 + 0.5)/3 = 83.3;
    // scale = 100 × (1/3 + 1)/2 = 66.7.  distance = (−20, 66.6, −33.3), |d| = √5944.45 = 77.1
    expect(inCountry("XA", "alpha")).toEqual({
      productId: "alpha",
      available: true,
      offering: { id: "eu-plus", name: "EU plus" },
      missingControls: [],
      on: { innovation: 73.3, control: 83.3, scale: 66.7 },
      distance: { innovation: -20, control: 66.6, scale: -33.3, magnitude: 77.1 },
    });
  });

  it("clamps an offering below the field to 0", () => {
    // XB = {eu-data-residency, eu-resident-ops}: only eu-region. bench 50 < min 60 → 0, regions 3 < 6 → 0.
    // innovation = 100 × (0 + 0.6667 + 1)/5 = 33.3; control = 83.3; scale = 100 × (1 + 0)/2 = 50
    expect(inCountry("XB", "alpha")?.on).toEqual({ innovation: 33.3, control: 83.3, scale: 50 });
    expect(inCountry("XB", "alpha")?.offering?.id).toBe("eu-region");
  });

  it("keeps a default offering that already satisfies the controls: nothing moves", () => {
    expect(inCountry("XA", "bravo")).toMatchObject({
      available: true,
      offering: { id: "public", name: "Public" },
      on: { innovation: 20, control: 100, scale: 16.7 },
      distance: { innovation: 0, control: 0, scale: 0, magnitude: 0 },
    });
  });

  it("makes a product with no satisfying offering unavailable: zeros and the missing controls", () => {
    // Charlie off = (50, 66.7, 8.3) → on 0: distance (−50, −66.7, −8.3), |d| = √7017.78 = 83.8
    expect(inCountry("XA", "charlie")).toEqual({
      productId: "charlie",
      available: false,
      offering: null,
      missingControls: ["eu-data-residency"],
      on: { innovation: 0, control: 0, scale: 0 },
      distance: { innovation: -50, control: -66.7, scale: -8.3, magnitude: 83.8 },
    });
    expect(inCountry("XB", "bravo")?.missingControls).toEqual(["eu-resident-ops"]);
    expect(inCountry("XB", "charlie")?.missingControls).toEqual(["eu-data-residency", "eu-resident-ops"]);
  });

  it("names what the closest offering lacks when the controls are split across offerings", () => {
    // XD = {customer-held-keys, eu-resident-ops}: keys satisfies one, eu-region the other, none both.
    // Both cover one control; by id eu-region < keys, so the list is what eu-region lacks.
    expect(inCountry("XD", "alpha")).toMatchObject({ available: false, missingControls: ["customer-held-keys"] });
  });

  it("moves nothing in a country without controls", () => {
    for (const id of ["alpha", "bravo", "charlie"]) {
      const moved = inCountry("XC", id);
      expect(moved?.on).toEqual(product(id)?.scores);
      expect(moved?.distance).toEqual({ innovation: 0, control: 0, scale: 0, magnitude: 0 });
      expect(moved?.offering?.id).toBe("public");
    }
  });
});

describe("tie rules for the engaged offering", () => {
  const market = (offerings: object[]) =>
    marketFileSchema.parse({
      kind: "market",
      marketId: "ties",
      name: "Ties",
      description: "d",
      methodologyVersion: "1",
      methodology: "m",
      dimensions: plainDimensions(50),
      indicators: [
        { id: "i", axis: "innovation", name: "i", kind: "boolean", weight: 1 },
        { id: "c", axis: "control", name: "c", kind: "boolean", weight: 1 },
        { id: "s", axis: "scale", name: "s", kind: "boolean", weight: 1 },
      ],
      products: [{ productId: "p", name: "P", vendor: "V", offerings }],
    });
  const engaged = (offerings: object[]) =>
    scoreMarket(market(offerings), [{ country: "XX", name: "X", controls: ["k"] }]).countries[0]?.products[0]?.offering
      ?.id;
  const base = { id: "default", name: "Default", default: true, values: { i: true, c: false, s: true } };

  it("prefers higher Innovation", () => {
    expect(
      engaged([
        base,
        { id: "a", name: "A", satisfies: ["k"], values: { i: false } },
        { id: "b", name: "B", satisfies: ["k"] },
      ]),
    ).toBe("b");
  });
  it("then higher Scale", () => {
    expect(
      engaged([
        base,
        { id: "a", name: "A", satisfies: ["k"], values: { s: false } },
        { id: "b", name: "B", satisfies: ["k"] },
      ]),
    ).toBe("b");
  });
  it("then the smaller id", () => {
    expect(
      engaged([base, { id: "zeta", name: "Z", satisfies: ["k"] }, { id: "alpha", name: "A", satisfies: ["k"] }]),
    ).toBe("alpha");
  });
});

describe("normalisation", () => {
  const higher = { id: "n", axis: "innovation", name: "n", kind: "number", direction: "higher", weight: 1 } as const;
  const lower = { ...higher, direction: "lower" } as const;

  it("gives every product 1 when the field is all equal", () => {
    expect(normalize(higher, 50, { min: 50, max: 50 })).toBe(1);
    expect(normalize(lower, 50, { min: 50, max: 50 })).toBe(1);
  });
  it("scores an offering outside an all-equal field by whether it is at least as good", () => {
    expect(normalize(higher, 60, { min: 50, max: 50 })).toBe(1);
    expect(normalize(higher, 40, { min: 50, max: 50 })).toBe(0);
    expect(normalize(lower, 40, { min: 50, max: 50 })).toBe(1);
    expect(normalize(lower, 60, { min: 50, max: 50 })).toBe(0);
  });
  it("scores missing values as 0, levels by index / (n − 1)", () => {
    expect(normalize(higher, null, { min: 0, max: 10 })).toBe(0);
    expect(normalize(higher, undefined, { min: 0, max: 10 })).toBe(0);
    const level: Indicator = {
      id: "l",
      axis: "scale",
      name: "l",
      kind: "level",
      levels: ["a", "b", "c", "d", "e"],
      weight: 1,
    };
    expect(normalize(level, "d", undefined)).toBe(0.75);
  });
  it("scores an all-equal field in a whole market as 100", () => {
    const m = fixtureMarket();
    for (const p of m.products) for (const o of p.offerings) if (o.default) o.values.bench = 70;
    const alpha = scoreMarket(m, []).products.find((p) => p.productId === "alpha");
    // bench 1 for all: innovation = 100 × (3 + 0.6667 + 1)/5 = 93.3 (unchanged for Alpha, who led anyway)
    expect(alpha?.scores.innovation).toBe(93.3);
    const bravo = scoreMarket(m, []).products.find((p) => p.productId === "bravo");
    // Bravo: 100 × (3 + 1 + 0)/5 = 80
    expect(bravo?.scores.innovation).toBe(80);
  });
});

describe("rounding and bands", () => {
  it("rounds half away from zero to one decimal without float noise", () => {
    expect(round1(12.25)).toBe(12.3);
    expect(round1(1.45)).toBe(1.5); // 1.45 × 10 = 14.499999999999998 in binary floating point
    expect(round1(-8.8)).toBe(-8.8);
    expect(round1(73.3 - 93.3)).toBe(-20); // −20.000000000000014
    expect(round1(66.66666)).toBe(66.7);
    expect(round1(-0.04)).toBe(0);
    expect(Object.is(round1(-0.04), -0)).toBe(false);
  });
  it("finds a score's band: [from, next.from), the last one up to 100", () => {
    const bands = [
      { name: "Foundation", from: 0, to: 40 },
      { name: "Established", from: 40, to: 80 },
      { name: "Frontier", from: 80, to: 100 },
    ];
    expect(bandOf(bands, 0)).toBe("Foundation");
    expect(bandOf(bands, 39.9)).toBe("Foundation");
    expect(bandOf(bands, 40)).toBe("Established");
    expect(bandOf(bands, 100)).toBe("Frontier");
  });
});
