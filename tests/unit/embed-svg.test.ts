/**
 * The embed's chart, pure: the SVG is well-formed XML with a title and a description, every name
 * stays text (hostile markup, quotes, control characters), the numbers drawn are the payload's;
 * the page's table says the same; oEmbed sizes fit within maxwidth and maxheight.
 */
import { createHash } from "node:crypto";
import { DOMParser } from "@xmldom/xmldom";
import { describe, expect, it } from "vitest";
import type { EmbedFacts } from "@/server/1-domain/embeds";
import type { DeltaPayload, MaxPayload } from "@/server/2-charts/chart-data";
import { type AvailabilityPayload, embedChart, embedSvg, fitWithin, svgSize, tableOf } from "@/server/8-embeds/chart";
import { embedPage } from "@/server/8-embeds/page";
import { EMBED_SCRIPT, EMBED_SCRIPT_SOURCE } from "@/server/8-embeds/page-script";

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)> & 'q' \u0000\u0007]]>`;

const s = (innovation: number, control: number, scale: number) => ({ innovation, control, scale });
const delta: DeltaPayload = {
  marketId: "m",
  country: "FR",
  products: [
    {
      productId: "a",
      name: HOSTILE,
      vendor: "Vendor </text><text>",
      available: true,
      published: s(80.4, 30, 70),
      underControls: s(62.1, 75.5, 50),
      distance: { ...s(-18.3, 45.5, -20), magnitude: 52.8 },
    },
    {
      productId: "b",
      name: "Beta",
      vendor: "V2",
      available: false,
      published: s(90, 20, 60),
      underControls: s(0, 0, 0),
      distance: { ...s(-90, -20, -60), magnitude: 110 },
    },
    {
      productId: "c",
      name: "Gamma",
      vendor: "V3",
      available: true,
      published: s(55, 50, 40),
      underControls: s(55, 50, 40),
      distance: { ...s(0, 0, 0), magnitude: 0 },
    },
  ],
};

const facts: EmbedFacts = {
  marketName: `Market ${HOSTILE}`,
  release: 3,
  releasedAt: "2026-03-04T10:00:00.000Z",
  country: { code: "FR", name: "France", controls: ["SecNumCloud", `Keys ${HOSTILE}`] },
  latest: false,
  methodologyUrl: "https://example.org/markets/m/methodology",
  publisher: "Market Positioning Service",
};

/** Parses strictly: any error or warning fails the test. */
function parseXml(text: string) {
  const problems: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => {
      problems.push(`${level}: ${message}`);
    },
  }).parseFromString(text, "image/svg+xml");
  expect(problems).toEqual([]);
  return doc;
}

const textOf = (node: { textContent: string | null }) => node.textContent ?? "";

describe("the embed SVG", () => {
  for (const view of ["bars", "map"] as const) {
    it(`is well-formed XML with a title and a description (delta ${view})`, () => {
      const svg = embedSvg(embedChart({ reading: "delta", payload: delta }, view, "light", facts));
      const doc = parseXml(svg);
      const root = doc.documentElement;
      expect(root?.nodeName).toBe("svg");
      const title = doc.getElementsByTagName("title")[0];
      const desc = doc.getElementsByTagName("desc")[0];
      expect(title && textOf(title)).toContain("Delta");
      // The hostile name is text, whole but for what XML cannot hold (control characters).
      expect(title && textOf(title)).toContain(`<script>alert("x")</script>`);
      expect(desc && textOf(desc)).toContain("release 3 of 2026-03-04");
      // No element came out of a name: only the renderer's own.
      const names = new Set<string>();
      const walk = (node: Element) => {
        names.add(node.nodeName);
        for (let i = 0; i < node.childNodes.length; i++) {
          const child = node.childNodes[i] as unknown as Element;
          if (child.nodeType === 1) walk(child);
        }
      };
      walk(root as unknown as Element);
      const allowed = new Set(["svg", "title", "desc", "rect", "g", "text", "tspan", "line", "circle"]);
      expect([...names].filter((name) => !allowed.has(name))).toEqual([]);
      expect(names.has("script")).toBe(false);
      expect(names.has("img")).toBe(false);
      expect(svg).not.toContain("\u0000");
      // Caption and citation inside.
      const texts = Array.from(doc.getElementsByTagName("text")).map(textOf);
      expect(texts.join(" ")).toContain("Market Positioning Service");
      expect(texts.join(" ")).toContain("https://example.org/markets/m/methodology");
    });
  }

  it("draws exactly the payload's numbers (delta bars)", () => {
    const doc = parseXml(embedSvg(embedChart({ reading: "delta", payload: delta }, "bars", "dark", facts)));
    const marks = Array.from(doc.getElementsByTagName("g")).filter((g) => g.getAttribute("class") === "mark");
    const values = Object.fromEntries(marks.map((g) => [g.getAttribute("data-product"), g.getAttribute("data-value")]));
    expect(values).toEqual({ a: "62.1", c: "55.0", b: "" });
    // The value printed beside each bar is the same number.
    const shownA = Array.from(marks[0]?.getElementsByTagName("text") ?? []).map(textOf);
    expect(shownA).toContain("62.1");
    // Unavailable is said, never drawn as a bar of 0.
    const beta = marks.find((g) => g.getAttribute("data-product") === "b");
    expect(beta?.getElementsByTagName("rect").length).toBe(1); // the ghost only
    expect(Array.from(beta?.getElementsByTagName("text") ?? []).map(textOf)).toContain("unavailable");
  });

  it("draws the Max reading's kept Innovation and the availability grid's cells", () => {
    const max: MaxPayload = {
      marketId: "m",
      country: "FR",
      products: [
        {
          productId: "a",
          name: "A",
          vendor: "V",
          available: true,
          rank: 1,
          off: s(70, 1, 1),
          on: s(41.7, 1, 1),
          missingControls: [],
        },
        {
          productId: "b",
          name: "B",
          vendor: "V",
          available: false,
          rank: 2,
          off: s(90, 1, 1),
          on: s(0, 0, 0),
          missingControls: ["k"],
        },
      ],
    };
    const doc = parseXml(embedSvg(embedChart({ reading: "servicemax", payload: max }, "bars", "light", facts)));
    const values = Array.from(doc.getElementsByTagName("g")).map((g) => g.getAttribute("data-value"));
    expect(values).toEqual(["41.7", ""]);

    const matrix: AvailabilityPayload = {
      marketId: "m",
      countries: [
        { country: "FR", name: "France" },
        { country: "DE", name: `Germany ${HOSTILE}` },
      ],
      products: [
        {
          productId: "a",
          name: "A",
          vendor: "V",
          innovation: 70,
          cells: [
            { country: "FR", available: true, innovationRetained: 33.3 },
            { country: "DE", available: false, innovationRetained: 0 },
          ],
        },
      ],
    };
    const chart = embedChart({ reading: "availability", payload: matrix }, "grid", "light", {
      ...facts,
      country: null,
    });
    const grid = parseXml(embedSvg(chart));
    const cellTexts = Array.from(grid.getElementsByTagName("text")).map(textOf);
    expect(cellTexts).toContain("33.3");
    expect(chart.caption).toContain("under every country's controls");
    expect(tableOf(chart.drawing).rows[0]?.cells).toEqual(["A", "V", "33.3", "unavailable"]);
  });

  it("keeps hostile names as text in the page, and its table says the chart's numbers", () => {
    const chart = embedChart({ reading: "delta", payload: delta }, "map", "light", facts);
    const bars = embedChart({ reading: "delta", payload: delta }, "bars", "light", facts);
    const html = embedPage(
      chart,
      {
        page: "https://example.org/embed/emb_1",
        svg: "https://example.org/embed/emb_1.svg",
        oembed: "https://example.org/oembed?url=x",
      },
      [bars],
    );
    // The one script is the page's own, whose hash the policy names; no name became markup.
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toEqual([EMBED_SCRIPT]);
    expect(EMBED_SCRIPT_SOURCE).toBe(
      `'sha256-${createHash("sha256")
        .update(scripts[0] as string)
        .digest("base64")}'`,
    );
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain('type="application/json+oembed"');
    expect(tableOf(chart.drawing).rows.map((r) => r.cells.slice(3))).toEqual([
      ["30.0", "80.4", "75.5", "62.1"],
      ["20.0", "90.0", "unavailable", "unavailable"],
      ["50.0", "55.0", "50.0", "55.0"],
    ]);
    // Both views are drawn, the embed's first and shown, the other hidden for the switch; ids do not clash.
    expect([...html.matchAll(/<div data-embed-view="(\w+)"( hidden)?>/g)].map((m) => [m[1], Boolean(m[2])])).toEqual([
      ["map", false],
      ["bars", true],
    ]);
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("oEmbed sizing", () => {
  it("keeps the chart's size when it fits, and scales it down keeping the aspect when not", () => {
    expect(fitWithin({ width: 720, height: 480 }, {})).toEqual({ width: 720, height: 480 });
    expect(fitWithin({ width: 720, height: 480 }, { width: 1000, height: 1000 })).toEqual({ width: 720, height: 480 });
    expect(fitWithin({ width: 720, height: 480 }, { width: 360 })).toEqual({ width: 360, height: 240 });
    expect(fitWithin({ width: 720, height: 480 }, { height: 240 })).toEqual({ width: 360, height: 240 });
    expect(fitWithin({ width: 720, height: 480 }, { width: 600, height: 100 })).toEqual({ width: 150, height: 100 });
  });

  it("never exceeds maxwidth or maxheight (any sizes)", () => {
    for (let w = 1; w < 2000; w += 37)
      for (let h = 1; h < 2000; h += 53) {
        const fit = fitWithin({ width: 736, height: 513 }, { width: w, height: h });
        expect(fit.width).toBeLessThanOrEqual(Math.max(1, w));
        expect(fit.height).toBeLessThanOrEqual(Math.max(1, h));
      }
  });

  it("reads the SVG's own size", () => {
    const svg = embedSvg(embedChart({ reading: "delta", payload: delta }, "bars", "light", facts));
    const size = svgSize(svg);
    expect(size.width).toBe(720);
    expect(size.height).toBeGreaterThan(100);
  });
});
