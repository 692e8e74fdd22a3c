/** Readings over a hand-made release: ranking, ties, order, and the Max/Delta payloads. */
import { describe, expect, it } from "vitest";
import type { MarketFile } from "@/server/1-domain/market-definition";
import type { ProductScore, ProductUnderControls } from "@/server/1-domain/scores";
import type { AxisSensitivity, MarketSensitivity } from "@/server/1-domain/sensitivity";
import { capaindex } from "@/server/2-readings/capaindex";
import { delta } from "@/server/2-readings/delta";
import { type ReleaseData, UnknownCountryError } from "@/server/2-readings/release";
import { servicemax } from "@/server/2-readings/servicemax";
import { snapshot } from "@/server/2-readings/snapshot";

const published = (productId: string, name: string, innovation: number): ProductScore => ({
  productId,
  name,
  vendor: `${name} Inc`,
  scores: { innovation, control: 50, scale: 60 },
  bands: { innovation: innovation >= 80 ? "Frontier" : "Foundation", control: "Foundation", scale: "Foundation" },
  gaps: [],
});

// Products in the snapshot's order (by name), as the engine stores them.
const products = [
  published("delta-ai", "Delta AI", 80),
  published("echo", "Echo", 90),
  published("alpha", "Alpha", 80),
  published("zulu", "Zulu", 70),
].sort((a, b) => a.name.localeCompare(b.name));

const moved = (p: ProductScore, on: number | null): ProductUnderControls =>
  on === null
    ? {
        productId: p.productId,
        available: false,
        offering: null,
        missingControls: ["eu-data-residency"],
        on: { innovation: 0, control: 0, scale: 0 },
        distance: { innovation: -p.scores.innovation, control: -50, scale: -60, magnitude: 0 },
      }
    : {
        productId: p.productId,
        available: true,
        offering: { id: "eu", name: "EU" },
        missingControls: [],
        on: { innovation: on, control: 70, scale: 60 },
        distance: { innovation: on - p.scores.innovation, control: 20, scale: 0, magnitude: 0 },
      };

const onInnovation: Record<string, number | null> = { alpha: 40, "delta-ai": 75, echo: null, zulu: 75 };

// A hand-made analysis whose numbers differ per product, so a reading that joined the wrong
// product's entry would show it.
const axis = (p5: number, p95: number, settled: boolean): AxisSensitivity => ({
  interval: { p5, p95 },
  bands: settled ? { Foundation: 1, Frontier: 0 } : { Foundation: 0.4, Frontier: 0.6 },
  bandSettled: settled,
});
const RANKS: Record<string, [number, number]> = { alpha: [2, 3], "delta-ai": [1, 4], echo: [1, 1], zulu: [3, 4] };
const MAX_RANKS: Record<string, [number, number]> = { alpha: [3, 3], "delta-ai": [1, 2], echo: [4, 4], zulu: [1, 3] };
const sensitivity: MarketSensitivity = {
  seed: "sample#2",
  draws: 2000,
  concentration: 100,
  spread: { verified: 0, "vendor-claimed": 0.05, estimated: 0.15 },
  products: Object.fromEntries(
    products.map((p, i) => [
      p.productId,
      {
        innovation: axis(p.scores.innovation - i, p.scores.innovation + i, i % 2 === 0),
        control: axis(45, 55, true),
        scale: axis(60, 60 + i, true),
      },
    ]),
  ),
  capabilityIndex: Object.fromEntries(
    Object.entries(RANKS).map(([id, [best, worst]]) => [id, { rankInterval: { best, worst } }]),
  ),
  max: {
    FR: Object.fromEntries(
      Object.entries(MAX_RANKS).map(([id, [best, worst]]) => [
        id,
        { rankInterval: { best, worst }, retained: { p5: best * 10, p95: worst * 10 } },
      ]),
    ),
  },
};

const release: ReleaseData = {
  marketId: "sample",
  name: "Sample",
  description: "A sample market.",
  release: 2,
  lastUpdated: "2026-05-04T09:00:00.000Z",
  methodologyVersion: "2.0",
  methodology: "How it is scored.",
  material: false,
  notes: "n",
  dimensions: [],
  products,
  controls: [{ id: "eu-data-residency", name: "EU data residency", description: "d", framework: "f" }],
  countries: new Map([
    [
      "FR",
      {
        country: "FR",
        controls: ["eu-data-residency"],
        products: products.map((p) => moved(p, onInnovation[p.productId] ?? null)),
      },
    ],
  ]),
  sensitivity,
  // The readings tested here read what was published, never the file or geographies scored.
  definition: { products: [] } as unknown as MarketFile,
  geographies: [],
};

