/**
 * A release comparison in words (server/2-comparisons/comparison-phrases.ts), as the dashboard's "What
 * changed" and `ops catalog preview` show it; the section's pickers' pair; and the section's table
 * rendered to HTML, where hostile product and vendor names stay text.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ReleaseChanges } from "@/components/market/release-changes";
import { shownPair } from "@/components/market/what-changed";
import {
  attributionText,
  availabilityText,
  bandText,
  marketChangeLines,
  rankText,
  scoreChangeText,
  signedPoints,
} from "@/server/2-comparisons/comparison-phrases";
import {
  comparisonText,
  firstPlaceSentence,
  moveSentenceWithIndicators,
} from "@/server/2-comparisons/comparison-summary";
import type { ProductChange, ReleaseComparison } from "@/server/2-comparisons/release-comparison";

const MINUS = "\u2212";

const unchangedMax: ProductChange["max"] = {
  rank: { from: 1, to: 1, movedUp: 0, change: 0 },
  available: { from: true, to: true },
  offering: { from: "public", to: "public" },
  availability: "unchanged",
};

function product(overrides: Partial<ProductChange>): ProductChange {
  const band = { from: "Foundation", to: "Foundation", changed: false };
  const axis = {
    from: 50,
    to: 50,
    change: 0,
    attribution: { ownValues: 0, field: 0, method: 0 },
    ownValuesBy: { indicators: [], more: 0 },
  };
  return {
    productId: "p",
    name: "P",
    vendor: "P Co",
    status: "stayed",
    scores: { innovation: axis, control: axis, scale: axis },
    bands: { innovation: band, control: band, scale: band },
    capabilityIndexRank: { from: 1, to: 1, movedUp: 0, change: 0 },
    max: unchangedMax,
    ...overrides,
  };
}

function comparison(overrides: Partial<ReleaseComparison["market"]>, products: ProductChange[]): ReleaseComparison {
  return {
    marketId: "m",
    from: { release: 1, lastUpdated: "2026-01-01T00:00:00.000Z", methodologyVersion: "1.0" },
    to: { release: 2, lastUpdated: "2026-02-01T00:00:00.000Z", methodologyVersion: "1.0" },
    country: "FR",
    market: {
      firstPlace: { capabilityIndex: { from: [], to: [] }, max: { from: [], to: [] } },
      indicatorNames: [],
      methodologyChanged: false,
      material: false,
      methodologyVersion: { from: "1.0", to: "1.0" },
      bandsChanged: [],
      indicatorsAdded: [],
      indicatorsRemoved: [],
      weightsChanged: [],
      indicatorsRedefined: [],
      productsAdded: [],
      productsRemoved: [],
      ...overrides,
    },
    products,
  };
}

describe("points, causes and scores", () => {
  it("signs points with one decimal and a true minus; zero has no sign", () => {
    expect(signedPoints(2.5)).toBe("+2.5");
    expect(signedPoints(-0.3)).toBe(`${MINUS}0.3`);
    expect(signedPoints(12)).toBe("+12.0");
    expect(signedPoints(0)).toBe("0.0");
    expect(signedPoints(-0)).toBe("0.0");
    // Below a twentieth it shows as zero, and a zero has no sign.
    expect(signedPoints(-0.04)).toBe("0.0");
  });

  it("names only the causes that moved, in attribution order", () => {
    expect(attributionText({ ownValues: 3, field: -0.5, method: 0 })).toBe(`own values +3.0, field ${MINUS}0.5`);
    expect(attributionText({ ownValues: 0, field: 0, method: 1.2 })).toBe("method +1.2");
    // Parts that cancel are still named: the score did not move, but for two reasons.
    expect(attributionText({ ownValues: 1, field: -1, method: 0 })).toBe(`own values +1.0, field ${MINUS}1.0`);
    expect(attributionText({ ownValues: 0, field: 0, method: 0 })).toBe("");
  });

  it("writes a score change as from → to with the signed change", () => {
    const attribution = { ownValues: 12, field: 0, method: 0 };
    expect(scoreChangeText({ from: 50, to: 62, change: 12, attribution })).toBe("50.0 → 62.0 (+12.0)");
    expect(scoreChangeText({ from: 93.3, to: 78.3, change: -15, attribution })).toBe(`93.3 → 78.3 (${MINUS}15.0)`);
  });
});

describe("bands, ranks and availability", () => {
  it("says a band only when it changed, or the one band of a product that entered or left", () => {
    expect(bandText({ from: "Established", to: "Frontier", changed: true })).toBe("Established → Frontier");
    expect(bandText({ from: "Frontier", to: "Frontier", changed: false })).toBeNull();
    expect(bandText({ from: null, to: "Advanced", changed: false })).toBe("Advanced");
    expect(bandText({ from: "Foundation", to: null, changed: false })).toBe("Foundation");
  });

  it("reads a rank change as up (negative) or down, new or gone", () => {
    expect(rankText({ from: 3, to: 1 })).toBe("3 → 1, up 2");
    expect(rankText({ from: 1, to: 4 })).toBe("1 → 4, down 3");
    expect(rankText({ from: 2, to: 2 })).toBe("2, unchanged");
    expect(rankText({ from: null, to: 4 })).toBe("new at 4");
    expect(rankText({ from: 5, to: null })).toBe("was 5");
    expect(rankText({ from: null, to: null })).toBe("—");
  });

  it("says how availability under the country changed", () => {
    const max = (change: Partial<ProductChange["max"]>) => ({ ...unchangedMax, ...change });
    expect(availabilityText(max({ availability: "became_available" }))).toBe("became available");
    expect(availabilityText(max({ availability: "became_unavailable" }))).toBe("became unavailable");
    expect(
      availabilityText(max({ availability: "offering_changed", offering: { from: "public", to: "eu-plus" } })),
    ).toBe("available, offering public → eu-plus");
    expect(availabilityText(max({}))).toBe("still available");
    expect(availabilityText(max({ available: { from: false, to: false } }))).toBe("still unavailable");
    expect(availabilityText(max({ availability: null, available: { from: null, to: false } }))).toBe("unavailable");
    expect(availabilityText(max({ availability: null, available: { from: true, to: null } }))).toBe("was available");
  });
});

describe("market-level lines", () => {
  it("always says the methodology, and nothing else when nothing else changed", () => {
    expect(marketChangeLines(comparison({}, []))).toEqual([{ id: "methodology", text: "Methodology 1.0 unchanged." }]);
    expect(
      marketChangeLines(comparison({ methodologyChanged: true, methodologyVersion: { from: "2.0", to: "2.0" } }, [])),
    ).toEqual([{ id: "methodology", text: "Methodology 2.0 reworded." }]);
  });

  it("lists every kind of change, products by name", () => {
    const entered = product({ productId: "fresh", name: "Fresh Model", status: "entered", scores: null });
    const left = product({ productId: "gone", name: "Gone Model", status: "left", scores: null });
    const lines = marketChangeLines(
      comparison(
        {
          methodologyChanged: true,
          material: true,
          methodologyVersion: { from: "1.0", to: "2.0" },
          bandsChanged: [
            {
              axis: "control",
              from: [
                { name: "Foundation", from: 0, to: 50 },
                { name: "Frontier", from: 50, to: 100 },
              ],
              to: [
                { name: "Foundation", from: 0, to: 60 },
                { name: "Frontier", from: 60, to: 100 },
              ],
            },
          ],
          indicatorsAdded: ["immunity", "keys"],
          indicatorsRemoved: ["old"],
          indicatorsRedefined: ["certs"],
          weightsChanged: [{ indicatorId: "residency", from: 3, to: 2.5 }],
          productsAdded: ["fresh"],
          productsRemoved: ["gone"],
        },
        [entered, left],
      ),
    );
    expect(lines).toEqual([
      { id: "methodology", text: "Methodology 1.0 → 2.0, a material change." },
      { id: "bands", text: "Bands changed: Control from Foundation 0, Frontier 50 to Foundation 0, Frontier 60." },
      { id: "indicators-added", text: "Indicators added: immunity; keys." },
      { id: "indicators-removed", text: "Indicators removed: old." },
      { id: "indicators-redefined", text: "Indicators redefined: certs." },
      { id: "weights", text: "Weights changed: residency 3 → 2.5." },
      { id: "products-added", text: "Products added: Fresh Model." },
      { id: "products-removed", text: "Products removed: Gone Model." },
    ]);
  });
});

describe("the pickers' pair", () => {
  const compared = { comparison: comparison({}, []) };
  it("shows the pair compared", () => {
    expect(shownPair(compared, {}, 3)).toEqual({ from: 1, to: 2 });
  });
  it("shows the pair asked for when it could not be compared, defaulting like the API", () => {
    const problem = { problem: "from (3) must be an earlier release than to (2)." };
    expect(shownPair(problem, { from: 3, to: 2 }, 3)).toEqual({ from: 3, to: 2 });
    expect(shownPair(problem, { to: 9 }, 3)).toEqual({ from: 8, to: 9 });
    expect(shownPair(problem, { from: Number.NaN }, 3)).toEqual({ from: 2, to: 3 });
    expect(shownPair(undefined, {}, 1)).toEqual({ from: 1, to: 1 });
  });
});

describe("the What changed table", () => {
  it("renders hostile names as text, and each axis with its change and causes", () => {
    const hostile = '<img src=x onerror="alert(1)">';
    const stayed = product({
      productId: "a",
      name: hostile,
      vendor: "<script>alert(2)</script>",
      scores: {
        innovation: {
          from: 93.3,
          to: 78.3,
          change: -15,
          attribution: { ownValues: 0, field: -15, method: 0 },
          ownValuesBy: { indicators: [], more: 0 },
        },
        control: {
          from: 16.7,
          to: 16.7,
          change: 0,
          attribution: { ownValues: 0, field: 0, method: 0 },
          ownValuesBy: { indicators: [], more: 0 },
        },
        scale: {
          from: 100,
          to: 100,
          change: 0,
          attribution: { ownValues: 0, field: 0, method: 0 },
          ownValuesBy: { indicators: [], more: 0 },
        },
      },
      bands: {
        innovation: { from: "Frontier", to: "Established", changed: true },
        control: { from: "Foundation", to: "Foundation", changed: false },
        scale: { from: "Frontier", to: "Frontier", changed: false },
      },
      capabilityIndexRank: { from: 1, to: 2, movedUp: -1, change: 1 },
    });
    const html = renderToStaticMarkup(
      createElement(ReleaseChanges, { comparison: comparison({ productsAdded: [] }, [stayed]) }),
    );
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain(
      `data-axis="innovation" data-change="-15" data-own-values="0" data-field="-15" data-method="0">93.3 → 78.3 (${MINUS}15.0)`,
    );
    expect(html).toContain(`field ${MINUS}15.0`);
    expect(html).toContain("band Frontier → Established");
    expect(html).toContain("1 → 2, down 1");
    expect(html).toContain("Max rank under FR");
  });
});

describe("the headline and the indicators behind a move", () => {
  const q = { productId: "q", name: "Quillmere" };
  const b = { productId: "b", name: "Brightwater" };
  const c = { productId: "c", name: "Corvale" };

  it("says who took, joined, lost or kept first place", () => {
    const label = "Capability Index #1";
    expect(firstPlaceSentence(label, { from: [b], to: [q] })).toBe(
      "Quillmere took Capability Index #1 from Brightwater.",
    );
    expect(firstPlaceSentence(label, { from: [b], to: [b, q] })).toBe(
      "Quillmere joined Brightwater at Capability Index #1.",
    );
    expect(firstPlaceSentence(label, { from: [b, c], to: [c] })).toBe(
      "Brightwater lost Capability Index #1; Corvale holds it.",
    );
    expect(firstPlaceSentence(label, { from: [b], to: [] })).toBe(
      "Brightwater lost Capability Index #1; nobody holds it now.",
    );
    expect(firstPlaceSentence(label, { from: [c], to: [c] })).toBe("Corvale kept Capability Index #1.");
    expect(firstPlaceSentence(label, { from: [], to: [] })).toBe("Nobody holds Capability Index #1 in either release.");
  });

  it("names the indicators of the own-values part, and counts the rest", () => {
    const move = {
      productId: "q",
      product: "Quillmere",
      vendor: "Q",
      axis: "scale" as const,
      from: 31.4,
      to: 51.4,
      change: 20,
      attribution: { ownValues: 20.5, field: -0.5, method: 0 },
    };
    const by = {
      indicators: [
        { indicatorId: "regions", name: "Regions; zones", points: 12 },
        { indicatorId: "sla", name: "SLA tier", points: 8 },
      ],
      more: 2,
    };
    expect(moveSentenceWithIndicators(move, by)).toBe(
      "Quillmere: +20 Scale (31.4 → 51.4), of which +20.5 from its own values (Regions; zones +12 | SLA tier +8 | and 2 more indicators), -0.5 because the field moved",
    );
    expect(moveSentenceWithIndicators(move, { indicators: [], more: 0 })).toBe(
      "Quillmere: +20 Scale (31.4 → 51.4), of which +20.5 from its own values, -0.5 because the field moved",
    );
  });

  it("leads with the headline, and says its lists are of the products shown on a page", () => {
    const products = [product({ productId: "q", name: "Quillmere" }), product({ productId: "b", name: "Brightwater" })];
    const whole = comparison(
      {
        firstPlace: { capabilityIndex: { from: [b], to: [q] }, max: { from: [c], to: [c] } },
        indicatorsRedefined: ["certs"],
        indicatorNames: [{ indicatorId: "certs", name: "Certifications held" }],
      },
      products,
    );
    const [, headline, , redefined] = comparisonText(whole).split("\n");
    expect(headline).toBe("Quillmere took Capability Index #1 from Brightwater. Corvale kept Max #1 under FR.");
    expect(redefined).toBe("Indicators redefined: Certifications held.");
    expect(comparisonText(whole)).not.toContain("shown");
    const page = comparisonText({ ...whole, page: { offset: 0, returned: 2, total: 1000, nextCursor: "x" } });
    expect(page.split("\n")[1]).toBe(headline);
    expect(page).toContain(
      "Max ranks under FR: none moved among the 2 products usable in both (of the 2 products shown).",
    );
    expect(page).toContain("Capability Index ranks: none moved (of the 2 products shown).");
  });
});
