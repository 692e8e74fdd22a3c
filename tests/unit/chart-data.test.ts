/** Chart transforms with hand-computed expectations: streak endpoints, ghost ceilings, ranks. */
import { describe, expect, it } from "vitest";
import {
  capaIndexBars,
  type DeltaPayload,
  deltaGhostBars,
  deltaStreaks,
  maxGhostBars,
} from "@/components/charts/chart-data";

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
  it("rank the delta by Innovation kept, ghosting the published Innovation, ties sharing a rank", () => {
    expect(deltaGhostBars(delta).map((b) => [b.productId, b.rank, b.value, b.ceiling, b.givesUp])).toEqual([
      ["a", 1, 62.1, 80.4, 18.3], // 80.4 − 62.1 = 18.3 exactly at one decimal, no float noise
      ["c", 1, 62.1, 62.1, 0],
      ["b", 3, 0, 90, 90],
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
      ["y", 2, 0, 95.2, 95.2, false],
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
