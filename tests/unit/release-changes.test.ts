/**
 * Release comparison against hand-computed fixtures: each kind of attribution (own values, the
 * field, the method), products entering and leaving, bands, ranks and availability, and the
 * rounding of the parts so they add up to the published change.
 */
import { describe, expect, it } from "vitest";
import type { Geography, MarketFile } from "@/server/1-domain/market-definition";
import { changes, roundedParts } from "@/server/2-comparisons/release-comparison";
import type { ReleaseData } from "@/server/2-readings/release";
import { UnknownCountryError } from "@/server/2-readings/release";
import { scoreMarket } from "@/server/2-scoring/engine";
import { analyseSensitivity } from "@/server/2-scoring/sensitivity";

const GEOGRAPHIES: Geography[] = [
  { country: "XA", name: "Residency", controls: ["residency"] },
  { country: "XC", name: "None", controls: [] },
];
const CONTROLS = [{ id: "residency", name: "Residency", description: "Data stays.", framework: "Test" }];

type Values = { bench: number | null; mm: boolean; res: boolean; regions: number };
type Spec = Record<string, Values & { sovereign?: Partial<Values> }>;

/**
 * Innovation = bench (number, higher, weight `benchWeight`) and mm (boolean, weight 1); Control =
 * res; Scale = regions. A product's `sovereign` offering satisfies the residency control.
 */
function market(products: Spec, options: { benchWeight?: number; innovationBands?: number[] } = {}): MarketFile {
  const bands = (froms: number[]) =>
    froms.map((from, i) => ({ name: ["Foundation", "Established", "Frontier"][i] as string, from }));
  return {
    kind: "market",
    marketId: "sample",
    name: "Sample",
    description: "A sample.",
    methodologyVersion: options.benchWeight ? "2.0" : "1.0",
    methodology: options.benchWeight ? "Bench weighs more." : "Equal weights.",
    dimensions: {
      innovation: { name: "Innovation", description: "I.", bands: bands(options.innovationBands ?? [0, 40, 80]) },
      control: { name: "Control", description: "C.", bands: bands([0, 50]) },
      scale: { name: "Scale", description: "S.", bands: bands([0, 50]) },
    },
    indicators: [
      {
        id: "bench",
        axis: "innovation",
        name: "Bench",
        kind: "number",
        direction: "higher",
        weight: options.benchWeight ?? 1,
      },
      { id: "mm", axis: "innovation", name: "Multimodal", kind: "boolean", weight: 1 },
      { id: "res", axis: "control", name: "Residency", kind: "boolean", weight: 1 },
      { id: "regions", axis: "scale", name: "Regions", kind: "number", direction: "higher", weight: 1 },
    ],
    products: Object.entries(products).map(([id, { sovereign, ...values }]) => ({
      productId: id,
      name: id.toUpperCase(),
      vendor: `${id} Co`,
      offerings: [
        { id: "public", name: "Public", default: true, values },
        ...(sovereign ? [{ id: "sovereign", name: "Sovereign", satisfies: ["residency"], values: sovereign }] : []),
      ],
    })),
  } as MarketFile;
}

function release(number: number, definition: MarketFile): ReleaseData {
  const scored = scoreMarket(definition, GEOGRAPHIES);
  return {
    marketId: definition.marketId,
    name: definition.name,
    description: definition.description,
    release: number,
    lastUpdated: `2026-0${number}-01T00:00:00.000Z`,
    methodologyVersion: definition.methodologyVersion,
    methodology: definition.methodology,
    material: number > 1 && definition.methodologyVersion !== "1.0",
    notes: "",
    dimensions: scored.dimensions,
    products: scored.products,
    controls: CONTROLS,
    countries: new Map(scored.countries.map((c) => [c.country, c])),
    sensitivity: analyseSensitivity(definition, GEOGRAPHIES, { seed: "test", draws: 50 }),
    definition,
    geographies: GEOGRAPHIES,
  };
}

// Release 1: innovation = 100 × (bench normalised over [0, 100] + mm) / 2.
// A: (1 + 1)/2 → 100; B: (0.5 + 0)/2 → 25; C: (0 + 0)/2 → 0.
const FIRST: Spec = {
  a: { bench: 100, mm: true, res: false, regions: 10, sovereign: { res: true } },
  b: { bench: 50, mm: false, res: true, regions: 5 },
  c: { bench: 0, mm: false, res: false, regions: 0 },
};
const first = release(1, market(FIRST));
const product = (comparison: ReturnType<typeof changes>, id: string) =>
  comparison.products.find((p) => p.productId === id) as (typeof comparison.products)[number];

