/**
 * Narrowing a reading (server/2-readings/narrowing.ts): the products named, a page of the reading's
 * own order and the cursor to the next, some countries' columns only; errors
 * that name what exists; the largest first page that fits. Readings here are written by hand.
 */
import { describe, expect, it } from "vitest";
import {
  cursorAt,
  fitPage,
  NarrowingError,
  narrow,
  offsetOf,
  type Page,
  selectFields,
} from "@/server/2-readings/narrowing";

const product = (n: number) => ({
  productId: `p-${n}`,
  name: `Product ${n}`,
  vendor: `Vendor ${n}`,
  scores: { innovation: 100 - n },
  cells: [
    { country: "DE", available: true },
    { country: "FR", available: n % 2 === 0 },
  ],
});
const reading = Object.freeze({
  marketId: "m",
  countries: [{ country: "DE" }, { country: "FR" }],
  products: Object.freeze([1, 2, 3, 4, 5].map(product)),
});
const LIST = { lists: ["products"] };
const MATRIX = { lists: ["products"], columns: { path: "countries", cells: "cells" } };
const ids = (payload: { products: readonly { productId: string }[] }) => payload.products.map((p) => p.productId);

describe("narrowing a reading", () => {
  it("answers the reading itself when nothing narrows it", () => {
    expect(narrow(reading, LIST, {})).toBe(reading);
  });

  it("pages through the reading's own order, the cursor carrying on where a page stops", () => {
    const first = narrow(reading, LIST, { limit: 2 });
    expect(ids(first)).toEqual(["p-1", "p-2"]);
    expect(first.page).toEqual({ offset: 0, returned: 2, total: 5, nextCursor: cursorAt(2) });
    const second = narrow(reading, LIST, { limit: 2, cursor: first.page?.nextCursor ?? undefined });
    expect(ids(second)).toEqual(["p-3", "p-4"]);
    const last = narrow(reading, LIST, { limit: 2, cursor: second.page?.nextCursor ?? undefined });
    expect(ids(last)).toEqual(["p-5"]);
    expect(last.page).toEqual({ offset: 4, returned: 1, total: 5, nextCursor: null });
    // The rest of the reading is as it was; the reading itself is never changed.
    expect(last.marketId).toBe("m");
    expect(reading.products).toHaveLength(5);
  });

  it("keeps the products named, in the reading's order", () => {
    const some = narrow(reading, LIST, { productIds: "p-4, p-2,p-4" });
    expect(some.products).toEqual([product(2), product(4)]);
    expect(some.page).toEqual({ offset: 0, returned: 2, total: 2, nextCursor: null });
  });

  it("keeps only the countries asked for, in columns and in every product's cells", () => {
    const fr = narrow(reading, MATRIX, { countries: "fr" });
    expect(fr.countries).toEqual([{ country: "FR" }]);
    expect(fr.products.map((p) => p.cells)).toEqual(
      [1, 2, 3, 4, 5].map((n) => [{ country: "FR", available: n % 2 === 0 }]),
    );
  });

  it("names what exists when asked for what does not", () => {
    const error = (asked: Parameters<typeof narrow>[2], spec = MATRIX) => {
      try {
        narrow(reading, spec, asked);
      } catch (caught) {
        return caught instanceof NarrowingError ? `${caught.parameter}: ${caught.message}` : String(caught);
      }
      return "no error";
    };
    expect(error({ productIds: "p-9" })).toMatch(/^productIds: No product "p-9"/);
    expect(error({ countries: "US" })).toMatch(/^countries: No country "US"/);
    expect(error({ cursor: "not-ours" })).toMatch(/^cursor: /);
    expect(() => offsetOf(cursorAt(7))).not.toThrow();
    expect(offsetOf(cursorAt(7))).toBe(7);
  });
});

describe("a sparse fieldset", () => {
  it("keeps the fields asked for and what names each product, in every list, the rest as it was", () => {
    const twoLists = { ...reading, max: { products: reading.products.slice(0, 2) } };
    const sparse = selectFields(twoLists, { lists: ["products", "max.products"] }, "scores, vendor");
    expect(sparse.products[0]).toEqual({
      productId: "p-1",
      name: "Product 1",
      vendor: "Vendor 1",
      scores: { innovation: 99 },
    });
    expect(sparse.max.products.map((p) => Object.keys(p))).toEqual([
      ["productId", "name", "vendor", "scores"],
      ["productId", "name", "vendor", "scores"],
    ]);
    expect(sparse.countries).toBe(reading.countries);
    expect(reading.products[0]).toHaveProperty("cells"); // the reading itself is not changed
  });

  it("keeps whether each product is available wherever the reading says, asked for or not: its zeros are no scores", () => {
    const underControls = {
      marketId: "m",
      products: [
        { productId: "a", name: "A", available: true, on: { innovation: 61.2 }, vendor: "V" },
        { productId: "b", name: "B", available: false, on: { innovation: 0 }, vendor: "W" },
      ],
    };
    const sparse = selectFields(underControls, LIST, "on");
    expect(sparse.products).toEqual([
      { productId: "a", name: "A", available: true, on: { innovation: 61.2 } },
      { productId: "b", name: "B", available: false, on: { innovation: 0 } },
    ]);
    expect((sparse as unknown as { fields: string[] }).fields).toEqual(["productId", "name", "available", "on"]);
    // A reading whose products have no `available` keeps none.
    expect(selectFields(reading, LIST, "vendor").products[0]).toEqual({
      productId: "p-1",
      name: "Product 1",
      vendor: "Vendor 1",
    });
  });

  it("answers the reading itself without fields, and names the fields there are for an unknown one", () => {
    expect(selectFields(reading, LIST, undefined)).toBe(reading);
    expect(() => selectFields(reading, LIST, "scores,score")).toThrow(
      new NarrowingError(
        "fields",
        'No product field "score" in this reading; its products have productId, name, vendor, scores, cells.',
      ),
    );
  });
});

describe("the largest first page that fits", () => {
  const size = (payload: { products: readonly unknown[] }) => payload.products.length;
  it("answers the reading as it is when it fits", () => {
    expect(fitPage(reading, LIST, (p) => size(p) <= 5)).toBe(reading);
  });
  it("cuts to the most products that fit, saying where the next page starts", () => {
    const fitted = fitPage(reading as typeof reading & { page?: Page }, LIST, (p) => size(p) <= 3);
    expect(ids(fitted)).toEqual(["p-1", "p-2", "p-3"]);
    expect(fitted.page).toEqual({ offset: 0, returned: 3, total: 5, nextCursor: cursorAt(3) });
  });
  it("continues the page it was given, and returns none when none fits", () => {
    const second = narrow(reading, LIST, { cursor: cursorAt(2) });
    const fitted = fitPage(second, LIST, (p) => size(p) <= 1);
    expect(ids(fitted)).toEqual(["p-3"]);
    expect(fitted.page).toEqual({ offset: 2, returned: 1, total: 5, nextCursor: cursorAt(3) });
    expect(fitPage(reading, LIST, () => false).products).toEqual([]);
  });
});
