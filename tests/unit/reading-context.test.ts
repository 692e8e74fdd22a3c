/** The reading context every dashboard link carries (server/2-http/reading-context.ts). */
import { describe, expect, it } from "vitest";
import {
  READING_PARAMS,
  readingContextFrom,
  readingEntries,
  readingHref,
  withReading,
} from "@/server/2-http/reading-context";
import { notificationPaths } from "@/server/2-notifications/render";

const FULL = {
  release: "2",
  country: "FR",
  minSeal: "SEAL-2",
  require: "eu-data-residency,eu-operations",
  whatif: "benchmark:3,api-breadth:0",
  whatifBy: "control",
};

/** The query of an href, as pairs in order. */
const pairs = (href: string) => [...new URL(href, "https://x.example").searchParams];

describe("the reading context", () => {
  it("is read from a URL's query or from Next's search record alike, other parameters left out", () => {
    const query = new URLSearchParams({ ...FULL, view: "bars", from: "1", to: "2", cursor: "abc" });
    expect(readingContextFrom(query)).toEqual(FULL);
    expect(readingContextFrom({ ...FULL, view: "bars", from: "1" })).toEqual(FULL);
  });

  it("reads a repeated, empty or overlong parameter as absent", () => {
    expect(readingContextFrom({ country: ["FR", "DE"], release: "", whatif: "a:1,".repeat(600) })).toEqual({});
    expect(readingContextFrom(new URLSearchParams("country=&release=3"))).toEqual({ release: "3" });
  });

  it("goes whole to a market's view and a product's view, in one order", () => {
    const market = readingHref({ to: "market", marketId: "foundation-model-apis", view: "readings" }, FULL);
    expect(market.split("?")[0]).toBe("/markets/foundation-model-apis/readings");
    expect(pairs(market)).toEqual(READING_PARAMS.map((key) => [key, FULL[key]]));
    const product = readingHref({ to: "product", marketId: "m", productId: "p", view: "sovereignty" }, FULL);
    expect(product.split("?")[0]).toBe("/markets/m/products/p/sovereignty");
    expect(Object.fromEntries(pairs(product))).toEqual(FULL);
  });

  it("keeps only the country across markets: the markets list and the notifications", () => {
    expect(readingHref({ to: "markets" }, FULL)).toBe("/markets?country=FR");
    expect(readingHref({ to: "notifications" }, FULL)).toBe("/notifications?country=FR");
    expect(readingHref({ to: "markets" }, {})).toBe("/markets");
  });

  it("draws no query for no context, and a market's overview without a segment", () => {
    expect(readingHref({ to: "market", marketId: "m" })).toBe("/markets/m");
    expect(readingHref({ to: "product", marketId: "m", productId: "p" }, {})).toBe("/markets/m/products/p");
  });

  it("adds a view's own parameters after the reading's, never in place of one, and a place on the page", () => {
    const href = readingHref(
      { to: "market", marketId: "m", view: "changes" },
      { country: "FR" },
      { query: { from: 1, to: 2, country: "DE", skipped: undefined }, hash: "changes" },
    );
    expect(href).toBe("/markets/m/changes?country=FR&from=1&to=2#changes");
  });

  it("escapes hostile ids and values: nothing leaves its path segment or its parameter", () => {
    const href = readingHref(
      { to: "product", marketId: "../admin", productId: 'a"/><script>?x=1#' },
      { country: 'FR"&release=9', whatif: "a:1&country=DE#x" },
    );
    const url = new URL(href, "https://x.example");
    expect(url.pathname).toBe("/markets/..%2Fadmin/products/a%22%2F%3E%3Cscript%3E%3Fx%3D1%23");
    expect(url.hash).toBe("");
    expect([...url.searchParams]).toEqual([
      ["country", 'FR"&release=9'],
      ["whatif", "a:1&country=DE#x"],
    ]);
  });

  it("sets a parameter over the context, or removes it when set to undefined", () => {
    expect(withReading(FULL, { release: 3, whatif: undefined })).toEqual({ ...FULL, release: "3", whatif: undefined });
    expect(Object.keys(withReading(FULL, { whatif: undefined }))).not.toContain("whatif");
    expect(withReading({ country: "fr" }, { country: "FR" })).toEqual({ country: "FR" });
  });

  it("gives a GET form's hidden fields in the links' order", () => {
    expect(readingEntries({ whatif: "a:1", country: "FR", release: "2" })).toEqual([
      ["release", "2"],
      ["country", "FR"],
      ["whatif", "a:1"],
    ]);
  });
});

describe("a notification's links", () => {
  const release = { marketId: "foundation-model-apis", comparedWith: 2, release: 3 };

  it("open the market and What changed, under the reader's country when there is one", () => {
    expect(notificationPaths(release)).toEqual({
      market: "/markets/foundation-model-apis",
      changes: "/markets/foundation-model-apis/changes?from=2&to=3#changes",
    });
    expect(notificationPaths(release, { country: "FR" })).toEqual({
      market: "/markets/foundation-model-apis?country=FR",
      changes: "/markets/foundation-model-apis/changes?country=FR&from=2&to=3#changes",
    });
  });

  it("have no comparison for a market's first release", () => {
    expect(notificationPaths({ ...release, comparedWith: null }).changes).toBeNull();
  });
});
