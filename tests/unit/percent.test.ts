/**
 * The one percentage formatter (server/2-formats/percent.ts): a share that is neither none nor all
 * never prints as 0 % or 100 %. Expected texts are written out by hand.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { percentNumber, percentText } from "@/server/2-formats/percent";

describe("a share as a percentage", () => {
  it.each([
    [0.998, "99.8 %"],
    [0.0004, "0.04 %"],
    [0.5, "50 %"],
    [1, "100 %"],
    [0, "0 %"],
    [0.625, "63 %"],
    [0.001, "0.1 %"],
    [0.995, "99.5 %"],
    [0.9996, "99.96 %"],
    [0.00004, "< 0.01 %"],
    [0.99999, "> 99.99 %"],
    [0.0005, "0.1 %"],
  ])("%s is %s", (share, text) => {
    expect(percentText(share)).toBe(text);
  });

  it("gives the table's number without the words: 99.8, 0.04, 50, 100, 0", () => {
    expect([0.998, 0.0004, 0.5, 1, 0].map(percentNumber)).toEqual([99.8, 0.04, 50, 100, 0]);
  });

  it("never says 0 % or 100 % of a share strictly between none and all, and stays within a point of it", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true, minExcluded: true, maxExcluded: true }), (share) => {
        const value = percentNumber(share);
        expect(value).toBeGreaterThan(0);
        expect(value).toBeLessThan(100);
        expect(Math.abs(value - share * 100)).toBeLessThanOrEqual(0.5);
        expect(percentText(share)).not.toMatch(/^(0|100) %$/);
      }),
    );
  });
});
