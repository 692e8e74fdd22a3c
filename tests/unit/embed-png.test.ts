/**
 * The embed's PNG is rendered once per SVG while kept: every view of a popular embed asks for the
 * same picture, and a rendering costs over 100 ms of CPU. A different SVG is a different PNG.
 */
import { describe, expect, it } from "vitest";
import { svgToPng } from "@/server/8-embeds/png";

const svg = (fill: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="${fill}"/></svg>`;

describe("svgToPng", () => {
  it("renders an SVG once, however many ask at once or later, and another SVG anew", async () => {
    const together = await Promise.all(Array.from({ length: 5 }, () => svgToPng(svg("#123456"))));
    const first = together[0];
    expect(first?.subarray(1, 4).toString("latin1")).toBe("PNG");
    for (const png of together) expect(png).toBe(first); // the same buffer: rendered once
    expect(await svgToPng(svg("#123456"))).toBe(first);
    const other = await svgToPng(svg("#654321"));
    expect(other).not.toBe(first);
    expect(other?.equals(first as Buffer)).toBe(false);
  });
});