describe("changes: attribution", () => {
  it("puts a change of the product's own values on its own values", () => {
    // B's bench 50 → 75, the field's bounds stay [0, 100]: 100 × 0.75 / 2 = 37.5, +12.5.
    const second = release(2, market({ ...FIRST, b: { ...(FIRST.b as Values), bench: 75 } }));
    const b = product(changes(first, second, "XC"), "b");
    expect(b.scores?.innovation).toEqual({
      from: 25,
      to: 37.5,
      change: 12.5,
      attribution: { ownValues: 12.5, field: 0, method: 0 },
      ownValuesBy: { indicators: [{ indicatorId: "bench", name: "Bench", points: 12.5 }], more: 0 },
    });
    expect(b.scores?.control.change).toBe(0);
  });

  it("puts the field's move on the field when another product changes the bounds", () => {
    // C's bench 0 → 25 moves the field's minimum to 25. B: (50 − 25)/(100 − 25) = 1/3 → 16.7 (−8.3).
    // C itself: its own values +12.5 (25 on [0, 100]), the field −12.5 (25 is the new minimum): 0.
    const second = release(2, market({ ...FIRST, c: { ...(FIRST.c as Values), bench: 25 } }));
    const comparison = changes(first, second, "XC");
    expect(product(comparison, "b").scores?.innovation).toEqual({
      from: 25,
      to: 16.7,
      change: -8.3,
      attribution: { ownValues: 0, field: -8.3, method: 0 },
      ownValuesBy: { indicators: [], more: 0 },
    });
    expect(product(comparison, "c").scores?.innovation).toEqual({
      from: 0,
      to: 0,
      change: 0,
      attribution: { ownValues: 12.5, field: -12.5, method: 0 },
      ownValuesBy: { indicators: [{ indicatorId: "bench", name: "Bench", points: 12.5 }], more: 0 },
    });
    expect(product(comparison, "a").scores?.innovation.change).toBe(0);
  });

  it("puts a change of weights on the method, and reports it at market level", () => {
    // bench weight 1 → 3: B = 100 × (3 × 0.5) / 4 = 37.5 (+12.5); A stays 100; C stays 0.
    const second = release(2, market(FIRST, { benchWeight: 3 }));
    const comparison = changes(first, second, "XC");
    expect(product(comparison, "b").scores?.innovation).toEqual({
      from: 25,
      to: 37.5,
      change: 12.5,
      attribution: { ownValues: 0, field: 0, method: 12.5 },
      ownValuesBy: { indicators: [], more: 0 },
    });
    expect(comparison.market).toMatchObject({
      methodologyChanged: true,
      material: true,
      methodologyVersion: { from: "1.0", to: "2.0" },
      weightsChanged: [{ indicatorId: "bench", from: 1, to: 3 }],
      indicatorNames: [{ indicatorId: "bench", name: "Bench" }],
      indicatorsAdded: [],
      indicatorsRemoved: [],
      indicatorsRedefined: [],
      bandsChanged: [],
    });
  });

  it("splits a change with several causes, the parts adding up to the published change", () => {
    // B bench 50 → 60 and C bench 0 → 20, bench weight 3: B ends at 100 × 3 × (40/80) / 4 = 37.5.
    // Own: B at 60 on [0, 100], equal weights: 30 (+5). Field: on [20, 100]: 25 (−5). Method: 37.5 (+12.5).
    const second = release(
      2,
      market(
        { ...FIRST, b: { ...(FIRST.b as Values), bench: 60 }, c: { ...(FIRST.c as Values), bench: 20 } },
        { benchWeight: 3 },
      ),
    );
    const b = product(changes(first, second, "XC"), "b");
    expect(b.scores?.innovation).toEqual({
      from: 25,
      to: 37.5,
      change: 12.5,
      attribution: { ownValues: 5, field: -5, method: 12.5 },
      ownValuesBy: { indicators: [{ indicatorId: "bench", name: "Bench", points: 5 }], more: 0 },
    });
  });
});

describe("changes: which indicators moved, and first place", () => {
  it("names each indicator whose value moved an axis, with its points, largest first", () => {
    // B bench 50 → 75 (+0.25 × 100 / 2 = +12.5) and mm no → yes (+1 × 100 / 2 = +50): 25 → 87.5.
    const second = release(2, market({ ...FIRST, b: { ...(FIRST.b as Values), bench: 75, mm: true } }));
    const b = product(changes(first, second, "XC"), "b");
    expect(b.scores?.innovation.change).toBe(62.5);
    expect(b.scores?.innovation.ownValuesBy).toEqual({
      indicators: [
        { indicatorId: "mm", name: "Multimodal", points: 50 },
        { indicatorId: "bench", name: "Bench", points: 12.5 },
      ],
      more: 0,
    });
    expect(b.scores?.control.ownValuesBy).toEqual({ indicators: [], more: 0 });
  });

  it("says who held first place in each release: the Capability Index, and Max among the usable only", () => {
    // B bench 50 → 100 and mm yes: 100, tied with A at first. Under XA only A's sovereign offering is usable.
    const second = release(2, market({ ...FIRST, b: { ...(FIRST.b as Values), bench: 100, mm: true } }));
    const a = { productId: "a", name: "A" };
    const b = { productId: "b", name: "B" };
    expect(changes(first, second, "XC").market.firstPlace.capabilityIndex).toEqual({ from: [a], to: [a, b] });
    expect(changes(first, second, "XA").market.firstPlace.max).toEqual({ from: [a], to: [a] });
  });
});

