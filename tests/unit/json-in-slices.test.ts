/**
 * JSON in slices writes exactly what JSON.stringify writes, for any plain data (a property test),
 * and gives the event loop a turn while it works on a large value; a release shared with worker
 * threads reads back as the same release.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonInSlices, utf8InSlices } from "@/server/3-workers/json-in-slices";
import { openRelease, releaseFromJson, shareRelease } from "@/server/3-workers/shared-release";
import { generatedGeographies, generatedMarket } from "../helpers/generated-catalogue";
import { scoredRelease } from "../helpers/scored-release";

describe("JSON in slices", () => {
  it("is JSON.stringify's text for any JSON value, at any depth of slicing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.integer({ min: 0, max: 5 }), async (value, depth) => {
        expect(await jsonInSlices(value, depth)).toBe(JSON.stringify(value));
      }),
      { numRuns: 200 },
    );
  });

  it("encodes any text to the bytes Buffer.from gives, pairs and multi-byte characters across slices", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: "grapheme", maxLength: 32 }), { maxLength: 4 }), async (pieces) => {
        expect(Buffer.from(await utf8InSlices(pieces))).toEqual(Buffer.from(pieces.join(""), "utf8"));
      }),
      { numRuns: 200 },
    );
    // A slice is about 1 MiB of characters: a pair, a three-byte character and a lone surrogate on every boundary.
    const around = (n: number) => `${"a".repeat(n - 1)}😀€\ud800x`;
    for (const text of [around(1 << 20), around((1 << 20) - 1), around(3 << 20)]) {
      expect(Buffer.from(await utf8InSlices(["{", text, "}"])).equals(Buffer.from(`{${text}}`, "utf8"))).toBe(true);
    }
  });

  it("leaves undefined and functions out of objects and writes them null in arrays, honours toJSON", async () => {
    const value = { a: [1, undefined, () => 1, { b: undefined, c: "x", d: new Date(0) }], e: undefined, f: () => 2 };
    expect(await jsonInSlices(value)).toBe(JSON.stringify(value));
  });

  it("gives the event loop turns while it writes a large value", async () => {
    const large = { rows: Array.from({ length: 200_000 }, (_, i) => ({ i, name: `row ${i}`, values: [i, i * 2] })) };
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const text = await jsonInSlices(large);
    clearInterval(ticking);
    expect(text).toBe(JSON.stringify(large));
    expect(turns).toBeGreaterThan(1);
  });
});

describe("a release shared with worker threads", () => {
  it("reads back as the same release, its countries and its sensitivity included", async () => {
    const geographies = generatedGeographies(5);
    const release = scoredRelease(generatedMarket(30, 9), geographies.geographies, geographies.controls, {
      draws: 20,
    });
    const shared = await shareRelease(release);
    expect(await shareRelease(release)).toBe(shared);
    const opened = openRelease(shared);
    expect(opened).toEqual({ ...release, sensitivity: release.sensitivity });
    expect(opened.countries).toBeInstanceOf(Map);
    expect(openRelease(shared)).toBe(opened);
    expect(releaseFromJson(JSON.stringify({ countries: [["FR", 1]] })).countries.get("FR")).toBe(1);
  });
});
