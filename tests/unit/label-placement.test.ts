/**
 * Label placement of the delta map (server/2-charts/label-placement.ts): a generated cluster of
 * 30 points gets 30 labels of which no two overlap, none covers a point, all inside the plot, the
 * same every time and whatever the order the points come in; hand-computed places for a lone
 * point; shorter forms tried in turn; random clusters (fast-check) never overlap; text cut to a
 * width.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Box,
  boxesIntersect,
  fitText,
  type LabelPoint,
  type PlacedLabel,
  placeLabels,
  segmentHitsBox,
  shortLabel,
  textHeight,
  textWidth,
} from "@/server/2-charts/label-placement";

const PLOT: Box = { left: 44, top: 16, width: 320, height: 220 };
const FONT = 10;

/** A small deterministic generator (mulberry32), so the cluster is the same on every run. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ["Vantfjord", "Fennwick", "Kestrelune", "Orrin Deep", "Mistral-ish", "Quill", "Wolfram Max"];

/** 30 points within 60 × 40 px of one spot, as products crowd on the map under one country. */
function cluster(seed = 16): LabelPoint[] {
  const random = generator(seed);
  return Array.from({ length: 30 }, (_, i) => ({
    id: `p${String(i).padStart(2, "0")}`,
    x: 200 + random() * 60,
    y: 110 + random() * 40,
    text: `${NAMES[i % NAMES.length]} ${i}`,
    radius: 5,
  }));
}

function overlaps(labels: readonly PlacedLabel[]): [string, string][] {
  const shown = labels.filter((l) => !l.hidden);
  const pairs: [string, string][] = [];
  for (let i = 0; i < shown.length; i++)
    for (let j = i + 1; j < shown.length; j++) {
      const a = shown[i] as PlacedLabel;
      const b = shown[j] as PlacedLabel;
      if (boxesIntersect(a.box, b.box)) pairs.push([a.id, b.id]);
    }
  return pairs;
}

const pointBox = (p: LabelPoint): Box => {
  const r = p.radius ?? 5;
  return { left: p.x - r, top: p.y - r, width: 2 * r, height: 2 * r };
};

const within = (box: Box, bounds: Box) =>
  box.left >= bounds.left &&
  box.top >= bounds.top &&
  box.left + box.width <= bounds.left + bounds.width &&
  box.top + box.height <= bounds.top + bounds.height;

describe("text size estimate", () => {
  it("adds up per-character widths in em, generously", () => {
    // V .8 + a .68 + n .68 + t .5 + f .5 + j .36 + o .68 + r .5 + d .68 = 5.38 em → 53.8 → 54, + 1
    expect(textWidth("Vantfjord", 10)).toBe(55);
    // Wide scripts and emoji count 1.3 em; combining marks nothing.
    expect(textWidth("日本", 10)).toBe(27);
    expect(textWidth("e\u0301", 10)).toBe(8);
    // ascent .95 + descent .3 = 1.25 em
    expect(textHeight(10)).toBe(13);
  });

  it("shortens long names with an ellipsis, counting characters rather than UTF-16 units", () => {
    expect(shortLabel("Short name")).toBe("Short name");
    expect(shortLabel("x".repeat(40), 10)).toBe(`${"x".repeat(9)}…`);
    expect(shortLabel("😀".repeat(12), 10)).toBe(`${"😀".repeat(9)}…`);
  });
});

describe("a lone point", () => {
  it("has its label to the right, vertically centred on it", () => {
    const [label] = placeLabels([{ id: "a", x: 100, y: 100, text: "Vantfjord", radius: 5 }], {
      bounds: PLOT,
      fontSize: FONT,
    });
    // left = 100 + radius 5 + gap 2; top = 100 − 13/2; baseline = top + 0.95 × 10
    expect(label).toEqual({
      id: "a",
      text: "Vantfjord",
      x: 107,
      y: 103,
      anchor: "start",
      box: { left: 107, top: 93.5, width: 55, height: 13 },
      leader: null,
      hidden: false,
    });
  });

  it("has its label to the left at the right edge of the plot, and above it at the bottom", () => {
    const right = { id: "a", x: 355, y: 100, text: "Vantfjord", radius: 5 };
    const [left] = placeLabels([right], { bounds: PLOT, fontSize: FONT });
    // Its box ends the gap short of the point, and the text is anchored at that end.
    expect(left).toMatchObject({ box: { left: 355 - 5 - 2 - 55 }, x: 355 - 5 - 2, anchor: "end" });
    const bottom = { id: "a", x: 300, y: 232, text: "Vantfjord", radius: 5 };
    const [above] = placeLabels([bottom], { bounds: PLOT, fontSize: FONT });
    // Right and left reach below the plot (232 + 6.5 > 236); above, centred on the point, is next.
    expect(above?.box).toEqual({ left: 300 - 27.5, top: 232 - 5 - 2 - 13, width: 55, height: 13 });
    expect(above).toMatchObject({ x: 300, anchor: "middle" });
  });

  it("is hidden when the plot has no room for it at all", () => {
    const [label] = placeLabels([{ id: "a", x: 10, y: 10, text: "Vantfjord" }], {
      bounds: { left: 0, top: 0, width: 20, height: 20 },
      fontSize: FONT,
    });
    expect(label?.hidden).toBe(true);
  });
});

