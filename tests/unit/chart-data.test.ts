/** Chart transforms with hand-computed expectations: streak endpoints, ghost ceilings, ranks. */
import { describe, expect, it } from "vitest";
import {
  capaIndexBars,
  type DeltaPayload,
  deltaGhostBars,
  deltaStreaks,
  maxGhostBars,
  rankLabel,
  usableHeadline,
} from "@/server/2-charts/chart-data";

const s = (innovation: number, control: number, scale: number) => ({ innovation, control, scale });
const delta: DeltaPayload = {
  marketId: "m",
  country: "FR",
  products: [
    {
      productId: "a",
      name: "Alpha",
      vendor: "V1",
      available: true,
      published: s(80.4, 30, 70),
      underControls: s(62.1, 75.5, 50),
      distance: { ...s(-18.3, 45.5, -20), magnitude: 52.8 },
    },
    {
      productId: "b",
      name: "Beta",
      vendor: "V2",
      available: false,
      published: s(90, 20, 60),
      underControls: s(0, 0, 0),
      distance: { ...s(-90, -20, -60), magnitude: 110 },
    },
    {
      productId: "c",
      name: "Gamma",
      vendor: "V3",
      available: true,
      published: s(62.1, 50, 40),
      underControls: s(62.1, 50, 40),
      distance: { ...s(0, 0, 0), magnitude: 0 },
    },
  ],
};

describe("delta streaks", () => {
  it("run from (published Control, Innovation) to (under-controls Control, Innovation)", () => {
    expect(deltaStreaks(delta)).toEqual([
      {
        productId: "a",
        name: "Alpha",
        vendor: "V1",
        available: true,
        from: { x: 30, y: 80.4 },
        to: { x: 75.5, y: 62.1 },
        moves: true,
      },
      {
        productId: "b",
        name: "Beta",
        vendor: "V2",
        available: false,
        from: { x: 20, y: 90 },
        to: { x: 0, y: 0 },
        moves: true,
      },
      {
        productId: "c",
        name: "Gamma",
        vendor: "V3",
        available: true,
        from: { x: 50, y: 62.1 },
        to: { x: 50, y: 62.1 },
        moves: false,
      },
    ]);
  });
});

describe("ghost bars", () => {
  it("rank the delta's usable products by Innovation kept, ghosting the published Innovation, ties sharing a rank", () => {
    expect(deltaGhostBars(delta).map((b) => [b.productId, b.rank, b.value, b.ceiling, b.givesUp])).toEqual([
      ["a", 1, 62.1, 80.4, 18.3], // 80.4 − 62.1 = 18.3 exactly at one decimal, no float noise
      ["c", 1, 62.1, 62.1, 0],
      // Unavailable: no rank (never a tie with the usable) and nothing "given up" to headline.
      ["b", null, 0, 90, null],
    ]);
  });

  it("set every unavailable product after the usable ones, by name, unranked", () => {
    const unusable = (productId: string, name: string) => ({
      productId,
      name,
      vendor: "v",
      available: false,
      published: s(50, 50, 50),
      underControls: s(0, 0, 0),
      distance: { ...s(-50, -50, -50), magnitude: 86.6 },
    });
    const bars = deltaGhostBars({
      ...delta,
      products: [unusable("z", "Zulu"), ...delta.products, unusable("d", "Delta")],
    });
    expect(bars.map((b) => [b.productId, b.rank])).toEqual([
      ["a", 1],
      ["c", 1],
      ["b", null],
      ["d", null],
      ["z", null],
    ]);
  });

  it("keep the Max reading's order and draw on in front of off", () => {
    const bars = maxGhostBars({
      marketId: "m",
      country: "FR",
      products: [
        {
          rank: 1,
          productId: "x",
          name: "X",
          vendor: "v",
          available: true,
          off: s(70, 60, 50),
          on: s(65.5, 80, 50),
          missingControls: [],
        },
        {
          rank: 2,
          productId: "y",
          name: "Y",
          vendor: "v",
          available: false,
          off: s(95.2, 10, 90),
          on: s(0, 0, 0),
          missingControls: ["k"],
        },
      ],
    });
    expect(bars.map((b) => [b.productId, b.rank, b.value, b.ceiling, b.givesUp, b.available])).toEqual([
      ["x", 1, 65.5, 70, 4.5, true],
      ["y", null, 0, 95.2, null, false],
    ]);
  });

  it("give the Capability Index no ghost: the ceiling is the value", () => {
    expect(
      capaIndexBars({
        marketId: "m",
        products: [{ rank: 1, productId: "p", name: "P", vendor: "v", innovation: 44.4, band: "Frontier" }],
      }),
    ).toEqual([
      { rank: 1, productId: "p", name: "P", vendor: "v", available: true, value: 44.4, ceiling: 44.4, givesUp: 0 },
    ]);
  });
});

describe("the usable headline", () => {
  it("says how many of the products can be used under the country's controls, in agreement", () => {
    const of = (...available: boolean[]) => available.map((a) => ({ available: a }));
    expect(usableHeadline(of(true, false, false), "FR")).toBe("1 of 3 products is usable under FR's controls.");
    expect(usableHeadline(of(true, true, false), "DE")).toBe("2 of 3 products are usable under DE's controls.");
    expect(usableHeadline(of(false, false), "US")).toBe("0 of 2 products are usable under US's controls.");
    expect(usableHeadline(of(true), "FR")).toBe("1 of 1 product is usable under FR's controls.");
  });

  it("labels an unranked bar with a dash, never a number", () => {
    expect(rankLabel({ rank: null })).toBe("–");
    expect(rankLabel({ rank: 3 })).toBe("3.");
  });
});
