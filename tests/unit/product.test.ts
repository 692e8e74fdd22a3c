/**
 * The product breakdown against hand-computed cases: contributions rounded so they add up, the
 * field bounds, evidence on the value it documents, overrides, and what a country keeps.
 */
import { describe, expect, it } from "vitest";
import type { Geography, MarketFile } from "@/server/1-domain/market-definition";
import { product, UnknownProductError } from "@/server/2-readings/product";
import type { ReleaseData } from "@/server/2-readings/release";
import { UnknownCountryError } from "@/server/2-readings/release";
import { scoreMarket } from "@/server/2-scoring/engine";
import { partsAddingUp } from "@/server/2-scoring/round";
import { analyseSensitivity } from "@/server/2-scoring/sensitivity";

const GEOGRAPHIES: Geography[] = [
  { country: "XA", name: "Residency", controls: ["residency"] },
  { country: "XB", name: "Vetting", controls: ["vetting"] },
];
const CONTROLS = [
  { id: "residency", name: "Residency", description: "Data stays.", framework: "Test" },
  { id: "vetting", name: "Vetting", description: "Staff vetted.", framework: "Test" },
];
const EVIDENCE = { source: "Demo document (fictional): Alpha API reference §2", asOf: "2026-01-31" };

const bands = [
  { name: "Foundation", from: 0 },
  { name: "Frontier", from: 50 },
];

/** Innovation: three equal weights (a, b boolean; bench number, higher). Control: res. Scale: regions. */
const MARKET = {
  kind: "market",
  marketId: "sample",
  name: "Sample",
  description: "A sample.",
  methodologyVersion: "1.0",
  methodology: "Equal weights.",
  dimensions: {
    innovation: { name: "Innovation", description: "I.", bands },
    control: { name: "Control", description: "C.", bands },
    scale: { name: "Scale", description: "S.", bands },
  },
  indicators: [
    { id: "a", axis: "innovation", name: "A", kind: "boolean", weight: 1 },
    { id: "b", axis: "innovation", name: "B", kind: "boolean", weight: 1 },
    { id: "bench", axis: "innovation", name: "Bench", kind: "number", direction: "higher", unit: "pts", weight: 1 },
    { id: "res", axis: "control", name: "Residency", kind: "boolean", weight: 1 },
    { id: "regions", axis: "scale", name: "Regions", kind: "number", direction: "higher", weight: 2 },
  ],
  products: [
    {
      productId: "alpha",
      name: "Alpha",
      vendor: "Alpha Co",
      offerings: [
        {
          id: "public",
          name: "Public",
          default: true,
          satisfies: [],
          values: { a: true, b: true, bench: 40, res: false, regions: 3 },
          evidence: { bench: { ...EVIDENCE, confidence: "vendor-claimed" } },
        },
        {
          id: "sovereign",
          name: "Sovereign",
          satisfies: ["residency"],
          values: { b: false, res: true },
          evidence: {
            res: { source: "https://example.test/alpha/residency", asOf: "2026-01-15", confidence: "verified" },
          },
        },
      ],
    },
    {
      productId: "bravo",
      name: "Bravo",
      vendor: "Bravo Co",
      offerings: [
        {
          id: "public",
          name: "Public",
          default: true,
          satisfies: [],
          values: { a: false, b: true, bench: 20, res: false, regions: null },
          evidence: {},
        },
      ],
    },
    {
      productId: "charlie",
      name: "Charlie",
      vendor: "Charlie Co",
      offerings: [
        {
          id: "public",
          name: "Public",
          default: true,
          satisfies: [],
          values: { a: false, b: false, bench: 10, res: false, regions: 1 },
          evidence: {},
        },
      ],
    },
  ],
} as unknown as MarketFile;

function release(): ReleaseData {
  const scored = scoreMarket(MARKET, GEOGRAPHIES);
  return {
    marketId: "sample",
    name: "Sample",
    description: "A sample.",
    release: 1,
    lastUpdated: "2026-02-02T09:00:00.000Z",
    methodologyVersion: "1.0",
    methodology: "Equal weights.",
    material: false,
    notes: "",
    dimensions: scored.dimensions,
    products: scored.products,
    controls: CONTROLS,
    countries: new Map(scored.countries.map((c) => [c.country, c])),
    sensitivity: analyseSensitivity(MARKET, GEOGRAPHIES, { seed: "test", draws: 50 }),
    definition: MARKET,
    geographies: GEOGRAPHIES,
  };
}

describe("partsAddingUp", () => {
  it("gives the tenth rounding leaves over to the part rounding moved furthest", () => {
    // 100/3 each: 33.3 × 3 = 99.9, one short of 100.0; ties go to the first part.
    expect(partsAddingUp([100 / 3, 100 / 3, 100 / 3], 100)).toEqual([33.4, 33.3, 33.3]);
    // 10.0 + 10.0 + 10.1 = 30.1, a tenth short of 30.2: the 10.04s were rounded down furthest (0.04).
    expect(partsAddingUp([10.04, 10.04, 10.07], 30.2)).toEqual([10.1, 10, 10.1]);
    // Signed: −1.3 + −1.3 overshoots −2.5 by a tenth; the first −1.26 gives it back.
    expect(partsAddingUp([-1.26, -1.26], -2.5)).toEqual([-1.2, -1.3]);
  });
});