describe("a crowded cluster of 30 points", () => {
  const points = cluster();
  const placed = placeLabels(points, { bounds: PLOT, fontSize: FONT });

  it("places every label, inside the plot, without two overlapping or covering a point", () => {
    expect(placed.map((l) => l.id)).toEqual(points.map((p) => p.id));
    expect(placed.filter((l) => l.hidden)).toEqual([]);
    expect(overlaps(placed)).toEqual([]);
    for (const label of placed) {
      expect(within(label.box, PLOT)).toBe(true);
      for (const point of points)
        expect(boxesIntersect(label.box, pointBox(point)), `${label.id} on ${point.id}`).toBe(false);
      expect(label.box.width).toBe(textWidth(label.text, FONT));
    }
  });

  it("joins a label moved away from its point by a leader line from the point's edge", () => {
    const far = placed.filter((l) => l.leader);
    expect(far.length).toBeGreaterThan(0);
    for (const label of far) {
      const point = points.find((p) => p.id === label.id) as LabelPoint;
      const leader = label.leader as NonNullable<PlacedLabel["leader"]>;
      expect(Math.hypot(leader.x1 - point.x, leader.y1 - point.y)).toBeCloseTo(6, 6);
      // It ends on the label's box.
      expect(
        segmentHitsBox(leader, {
          ...label.box,
          left: label.box.left - 0.01,
          top: label.box.top - 0.01,
          width: label.box.width + 0.02,
          height: label.box.height + 0.02,
        }),
      ).toBe(true);
    }
  });

  it("is deterministic, whatever order the points come in", () => {
    expect(placeLabels(points, { bounds: PLOT, fontSize: FONT })).toEqual(placed);
    const reversed = placeLabels([...points].reverse(), { bounds: PLOT, fontSize: FONT });
    expect([...reversed].reverse()).toEqual(placed);
  });

  it("would overlap if every label sat right of its point (the old layout)", () => {
    const naive = points.map((p) => ({
      id: p.id,
      text: p.text,
      x: p.x + 8,
      y: p.y - 7,
      anchor: "start" as const,
      box: { left: p.x + 8, top: p.y - 7 - 9.5, width: textWidth(p.text, FONT), height: 13 },
      leader: null,
      hidden: false,
    }));
    expect(overlaps(naive).length).toBeGreaterThan(10);
  });
});

describe("any cluster", () => {
  it("never gives two shown labels overlapping boxes, nor a box outside the plot or on a point", () => {
    const point = fc.record({
      x: fc.double({ min: 50, max: 350, noNaN: true }),
      y: fc.double({ min: 20, max: 230, noNaN: true }),
      text: fc.string({ minLength: 1, maxLength: 20, unit: "grapheme" }),
    });
    fc.assert(
      fc.property(fc.array(point, { minLength: 1, maxLength: 40 }), (raw) => {
        const points = raw.map((p, i) => ({ ...p, id: `p${i}`, radius: 5 }));
        const placed = placeLabels(points, { bounds: PLOT, fontSize: FONT });
        expect(overlaps(placed)).toEqual([]);
        for (const label of placed.filter((l) => !l.hidden)) {
          expect(within(label.box, PLOT)).toBe(true);
          for (const p of points) expect(boxesIntersect(label.box, pointBox(p))).toBe(false);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("shorter forms", () => {
  it("are tried in turn when the full label finds no place, and the first that fits is kept", () => {
    const bounds = { left: 0, top: 0, width: 120, height: 40 };
    const point = { id: "a", x: 20, y: 20, radius: 5 };
    const [label] = placeLabels(
      [
        {
          ...point,
          text: "Fennwick Private Inference (unavailable)",
          fallbacks: ["Fennwick Private Inference", "Fennwick…"],
        },
      ],
      { bounds, fontSize: FONT },
    );
    // The full text is 200+ px and the name alone 150+ px: neither fits in 120; "Fennwick…" does, right of the point.
    expect(label).toMatchObject({ text: "Fennwick…", hidden: false, leader: null, x: 27 });
    const [none] = placeLabels([{ ...point, text: "Fennwick Private Inference", fallbacks: ["Fennwick Private…"] }], {
      bounds,
      fontSize: FONT,
    });
    expect(none?.hidden).toBe(true);
  });
});

describe("text fitted to a width", () => {
  it("stays whole when it fits, else keeps its longest start that fits with an ellipsis", () => {
    // "Vantfjord" is 55 px at 10 px (above); "Vantf…": .8 + .68 + .68 + .5 + .5 + .92 = 4.08 em → 41 + 1 = 42
    expect(fitText("Vantfjord", 10, 55)).toBe("Vantfjord");
    expect(fitText("Vantfjord", 10, 54)).toBe("Vantfjo…");
    expect(fitText("Vantfjord", 10, 42)).toBe("Vantf…");
    expect(fitText("Vantfjord", 10, 5)).toBe("…");
    for (const width of [20, 60, 100, 140])
      expect(textWidth(fitText("Fennwick Private Inference", 12, width), 12)).toBeLessThanOrEqual(Math.max(width, 13));
  });
});