describe("changes: the field and the readings", () => {
  it("names products entering and leaving, without scores to attribute", () => {
    const { c: _left, ...rest } = FIRST;
    const second = release(2, market({ ...rest, d: { bench: 20, mm: true, res: false, regions: 1 } }));
    const comparison = changes(first, second, "XC");
    expect(comparison.market.productsAdded).toEqual(["d"]);
    expect(comparison.market.productsRemoved).toEqual(["c"]);
    expect(product(comparison, "d")).toMatchObject({ status: "entered", scores: null });
    // D on the field [20, 100]: (0 + 1)/2 → 50, behind A (100), ahead of B ((30/80)/2 → 18.8).
    expect(product(comparison, "d").capabilityIndexRank).toEqual({ from: null, to: 2, movedUp: null, change: null });
    expect(product(comparison, "c")).toMatchObject({ status: "left", scores: null });
    expect(product(comparison, "c").capabilityIndexRank).toEqual({ from: 3, to: null, movedUp: null, change: null });
    // The later release's products by name, then those that left.
    expect(comparison.products.map((p) => p.productId)).toEqual(["a", "b", "d", "c"]);
  });

  it("reports band and rank changes", () => {
    // Innovation bands from [0, 40, 80] to [0, 20, 30]: B's 25 moves from Foundation to Established.
    const second = release(2, market(FIRST, { innovationBands: [0, 20, 30] }));
    const comparison = changes(first, second, "XC");
    expect(product(comparison, "b").bands.innovation).toEqual({ from: "Foundation", to: "Established", changed: true });
    expect(comparison.market.bandsChanged.map((b) => b.axis)).toEqual(["innovation"]);
    // The same bands with their keys in another order (as jsonb hands a stored release back) are no change.
    const reordered = {
      ...first,
      dimensions: first.dimensions.map((d) => ({
        ...d,
        bands: d.bands.map(({ to, from, name }) => ({ to, from, name })),
      })),
    };
    expect(changes(reordered, release(2, market(FIRST)), "XC").market.bandsChanged).toEqual([]);
    // A loses bench and multimodality: A → 0; the field becomes [0, 50], so B → (1 + 0)/2 → 50 and leads.
    const third = release(3, market({ ...FIRST, a: { ...(FIRST.a as Values), bench: 0, mm: false } }));
    const ranks = changes(first, third, "XC");
    expect(product(ranks, "a").capabilityIndexRank).toEqual({ from: 1, to: 2, movedUp: -1, change: 1 });
    expect(product(ranks, "b").capabilityIndexRank).toEqual({ from: 2, to: 1, movedUp: 1, change: -1 });
  });

  it("reports availability under the country's controls", () => {
    // A's sovereign offering is withdrawn: under XA it becomes unavailable; B (resident by default) stays.
    const { sovereign: _gone, ...aPublic } = FIRST.a as Values & { sovereign?: Partial<Values> };
    const second = release(2, market({ ...FIRST, a: aPublic }));
    const comparison = changes(first, second, "xa");
    expect(comparison.country).toBe("XA");
    expect(product(comparison, "a").max).toMatchObject({
      available: { from: true, to: false },
      offering: { from: "sovereign", to: null },
      availability: "became_unavailable",
    });
    expect(product(comparison, "b").max.availability).toBe("unchanged");
    expect(product(comparison, "c").max.availability).toBe("unchanged");
    expect(() => changes(first, second, "ZZ")).toThrow(UnknownCountryError);
  });
});

describe("roundedParts", () => {
  it("rounds each part and gives the left-over tenths to the part rounding moved furthest", () => {
    expect(roundedParts({ ownValues: 0.04, field: 0.04, method: 0.04 }, 0.1)).toEqual({
      ownValues: 0.1,
      field: 0,
      method: 0,
    });
    expect(roundedParts({ ownValues: 0.04, field: 0.06, method: 0 }, 0)).toEqual({ ownValues: 0, field: 0, method: 0 });
    // −3.2 + 1.1 + 0 = −2.1, a tenth above −2.2: field's rounding (1.06 → 1.1) went furthest up.
    expect(roundedParts({ ownValues: -3.16, field: 1.06, method: 0.02 }, -2.2)).toEqual({
      ownValues: -3.2,
      field: 1,
      method: 0,
    });
    // A tie goes to the first part in the order own values, field, method.
    expect(roundedParts({ ownValues: -3.14, field: 1.06, method: 0.02 }, -2.1)).toEqual({
      ownValues: -3.2,
      field: 1.1,
      method: 0,
    });
  });

  it("always adds up to the change", () => {
    for (let i = 0; i < 500; i++) {
      const exact = {
        ownValues: (Math.random() - 0.5) * 40,
        field: (Math.random() - 0.5) * 40,
        method: (Math.random() - 0.5) * 40,
      };
      const change = Math.round((exact.ownValues + exact.field + exact.method) * 10) / 10;
      const parts = roundedParts(exact, change);
      expect(Math.round((parts.ownValues + parts.field + parts.method) * 10) + 0).toBe(Math.round(change * 10) + 0);
    }
  });
});
