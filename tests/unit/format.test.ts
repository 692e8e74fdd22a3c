/**
 * The dashboard's one formatter (components/format.ts) for what this issue found printed two ways:
 * counts ("154 of 1000" beside "1,000") and the order of countries (onboarding by code, the
 * chooser by name). Expected values are written out by hand.
 */
import { describe, expect, it } from "vitest";
import { byCountryName, count, countryNameOrder, credits } from "@/components/format";
import { usableHeadline } from "@/server/2-charts/chart-data";

describe("count: every count printed with thousands separators", () => {
  it("writes 0, 999, 1,000 and 1,234,567", () => {
    expect([0, 7, 999, 1000, 1234567].map(count)).toEqual(["0", "7", "999", "1,000", "1,234,567"]);
  });

  it("is the format of credits and of the usable headline, a 1,000-product market included", () => {
    expect(credits(1000)).toBe("1,000 credits");
    expect(credits(1)).toBe("1 credit");
    const products = Array.from({ length: 1000 }, (_, i) => ({ available: i < 154 }));
    expect(usableHeadline(products, "FR")).toBe("154 of 1,000 products are usable under FR's controls.");
  });
});

describe("countryNameOrder: one order of countries, by name", () => {
  const countries = [
    { country: "AT", name: "Austria" },
    { country: "DE", name: "Germany" },
    { country: "AU", name: "Australia" },
    { country: "AX", name: "Åland Islands" },
    { country: "CH", name: "switzerland" },
    { country: "BE", name: "Belgium" },
  ];

  it("sorts by name as people look names up, not by code (Australia before Austria, Å among the As)", () => {
    expect(byCountryName(countries).map((c) => c.country)).toEqual(["AX", "AU", "AT", "BE", "DE", "CH"]);
  });

  it("settles a tie of names by code, and leaves its input as it was", () => {
    const twins = [
      { country: "ZZ", name: "Same" },
      { country: "AA", name: "Same" },
    ];
    expect(byCountryName(twins).map((c) => c.country)).toEqual(["AA", "ZZ"]);
    expect(twins.map((c) => c.country)).toEqual(["ZZ", "AA"]);
    expect(countryNameOrder(twins[0] as (typeof twins)[0], twins[0] as (typeof twins)[0])).toBe(0);
  });

  it("keeps what the list's items carry (onboarding's control counts)", () => {
    const sorted = byCountryName([
      { country: "FR", name: "France", controlCount: 4 },
      { country: "DE", name: "Germany", controlCount: 0 },
      { country: "BG", name: "Bulgaria", controlCount: 2 },
    ]);
    expect(sorted.map((c) => [c.country, c.controlCount])).toEqual([
      ["BG", 2],
      ["FR", 4],
      ["DE", 0],
    ]);
  });
});
