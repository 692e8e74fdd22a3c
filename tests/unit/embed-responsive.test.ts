/**
 * The embed's chart where it is pasted: drawn wide (720 px) and narrow (380 px, for a phone's
 * frame), with every text of the narrow drawing at least 12 px (11.8 px in a 390 px frame); names
 * wrapped and shortened between words, never cut inside one, the whole name in the mark's title;
 * an `auto` chart repainted for a dark reader by CSS alone; alt text said from the data; and the
 * CSV of exactly what it draws, hostile text neutralised.
 */
import { DOMParser } from "@xmldom/xmldom";
import { describe, expect, it } from "vitest";
import type { EmbedFacts } from "@/server/1-domain/embeds";
import type { DeltaPayload, MaxPayload } from "@/server/2-charts/chart-data";
import { altTextOf, csvOf, embedChart, embedSvg, linesWithin, shortenAtWord, tableOf } from "@/server/8-embeds/chart";
import { embedPage, methodologyPage } from "@/server/8-embeds/page";
import { readCsv } from "../helpers/csv";

const LONG = "Kestrelune Models API (Kestrelune Systems Enterprise Edition)";
const FORMULA = `=HYPERLINK("http://evil.example","x") <b>"q"</b> & 'a'`;

const facts: EmbedFacts = {
  marketName: "Foundation-model APIs",
  release: 3,
  releasedAt: "2026-03-04T10:00:00.000Z",
  country: { code: "FR", name: "France", controls: ["SecNumCloud"] },
  latest: false,
  methodologyUrl: "https://example.org/embed/emb_0/methodology",
  publisher: "Market Positioning Service",
};

const s = (innovation: number, control: number, scale: number) => ({ innovation, control, scale });
const names = [LONG, FORMULA, "Brightwater Cloud", "Quillmere", "Supercalifragilisticexpialidociousnessness Platform"];
const delta: DeltaPayload = {
  marketId: "m",
  country: "FR",
  products: names.map((name, i) => ({
    productId: `p${i}`,
    name,
    vendor: i === 1 ? "+Vendor" : `Vendor ${i}`,
    available: i !== 3,
    published: s(80 - i * 10, 30 + i * 5, 50),
    underControls: s(70 - i * 10, 40 + i * 5, 50),
    distance: { ...s(-10, 10, 0), magnitude: 14 },
  })),
};
const max: MaxPayload = {
  marketId: "m",
  country: "FR",
  controls: [],
  products: names.map((name, i) => ({
    productId: `p${i}`,
    name,
    vendor: `Vendor ${i}`,
    available: i !== 3,
    rank: i === 3 ? null : i + 1,
    off: { innovation: 90 - i * 10, control: 50 },
    on: { innovation: 80 - i * 10, control: 60 },
  })),
} as unknown as MaxPayload;

const parse = (svg: string) => new DOMParser().parseFromString(svg, "image/svg+xml");
const texts = (svg: string) => Array.from(parse(svg).getElementsByTagName("text"));