describe("product", () => {
  it("breaks Alpha's Innovation 100 into three contributions that add up: 33.4 + 33.3 + 33.3", () => {
    const detail = product(release(), "alpha", null);
    expect(detail.scores.innovation).toBe(100);
    expect(detail.axes.innovation.weightTotal).toBe(3);
    expect(detail.axes.innovation.indicators.map((i) => [i.indicatorId, i.normalized, i.contribution])).toEqual([
      ["a", 1, 33.4],
      ["b", 1, 33.3],
      ["bench", 1, 33.3],
    ]);
  });

  it("scales a number against the field's min and max: Bravo's bench 20 in [10, 40] is 0.3333 and 11.1 points", () => {
    const detail = product(release(), "bravo", null);
    const bench = detail.axes.innovation.indicators.find((i) => i.indicatorId === "bench");
    expect(bench).toMatchObject({ value: 20, unit: "pts", direction: "higher", field: { min: 10, max: 40 } });
    expect(bench?.normalized).toBe(0.3333);
    // Innovation = 100 × (0 + 1 + 1/3) / 3 = 44.44… → 44.4; b gives 33.33…, bench 11.11….
    expect(detail.scores.innovation).toBe(44.4);
    expect(detail.axes.innovation.indicators.map((i) => i.contribution)).toEqual([0, 33.3, 11.1]);
  });

  it("marks a gap, which contributes nothing, and leaves a level's or yes/no's field null", () => {
    const detail = product(release(), "bravo", null);
    expect(detail.gaps).toEqual(["regions"]);
    expect(detail.axes.scale.indicators[0]).toMatchObject({
      indicatorId: "regions",
      value: null,
      gap: true,
      contribution: 0,
    });
    expect(detail.axes.control.indicators[0]?.field).toBeNull();
  });

  it("carries each value's evidence, and lists what each offering overrides with its own evidence", () => {
    const detail = product(release(), "alpha", null);
    expect(detail.axes.innovation.indicators.find((i) => i.indicatorId === "bench")?.evidence).toEqual({
      ...EVIDENCE,
      confidence: "vendor-claimed",
    });
    expect(detail.axes.innovation.indicators.find((i) => i.indicatorId === "a")?.evidence).toBeNull();
    expect(detail.offerings.map((o) => [o.offeringId, o.default])).toEqual([
      ["public", true],
      ["sovereign", false],
    ]);
    expect(detail.offerings[1]?.overrides).toEqual([
      { indicatorId: "b", value: false, evidence: null },
      {
        indicatorId: "res",
        value: true,
        evidence: { source: "https://example.test/alpha/residency", asOf: "2026-01-15", confidence: "verified" },
      },
    ]);
    // Sovereign: Innovation 100 × 2/3 = 66.7, Control 100.
    expect(detail.offerings[1]?.scores).toMatchObject({ innovation: 66.7, control: 100 });
  });

  it("shows what a country keeps, indicator by indicator: Alpha under XA loses b (−33.3) and gains residency", () => {
    const detail = product(release(), "alpha", "XA");
    const under = detail.underControls;
    expect(under).toMatchObject({ country: "XA", available: true, offering: { id: "sovereign", name: "Sovereign" } });
    expect(under?.controls).toEqual([{ id: "residency", name: "Residency" }]);
    expect(under?.underControls).toMatchObject({ innovation: 66.7, control: 100 });
    expect(
      under?.axes.innovation.indicators.map((i) => [i.indicatorId, i.contribution, i.change, i.overridden]),
    ).toEqual([
      ["a", 33.4, 0, false],
      ["b", 0, -33.3, true],
      ["bench", 33.3, 0, false],
    ]);
    expect(under?.axes.control.indicators[0]).toMatchObject({
      change: 100,
      overridden: true,
      evidence: { confidence: "verified" },
    });
  });

  it("keeps nothing where the product is unavailable, naming the missing controls", () => {
    const under = product(release(), "alpha", "XB").underControls;
    expect(under).toMatchObject({ available: false, offering: null, missingControls: ["vetting"] });
    for (const axis of ["innovation", "control", "scale"] as const)
      for (const i of under?.axes[axis].indicators ?? []) expect(i).toMatchObject({ value: null, contribution: 0 });
    expect(under?.axes.innovation.indicators.map((i) => i.change)).toEqual([-33.4, -33.3, -33.3]);
  });

  it("refuses an unknown product and an unknown country", () => {
    expect(() => product(release(), "zulu", null)).toThrow(UnknownProductError);
    expect(() => product(release(), "alpha", "ZZ")).toThrow(UnknownCountryError);
  });
});
