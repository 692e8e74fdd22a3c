/**
 * An embed's picture is bounded by design: whatever the market's size (10 to 10,000 products), the
 * chart draws the first EMBED_DRAWN_PRODUCTS under its reading, says how many more there are and
 * links the full table, and its SVG, its page and its PNG's pixels stay within the same bounds. The
 * map draws the same products as the bars. No timing here (tests/bench/size.ts measures it).
 */
import { describe, expect, it } from "vitest";
import { EMBED_DRAWN_PRODUCTS, type EmbedFacts } from "@/server/1-domain/embeds";
import type { DeltaPayload } from "@/server/2-charts/chart-data";
import { type AvailabilityPayload, embedChart, embedSvg, svgSize, tableOf } from "@/server/8-embeds/chart";
import { embedPage } from "@/server/8-embeds/page";
import { PNG_MAX_PIXELS, PNG_SCALE, zoomWithin } from "@/server/8-embeds/png";

const facts: EmbedFacts = {
  marketName: "Generated",
  release: 2,
  releasedAt: "2026-03-04T10:00:00.000Z",
  country: { code: "FR", name: "France", controls: ["SecNumCloud"] },
  latest: false,
  methodologyUrl: "https://example.org/markets/m/methodology",
  publisher: "Market Positioning Service",
  fullTableUrl: "https://example.org/markets/m/readings?release=2&country=FR",
};

const scores = (i: number) => ({ innovation: (i * 37) % 100, control: (i * 53) % 100, scale: (i * 71) % 100 });

function delta(products: number): DeltaPayload {
  return {
    marketId: "m",
    country: "FR",
    products: Array.from({ length: products }, (_, i) => {
      const published = scores(i);
      const available = i % 7 !== 3;
      const underControls = available ? { ...published, innovation: published.innovation * 0.8 } : scores(0);
      return {
        productId: `p${i}`,
        name: `Product ${i} with a long name that wraps`,
        vendor: `Vendor ${i % 40}`,
        available,
        published,
        underControls,
        distance: { innovation: 0, control: 0, scale: 0, magnitude: available ? 5 : 100 },
      };
    }),
  };
}

function availability(products: number, countries: number): AvailabilityPayload {
  const list = Array.from({ length: countries }, (_, j) => ({ country: `C${j}`, name: `Country ${j}` }));
  return {
    marketId: "m",
    countries: list,
    products: Array.from({ length: products }, (_, i) => ({
      productId: `p${i}`,
      name: `Product ${i}`,
      vendor: "V",
      innovation: scores(i).innovation,
      cells: list.map((c, j) => ({
        country: c.country,
        available: (i + j) % 5 !== 0,
        innovationRetained: (i * j) % 100,
      })),
    })),
  };
}

const marks = (svg: string) => svg.match(/class="mark"/g)?.length ?? 0;
const sizes = [10, 1_000, 10_000];

describe("an embed's chart at any market size", () => {
  for (const view of ["bars", "map"] as const)
    it(`draws at most ${EMBED_DRAWN_PRODUCTS} products (delta ${view}), whatever the market's size`, () => {
      const svgBytes = sizes.map((n) => {
        const chart = embedChart({ reading: "delta", payload: delta(n) }, view, "light", facts);
        const svg = embedSvg(chart);
        expect(marks(svg)).toBe(Math.min(n, EMBED_DRAWN_PRODUCTS));
        expect(tableOf(chart.drawing).rows).toHaveLength(Math.min(n, EMBED_DRAWN_PRODUCTS));
        expect(chart.total).toBe(n);
        if (n > EMBED_DRAWN_PRODUCTS) {
          expect(chart.more).toContain(
            `Showing the first ${EMBED_DRAWN_PRODUCTS} of ${n.toLocaleString("en-US")} products under this reading`,
          );
          expect(svg).toContain(`${(n - EMBED_DRAWN_PRODUCTS).toLocaleString("en-US")} more are in the full table`);
        } else expect(chart.more).toBeUndefined();
        return Buffer.byteLength(svg);
      });
      // 1,000 and 10,000 products: a picture of the same size (other products, other numbers).
      expect(svgBytes[2] as number).toBeLessThan((svgBytes[1] as number) * 1.1);
      expect(svgBytes[2] as number).toBeLessThan(64 * 1024);
    });

  it("draws the map and the bars of one Delta over the same products, in the reading's order", () => {
    const payload = delta(1_000);
    const bars = embedChart({ reading: "delta", payload }, "bars", "light", facts);
    const map = embedChart({ reading: "delta", payload }, "map", "light", facts);
    const ids = (chart: typeof bars) => tableOf(chart.drawing).rows.map((r) => r.productId);
    expect(new Set(ids(map))).toEqual(new Set(ids(bars)));
    // The first bar is the best-kept Innovation under controls among the available products.
    const best = payload.products
      .filter((p) => p.available)
      .reduce((a, b) => (b.underControls.innovation > a.underControls.innovation ? b : a));
    expect(tableOf(bars.drawing).rows[0]?.cells).toContain(best.underControls.innovation.toFixed(1));
  });

  it("bounds the availability grid's rows, and its page links every product", () => {
    for (const n of sizes) {
      const chart = embedChart({ reading: "availability", payload: availability(n, 30) }, "grid", "dark", facts);
      expect(marks(embedSvg(chart))).toBe(Math.min(n, EMBED_DRAWN_PRODUCTS));
      const page = embedPage(chart, { page: "https://e/p", svg: "https://e/p.svg", oembed: "https://e/o" });
      expect((page.match(/<tr data-product=/g) ?? []).length).toBe(Math.min(n, EMBED_DRAWN_PRODUCTS));
      if (n > EMBED_DRAWN_PRODUCTS) expect(page).toContain(`href="${facts.fullTableUrl?.replaceAll("&", "&amp;")}"`);
    }
  });

  it("keeps a hostile full-table address as text", () => {
    const chart = embedChart({ reading: "delta", payload: delta(100) }, "bars", "light", {
      ...facts,
      fullTableUrl: `https://e/"><script>alert(1)</script>`,
    });
    const page = embedPage(chart, { page: "https://e/p", svg: "https://e/p.svg", oembed: "https://e/o" });
    expect(page).not.toContain("<script>alert(1)");
    expect(embedSvg(chart)).not.toContain("<script>alert(1)");
  });

  it("renders every chart's PNG within the pixel budget", () => {
    for (const n of sizes) {
      const size = svgSize(
        embedSvg(embedChart({ reading: "availability", payload: availability(n, 60) }, "grid", "light", facts)),
      );
      const zoom = zoomWithin(size, PNG_SCALE, PNG_MAX_PIXELS);
      expect(zoom).toBeGreaterThan(0);
      expect(zoom).toBeLessThanOrEqual(PNG_SCALE);
      expect(Math.ceil(size.width * zoom) * Math.ceil(size.height * zoom)).toBeLessThanOrEqual(PNG_MAX_PIXELS);
    }
    // A picture taller than the budget allows at full scale is drawn smaller, never larger.
    expect(zoomWithin({ width: 720, height: 44_352 / 2 }, PNG_SCALE, PNG_MAX_PIXELS)).toBeLessThan(1);
  });
});