describe("names on the chart", () => {
  it("are shortened between words, never inside one that fits", () => {
    const short = shortenAtWord(LONG, 12, 200);
    expect(short.endsWith("…")).toBe(true);
    const kept = short.slice(0, -1).split(" ");
    // Every word kept is a whole word of the name.
    for (const word of kept) expect(LONG.split(" ")).toContain(word);
    expect(linesWithin(LONG, 12, 230, 2).join(" ").replace("…", "")).not.toMatch(/\(Kestrelune S$/);
  });

  for (const layout of ["wide", "narrow"] as const)
    it(`are drawn whole words in the ${layout} bars, the whole name in each mark's title`, () => {
      const chart = embedChart({ reading: "servicemax", payload: max }, "bars", "light", facts);
      const svg = embedSvg(chart, { standalone: false, layout });
      const doc = parse(svg);
      const drawn = Array.from(doc.getElementsByTagName("g"))
        .filter((g) => g.getAttribute("class") === "mark")
        .map((g) => ({
          index: Number(g.getAttribute("data-product")?.slice(1)),
          title: g.getElementsByTagName("title")[0]?.textContent ?? "",
          name: Array.from(g.getElementsByTagName("tspan"))
            .map((line) => line.textContent)
            .join(" "),
        }));
      expect(drawn).toHaveLength(names.length);
      for (const mark of drawn) {
        const i = mark.index;
        expect(mark.title).toContain(`Product: ${names[i]}`);
        // The drawn words are the name's words, only the last of them possibly shortened by "…".
        const words = mark.name
          .replace(/…$/, "")
          .replace(/^\d+\. |^– /, "")
          .split(/\s+/);
        const whole = `${names[i]} (Vendor ${i})`.split(/\s+/);
        for (const word of words.slice(0, -1)) expect(whole).toContain(word);
      }
      expect(svg).not.toContain("(Kestrelune S<");
    });

  it("keep every text of the narrow drawing at 12 px or more, within its width", () => {
    for (const [reading, payload, view] of [
      ["delta", delta, "map"],
      ["delta", delta, "bars"],
      ["servicemax", max, "bars"],
    ] as const) {
      const chart = embedChart({ reading, payload } as never, view, "light", facts);
      const svg = embedSvg(chart, { standalone: false, layout: "narrow" });
      expect(svg).toMatch(/viewBox="0 0 380 \d+"/);
      const sizes = texts(svg).map((t) => Number(t.getAttribute("font-size")));
      expect(sizes.length).toBeGreaterThan(5);
      expect(Math.min(...sizes), `${reading} ${view}`).toBeGreaterThanOrEqual(12);
      // No text starts outside the drawing.
      for (const t of texts(svg)) expect(Number(t.getAttribute("x"))).toBeLessThanOrEqual(380);
    }
  });
});

describe("the reader's scheme", () => {
  it("an auto chart draws the light palette and carries the CSS that repaints it dark; light and dark are fixed", () => {
    const auto = embedSvg(embedChart({ reading: "delta", payload: delta }, "bars", "auto", facts));
    expect(auto).toContain("@media (prefers-color-scheme: dark)");
    expect(auto).toContain('fill="#ffffff"');
    expect(auto).toContain('svg [fill="#ffffff"]{fill:#16181d}');
    const light = embedSvg(embedChart({ reading: "delta", payload: delta }, "bars", "light", facts));
    expect(light).not.toContain("prefers-color-scheme");
    const dark = embedSvg(embedChart({ reading: "delta", payload: delta }, "bars", "dark", facts));
    expect(dark).toContain('fill="#16181d"');
    // The PNG's drawing carries no CSS its renderer could misread.
    expect(
      embedSvg(embedChart({ reading: "delta", payload: delta }, "bars", "auto", facts), { schemes: false }),
    ).not.toContain("<style>");
    const page = embedPage(embedChart({ reading: "delta", payload: delta }, "bars", "auto", facts), {
      page: "https://e.example/embed/x",
      svg: "https://e.example/embed/x.svg",
      oembed: "https://e.example/oembed",
    });
    expect(page).toContain("color-scheme:light dark");
    expect(page).toContain("@media (prefers-color-scheme: dark){:root{--bg:#16181d");
  });
});

describe("alt text", () => {
  it("says from the data how many products and the first entries, hostile names as text", () => {
    const chart = embedChart({ reading: "servicemax", payload: max }, "bars", "light", facts);
    const alt = altTextOf(chart);
    expect(alt).toContain(`Max — Foundation-model APIs: 5 products.`);
    expect(alt).toContain(
      `First: 1. ${LONG} (Vendor 0) 80.0; 2. ${FORMULA} (Vendor 1) 70.0; 3. Brightwater Cloud (Vendor 2) 60.0.`,
    );
    expect(alt).toContain("1 drawn as unavailable.");
    const svg = embedSvg(chart, { standalone: false });
    const desc = parse(svg).getElementsByTagName("desc")[0];
    expect(desc?.textContent).toBe(alt);
    expect(svg).not.toContain("<b>");
    const map = altTextOf(embedChart({ reading: "delta", payload: delta }, "map", "light", facts));
    expect(map).toContain(`Highest Innovation under controls: ${LONG} (Vendor 0) 70.0, published 80.0;`);
  });
});

describe("the chart's data as CSV", () => {
  it("holds exactly the table's rows in its order, numbers as numbers, formulas neutralised", () => {
    const chart = embedChart({ reading: "delta", payload: delta }, "map", "light", facts);
    const table = tableOf(chart.drawing);
    const csv = csvOf(chart.drawing);
    const rows = readCsv(csv);
    expect(rows[0]).toEqual(table.columns);
    expect(rows.slice(1).map((r) => r[0])).toEqual(
      table.rows.map((r) => (r.cells[0] === FORMULA ? `'${FORMULA}` : r.cells[0])),
    );
    expect(rows.slice(1).map((r) => r.slice(2))).toEqual(table.rows.map((r) => r.cells.slice(2)));
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""x"") <b>""q""</b> & 'a'"`);
    expect(csv).toContain(`"'+Vendor"`);
    expect(csv.endsWith("\r\n")).toBe(true);
  });
});

describe("the methodology page", () => {
  it("says the methodology verbatim, every text escaped", () => {
    const html = methodologyPage({
      marketName: `M <script>alert(1)</script>`,
      release: 2,
      releasedAt: "2026-01-02T00:00:00.000Z",
      methodologyVersion: "1.2",
      methodology: `First "para" <img src=x onerror=alert(1)>.\n\nSecond & last.`,
      dimensions: [{ name: "Innovation", description: "How <new>.", bands: [{ name: "High", from: 70, to: 100 }] }],
      chartUrl: "https://e.example/embed/x",
    });
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img");
    expect(html).toContain("<p>First &quot;para&quot; &lt;img src=x onerror=alert(1)&gt;.</p>");
    expect(html).toContain("<p>Second &amp; last.</p>");
    expect(html).toContain("How &lt;new&gt;.");
  });
});
