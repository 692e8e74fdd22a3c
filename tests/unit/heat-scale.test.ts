/**
 * The heat map's digits are readable on every cell: across the whole scale, the ink chosen meets
 * WCAG's 4.5:1 against its background, contrast computed here from the WCAG formula itself.
 */
import { describe, expect, it } from "vitest";
import { inkOn, retainedColour } from "@/server/2-charts/heat-scale";

const channel = (c: number) => {
  const v = c / 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
};
const relativeLuminance = (rgb: number[]) =>
  0.2126 * channel(rgb[0] ?? 0) + 0.7152 * channel(rgb[1] ?? 0) + 0.0722 * channel(rgb[2] ?? 0);
const parse = (colour: string) =>
  colour.startsWith("#") ? (colour === "#000" ? [0, 0, 0] : [255, 255, 255]) : (colour.match(/\d+/g) ?? []).map(Number);
const contrast = (a: string, b: string) => {
  const [la, lb] = [relativeLuminance(parse(a)), relativeLuminance(parse(b))].sort((x, y) => y - x) as [number, number];
  return (la + 0.05) / (lb + 0.05);
};

describe("the heat map's scale", () => {
  it("runs light to dark", () => {
    expect(retainedColour(0)).toBe("rgb(239, 243, 255)");
    expect(relativeLuminance(parse(retainedColour(100)))).toBeLessThan(relativeLuminance(parse(retainedColour(0))));
  });

  it("gives every cell digits with at least 4.5:1 contrast, from 0 to 100 kept", () => {
    for (let kept = 0; kept <= 100; kept += 0.1) {
      const background = retainedColour(kept);
      expect(contrast(inkOn(background), background), `${kept.toFixed(1)} on ${background}`).toBeGreaterThanOrEqual(
        4.5,
      );
    }
  });
});