describe("capability index", () => {
  it("ranks by innovation with competition ranking and name tie-break", () => {
    expect(capaindex(release).products.map((p) => [p.rank, p.productId, p.innovation, p.band])).toEqual([
      [1, "echo", 90, "Frontier"],
      [2, "alpha", 80, "Frontier"],
      [2, "delta-ai", 80, "Frontier"],
      [4, "zulu", 70, "Foundation"],
    ]);
  });
  it("gives each product its own rank interval and whether its Innovation band is settled", () => {
    // The hand-made analysis above: by name Alpha (0), Delta AI (1), Echo (2), Zulu (3); even ones settled.
    expect(
      capaindex(release).products.map((p) => [p.productId, p.rankInterval, p.innovationInterval, p.bandSettled]),
    ).toEqual([
      ["echo", { best: 1, worst: 1 }, { p5: 88, p95: 92 }, true],
      ["alpha", { best: 2, worst: 3 }, { p5: 80, p95: 80 }, true],
      ["delta-ai", { best: 1, worst: 4 }, { p5: 79, p95: 81 }, false],
      ["zulu", { best: 3, worst: 4 }, { p5: 67, p95: 73 }, false],
    ]);
  });
  it("carries the release header", () => {
    expect(capaindex(release)).toMatchObject({
      marketId: "sample",
      release: 2,
      lastUpdated: release.lastUpdated,
    });
  });
});

describe("max reading", () => {
  it("ranks by retained innovation, ties by name, unavailable products last with zeros", () => {
    const reading = servicemax(release, "fr");
    expect(reading.country).toBe("FR");
    expect(reading.controls).toEqual([{ id: "eu-data-residency", name: "EU data residency" }]);
    expect(reading.products.map((p) => [p.rank, p.productId, p.on.innovation, p.available])).toEqual([
      [1, "delta-ai", 75, true],
      [1, "zulu", 75, true],
      [3, "alpha", 40, true],
      [4, "echo", 0, false],
    ]);
    const echo = reading.products.find((p) => p.productId === "echo");
    expect(echo).toMatchObject({ offering: null, missingControls: ["eu-data-residency"], off: { innovation: 90 } });
  });
  it("gives each product its rank interval under the country's controls", () => {
    expect(servicemax(release, "FR").products.map((p) => [p.productId, p.rankInterval, p.retainedInterval])).toEqual([
      ["delta-ai", { best: 1, worst: 2 }, { p5: 10, p95: 20 }],
      ["zulu", { best: 1, worst: 3 }, { p5: 10, p95: 30 }],
      ["alpha", { best: 3, worst: 3 }, { p5: 30, p95: 30 }],
      ["echo", { best: 4, worst: 4 }, { p5: 40, p95: 40 }],
    ]);
  });
  it("refuses a country the release was not scored for", () => {
    expect(() => servicemax(release, "XX")).toThrow(UnknownCountryError);
  });
});

describe("delta", () => {
  it("gives published, under controls and distance = on − off per product, in name order", () => {
    const reading = delta(release, "FR");
    expect(reading.products.map((p) => p.productId)).toEqual(["alpha", "delta-ai", "echo", "zulu"]);
    for (const p of reading.products)
      expect(p.distance.innovation).toBe(p.underControls.innovation - p.published.innovation);
    expect(reading.products[0]).toMatchObject({
      published: { innovation: 80, control: 50, scale: 60 },
      underControls: { innovation: 40, control: 70, scale: 60 },
      distance: { innovation: -40, control: 20, scale: 0 },
    });
  });
});

describe("snapshot", () => {
  it("is the release's published view with methodology verbatim", () => {
    const s = snapshot(release);
    expect(s).toMatchObject({ marketId: "sample", name: "Sample", release: 2, methodologyVersion: "2.0" });
    expect(s.methodology).toBe("How it is scored.");
    expect(s.products).toHaveLength(4);
    expect(Object.keys(s)).not.toContain("notes");
  });
  it("adds each product's uncertainty and the analysis behind it, changing no published field", () => {
    const s = snapshot(release);
    expect(s.uncertainty).toEqual({
      method: "monte-carlo",
      draws: 2000,
      seed: "sample#2",
      concentration: 100,
      evidenceSpread: { verified: 0, "vendor-claimed": 0.05, estimated: 0.15 },
    });
    const delta = s.products.find((p) => p.productId === "delta-ai");
    // Delta AI is second by name (index 1): its Innovation interval is 80 ± 1, not settled.
    expect(delta?.uncertainty.innovation).toEqual({
      interval: { p5: 79, p95: 81 },
      bands: { Foundation: 0.4, Frontier: 0.6 },
      bandSettled: false,
    });
    for (const product of s.products) {
      const { uncertainty, ...published } = product;
      expect(published).toEqual(products.find((p) => p.productId === product.productId));
      expect(uncertainty).toBeDefined();
    }
  });
});
