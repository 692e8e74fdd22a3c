/**
 * Embeds over real HTTP, on an app of this file's own (tight view limits): the page sets no cookie
 * and may be framed by exactly the embed's origins (by any page when it lists none), says the
 * market, release, country and citation; its data as CSV is exactly what it draws and its
 * methodology page is the release's, both public through the embed and gone with it; a market of
 * 1,000 products stays a bounded chart and CSV that hold the event loop briefly; the SVG's numbers are the REST reading's of the same release and country; pinned and
 * latest cache as documented, with ETags and 304; oEmbed answers valid JSON within maxwidth and
 * maxheight, only for our own URLs, whatever Host a client forges; revoked answers 410; too many
 * views 429; hostile product names stay text in the page and the SVG.
 */
import { createHash } from "node:crypto";
import { DOMParser } from "@xmldom/xmldom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { EMBED_DRAWN_PRODUCTS } from "@/server/1-domain/embeds";
import { loadRelease } from "@/server/3-catalog/releases";
import { publishMarket } from "@/server/3-catalog/store";
import { revokeEmbed } from "@/server/4-api-access/embeds";
import { createEmbed } from "@/server/7-procedures/embeds";
import { EMBED_SCRIPT } from "@/server/8-embeds/page-script";
import { svgToPng } from "@/server/8-embeds/png";
import { organization } from "../helpers/accounts";
import { readCsv } from "../helpers/csv";
import { generatedMarket } from "../helpers/generated-catalogue";
import { hostileRequest } from "../helpers/hostile";
import { parseExposition, sample } from "../helpers/metrics";
import { type OwnApp, startOwnApp } from "../helpers/own-app";

const MARKET = "foundation-model-apis";
const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
/** What a spreadsheet would run, at the start of a product's name. */
const FORMULA = `=HYPERLINK("http://evil.example","open")`;
const LARGE = "generated-large-1000";
const ALLOWED = ["https://reports.example.com", "http://127.0.0.1:5555"];
const PER_EMBED = 25;
/** Views from one network: above what the tests before the last make (about 65), below their sum with it. */
const PER_NETWORK = 100;

interface Prepared {
  token: string;
  pinned: string;
  latest: string;
  hostile: string;
  revoked: string;
  busy: string;
  capaindex: string;
  /** Embeds the per-network test spreads its views over, each kept below the per-embed limit. */
  spread: string[];
  /** A Delta of a market of 1,000 products, and another embed of it, viewed first to load its release. */
  large: string;
  largeWarm: string;
  /** The methodology text of MARKET's release 1, as published. */
  methodology: string;
}

let app: OwnApp<Prepared>;
let base: string;

async function prepare(db: Database): Promise<Prepared> {
  const org = await organization(db, "Embedder <b>&", { homeCountry: "FR", credits: 10_000 });
  // A market whose names are markup: they must stay text everywhere an embed writes them.
  const hostile = generatedMarket(5, 6, { seed: 3, marketId: "hostile-names", controls: ["eu-data-residency"] });
  hostile.name = `Market ${HOSTILE}`;
  for (const product of hostile.products) product.name = `${product.name} ${HOSTILE}`;
  (hostile.products[0] as { name: string }).name = `${FORMULA} ${HOSTILE}`;
  hostile.methodology = `Hostile methodology ${HOSTILE}\n\nSecond paragraph & "quotes".`;
  await publishMarket(db, "hostile.json", hostile, {
    notes: "Hostile names.",
    material: false,
    publishedAt: new Date(),
  });
  const make = async (extra: Partial<Parameters<typeof createEmbed>[1]>) =>
    (
      await createEmbed(db, {
        organizationId: org.id,
        marketId: MARKET,
        reading: "delta",
        country: "FR",
        release: 1,
        view: "map",
        theme: "light",
        allowedOrigins: ALLOWED,
        createdByUserId: null,
        ...extra,
      })
    ).id;
  const revoked = await make({});
  await revokeEmbed(db, org.id, revoked);
  await publishMarket(
    db,
    "large.json",
    generatedMarket(1000, 6, { seed: 5, marketId: LARGE, controls: ["eu-data-residency"] }),
    {
      notes: "A thousand products.",
      material: false,
      publishedAt: new Date(),
    },
  );
  return {
    token: org.token,
    pinned: await make({}),
    latest: await make({ reading: "servicemax", release: null, view: "bars", theme: "dark" }),
    hostile: await make({ marketId: "hostile-names", release: null, view: "bars" }),
    revoked,
    busy: await make({ view: "bars" }),
    capaindex: await make({ reading: "capaindex", country: null, view: "bars", allowedOrigins: [] }),
    spread: await Promise.all(Array.from({ length: 8 }, () => make({ view: "bars" }))),
    large: await make({ marketId: LARGE, release: 1, view: "map", allowedOrigins: [] }),
    largeWarm: await make({ marketId: LARGE, reading: "capaindex", country: null, release: 1, view: "bars" }),
    methodology: (await loadRelease(db, MARKET, 1))?.data.methodology ?? "",
  };
}

beforeAll(async () => {
  app = await startOwnApp(
    { EMBED_VIEWS_PER_EMBED: String(PER_EMBED), EMBED_VIEWS_PER_NETWORK: String(PER_NETWORK) },
    prepare,
  );
  base = app.url;
}, 300_000);
afterAll(() => app?.close());

function parseXml(text: string) {
  const problems: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => void problems.push(`${level}: ${message}`),
  }).parseFromString(text, "image/svg+xml");
  expect(problems).toEqual([]);
  return doc;
}

async function rest<T>(path: string): Promise<T> {
  const response = await fetch(`${base}/v1${path}`, { headers: { Authorization: `Bearer ${app.prepared.token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

interface DeltaProduct {
  productId: string;
  name: string;
  available: boolean;
  published: { innovation: number; control: number };
  underControls: { innovation: number; control: number };
}

const marks = (svg: string) => {
  const doc = parseXml(svg);
  return Object.fromEntries(
    Array.from(doc.getElementsByTagName("g"))
      .filter((g) => g.getAttribute("class") === "mark")
      .map((g) => [g.getAttribute("data-product"), g.getAttribute("data-value")]),
  );
};

describe("the embed page", () => {
  it("sets no cookie, is framed by exactly its origins, and says market, release, country and citation", async () => {
    const response = await fetch(`${base}/embed/${app.prepared.pinned}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("x-frame-options")).toBeNull();
    const policy = response.headers.get("content-security-policy") ?? "";
    const ancestors = policy
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith("frame-ancestors"));
    expect(ancestors).toBe(`frame-ancestors ${ALLOWED.join(" ")}`);
    expect(policy).toContain("default-src 'none'");
    const html = await response.text();
    // One script runs: the page's own, named by its hash; nothing inline else, nothing loaded.
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => m[1])).toEqual([""]);
    const hash = createHash("sha256")
      .update(scripts[0]?.[2] ?? "")
      .digest("base64");
    expect(policy).toContain(`script-src 'sha256-${hash}';`);
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
    const delta = await rest<{ release: number; lastUpdated: string; controls: { name: string }[] }>(
      `/markets/${MARKET}/delta?country=FR&release=1`,
    );
    const caption = /<figcaption id="embed-caption">([^<]*)<\/figcaption>/.exec(html)?.[1] ?? "";
    expect(caption).toContain(`release 1 of ${delta.lastUpdated.slice(0, 10)}`);
    expect(caption).toContain("France (FR)");
    for (const control of delta.controls) expect(caption).toContain(control.name.replace(/&/g, "&amp;"));
    expect(html).toMatch(/<p class="citation" id="embed-citation">Market Positioning Service, /);
    // The methodology link is public, through the embed: no sign-in on the way.
    expect(html).toContain(`href="${base}/embed/${app.prepared.pinned}/methodology"`);
    expect(html).toContain(`href="${base}/embed/${app.prepared.pinned}.csv"`);
    // oEmbed discovery.
    expect(html).toMatch(/<link rel="alternate" type="application\/json\+oembed" href="[^"]+\/oembed\?url=/);
  });

  it("an embed that lists no origin may be framed by any page; nothing else opens up", async () => {
    const response = await fetch(`${base}/embed/${app.prepared.capaindex}`);
    expect(response.status).toBe(200);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).not.toContain("frame-ancestors");
    expect(response.headers.get("x-frame-options")).toBeNull();
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/script-src 'sha256-[^']+';/);
    expect(policy).toContain("form-action 'none'");
    expect(response.headers.get("set-cookie")).toBeNull();
    // The files beside it are never framed.
    const svg = await fetch(`${base}/embed/${app.prepared.capaindex}.svg`);
    expect(svg.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

/** The page's table, as a reader sees it: its column names and each row's cells. */
function pageTable(html: string): string[][] {
  const asText = (text: string) =>
    text
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, "&");
  const table = /<details id="embed-table">[\s\S]*?<\/details>/.exec(html)?.[0] ?? "";
  const head = [...table.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => asText(m[1] as string));
  const rows = [...table.matchAll(/<tr data-product[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] as string).matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => asText(m[1] as string)),
  );
  return [head, ...rows];
}

describe("the embed's data and methodology", () => {
  it("the CSV is exactly the chart's table: the same rows, values and order, free and public", async () => {
    const before = await rest<{ balance: number }>("/organization");
    const html = await (await fetch(`${base}/embed/${app.prepared.pinned}`)).text();
    const response = await fetch(`${base}/embed/${app.prepared.pinned}.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${MARKET}-delta-fr-release-1.csv"`);
    expect(response.headers.get("set-cookie")).toBeNull();
    const rows = readCsv(await response.text());
    expect(rows).toEqual(pageTable(html));
    expect(rows.length).toBeGreaterThan(3);
    // The chart's marks are the CSV's rows, in its order.
    const svg = await (await fetch(`${base}/embed/${app.prepared.pinned}.svg`)).text();
    const markOrder = [...svg.matchAll(/<g class="mark"[^>]*data-product="([^"]+)"/g)].map((m) => m[1]);
    const rowOrder = [...html.matchAll(/<tr data-product="([^"]+)"/g)].map((m) => m[1]);
    expect(markOrder).toEqual(rowOrder);
    expect(markOrder).toHaveLength(rows.length - 1);
    expect((await rest<{ balance: number }>("/organization")).balance).toBe(before.balance);
  });

  it("a hostile name is text in the CSV: formulas neutralised, quotes doubled", async () => {
    const csv = await (await fetch(`${base}/embed/${app.prepared.hostile}.csv`)).text();
    const names = readCsv(csv)
      .slice(1)
      .map((row) => row[1]);
    expect(names).toContain(`'${FORMULA} ${HOSTILE}`);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""open"")`);
    for (const name of names) expect(name).not.toMatch(/^[=+\-@]/);
  });

  it("the methodology page is the release's, verbatim and escaped, public, for this embed's market only", async () => {
    const response = await fetch(`${base}/embed/${app.prepared.pinned}/methodology`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("set-cookie")).toBeNull();
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toContain("script-src");
    const html = await response.text();
    expect(html).toContain("Methodology of Foundation-model APIs, release 1");
    const paragraph = app.prepared.methodology.trim().split(/\n\s*\n/)[0] as string;
    expect(paragraph.length).toBeGreaterThan(20);
    expect(html).toContain(paragraph.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#39;"));
    expect(html).not.toMatch(/<script/);
    // The hostile market's methodology stays text.
    const hostile = await (await fetch(`${base}/embed/${app.prepared.hostile}/methodology`)).text();
    expect(hostile).toContain("Hostile methodology &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(hostile).not.toContain("<img");
    expect(hostile).not.toContain("<script");
    // Only through an embed's id: nothing else under the path answers.
    expect((await fetch(`${base}/embed/${app.prepared.pinned}/methodology/x`)).status).toBe(404);
    expect((await fetch(`${base}/embed/foundation-model-apis/methodology`)).status).toBe(404);
  });

  it("a revoked embed's data and methodology are gone, naming nothing", async () => {
    const csv = await fetch(`${base}/embed/${app.prepared.revoked}.csv`);
    expect(csv.status).toBe(410);
    expect(await csv.json()).toMatchObject({ status: 410, code: "gone" });
    const page = await fetch(`${base}/embed/${app.prepared.revoked}/methodology`);
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).not.toContain("Foundation");
    expect(html).not.toContain("Methodology of");
    expect((await fetch(`${base}/embed/emb_${"0".repeat(24)}.csv`)).status).toBe(404);
  });

  it("a market of 1,000 products: a bounded chart and CSV, answered holding the event loop briefly", async () => {
    const held = async () =>
      (sample(parseExposition(await (await fetch(`${base}/metrics`)).text()), "nodejs_eventloop_lag_max_seconds") ??
        0) * 1000;
    // The release loaded once (decoding 1,000 products is the release's cost, not the chart's).
    expect((await fetch(`${base}/embed/${app.prepared.largeWarm}`)).status).toBe(200);
    for (const suffix of ["", ".svg", ".csv", "/methodology"]) {
      await held();
      const response = await fetch(`${base}/embed/${app.prepared.large}${suffix}`);
      const body = await response.text();
      const hold = await held();
      expect(response.status, `view${suffix}`).toBe(200);
      // Coarse: this machine runs other suites at once (the size suite, run alone, holds 250 ms).
      expect(hold, `view${suffix}`).toBeLessThan(500);
      expect(body.length, `view${suffix}`).toBeLessThan(400_000);
      if (suffix === ".csv") expect(readCsv(body)).toHaveLength(EMBED_DRAWN_PRODUCTS + 1);
      if (suffix === "") expect(body).toContain(`Showing the first ${EMBED_DRAWN_PRODUCTS} of 1,000 products`);
    }
  });
});

describe("the ledger", () => {
  it("names each embed charge by its operation, on /v1/ledger and /v1/usage", async () => {
    const ledger = await rest<{ entries: { kind: string; operation: string | null; amount: number }[] }>(
      "/ledger?limit=100",
    );
    const operations = ledger.entries.filter((e) => e.kind === "debit").map((e) => e.operation);
    expect(operations).toContain("embeds.delta");
    expect(operations).toContain("embeds.servicemax");
    expect(operations).toContain("embeds.capaindex");
    const usage = await rest<{ buckets: { groups?: { key: string | null; credits: number }[] }[] }>(
      "/usage?groupBy=operation",
    );
    const keys = usage.buckets.flatMap((b) => (b.groups ?? []).map((g) => g.key));
    expect(keys).toContain("embeds.delta");
  });
});

describe("the embed SVG", () => {
  it("draws the numbers the REST reading of the same release and country answers", async () => {
    const reading = await rest<{ products: DeltaProduct[] }>(`/markets/${MARKET}/delta?country=FR&release=1`);
    const svg = await (await fetch(`${base}/embed/${app.prepared.pinned}.svg`)).text();
    const expected = Object.fromEntries(
      reading.products.map((p) => [p.productId, p.available ? p.underControls.innovation.toFixed(1) : ""]),
    );
    expect(marks(svg)).toEqual(expected);
    expect(Object.keys(expected).length).toBeGreaterThan(3);
    // The latest Max embed: the REST reading of the latest release.
    const max = await rest<{
      release: number;
      products: { productId: string; available: boolean; on: { innovation: number } }[];
    }>(`/markets/${MARKET}/servicemax?country=FR`);
    const latestSvg = await (await fetch(`${base}/embed/${app.prepared.latest}.svg`)).text();
    expect(marks(latestSvg)).toEqual(
      Object.fromEntries(max.products.map((p) => [p.productId, p.available ? p.on.innovation.toFixed(1) : ""])),
    );
    expect(latestSvg).toContain(`release ${max.release} of`);
  });
});

describe("the embed PNG", () => {
  it("is the SVG rendered at twice its size, text included, cached as the SVG is", async () => {
    const svg = await (await fetch(`${base}/embed/${app.prepared.pinned}.svg`)).text();
    const response = await fetch(`${base}/embed/${app.prepared.pinned}.png`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("public, max-age=86400, immutable");
    const png = Buffer.from(await response.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const [, width, height] = /viewBox="0 0 (\d+) (\d+)"/.exec(svg) ?? [];
    expect(png.readUInt32BE(16)).toBe(Number(width) * 2);
    expect(png.readUInt32BE(20)).toBe(Number(height) * 2);
    // The words are drawn: without its text the same chart renders to other pixels.
    const wordless = await svgToPng(svg.replace(/<text[^>]*>[^<]*<\/text>/g, ""));
    expect(wordless).not.toBeNull();
    expect(png.equals(wordless as Buffer)).toBe(false);
    const etag = response.headers.get("etag") ?? "";
    const again = await fetch(`${base}/embed/${app.prepared.pinned}.png`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });
});

describe("caching", () => {
  it("a pinned embed is immutable for a day (a revocation reaches every copy), with a strong ETag and 304", async () => {
    for (const suffix of ["", ".svg"]) {
      const url = `${base}/embed/${app.prepared.pinned}${suffix}`;
      const first = await fetch(url);
      expect(first.headers.get("cache-control")).toBe("public, max-age=86400, immutable");
      const etag = first.headers.get("etag") ?? "";
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await fetch(url, { headers: { "If-None-Match": etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      const stale = await fetch(url, { headers: { "If-None-Match": '"other"' } });
      expect(stale.status).toBe(200);
    }
  });

  it("a latest embed is kept a minute, its ETag that of the release it shows", async () => {
    const first = await fetch(`${base}/embed/${app.prepared.latest}`);
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    const etag = first.headers.get("etag") ?? "";
    expect(etag).not.toBe("");
    expect((await fetch(`${base}/embed/${app.prepared.latest}`, { headers: { "If-None-Match": etag } })).status).toBe(
      304,
    );
    expect(await first.text()).toContain("(the latest release shown)");
  });
});

describe("oEmbed", () => {
  const pageUrl = () => `${base}/embed/${app.prepared.pinned}`;

  it("answers rich oEmbed 1.0 JSON within maxwidth and maxheight", async () => {
    const response = await fetch(
      `${base}/oembed?url=${encodeURIComponent(pageUrl())}&maxwidth=400&maxheight=300&format=json`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ version: "1.0", type: "rich", provider_name: "Market Positioning Service" });
    expect(typeof body.title).toBe("string");
    expect(typeof body.html).toBe("string");
    expect(typeof body.provider_url).toBe("string");
    expect(body.cache_age).toBe(86_400);
    expect(Number.isInteger(body.width) && Number.isInteger(body.height)).toBe(true);
    expect(body.width as number).toBeLessThanOrEqual(400);
    expect(body.height as number).toBeLessThanOrEqual(300);
    expect(body.html).toContain(`<iframe src="${pageUrl()}" width="${body.width}" height="${body.height}"`);
    // Without limits: the page's own size.
    const free = (await (await fetch(`${base}/oembed?url=${encodeURIComponent(pageUrl())}`)).json()) as {
      width: number;
    };
    expect(free.width).toBeGreaterThan(400);
  });

  it("refuses URLs not ours (404), format=xml (501), and a forged Host changes no URL", async () => {
    const elsewhere = encodeURIComponent(`https://evil.example/embed/${app.prepared.pinned}`);
    expect((await fetch(`${base}/oembed?url=${elsewhere}`)).status).toBe(404);
    expect((await fetch(`${base}/oembed?url=${encodeURIComponent(`${pageUrl()}x`)}`)).status).toBe(404);
    expect((await fetch(`${base}/oembed?url=${encodeURIComponent(`${base}/markets`)}`)).status).toBe(404);
    const xml = await fetch(`${base}/oembed?url=${encodeURIComponent(pageUrl())}&format=xml`);
    expect(xml.status).toBe(501);
    expect(xml.headers.get("content-type")).toBe("application/problem+json");
    expect(await xml.json()).toMatchObject({ status: 501, code: "not_implemented", title: "Not implemented" });
    // A client naming another host: it cannot make us vouch for its URLs, nor change ours.
    const forged = await hostileRequest(
      base,
      `/oembed?url=${encodeURIComponent(`http://evil.example/embed/${app.prepared.pinned}`)}`,
      {
        headers: { Host: "evil.example", "X-Forwarded-Host": "evil.example" },
      },
    );
    expect(forged.status).toBe(404);
    const ours = await hostileRequest(
      base,
      `/oembed?url=${encodeURIComponent(`http://localhost:${new URL(base).port}/embed/${app.prepared.pinned}`)}`,
      { headers: { Host: "evil.example" } },
    );
    expect(ours.status).toBe(200);
    expect(ours.body).not.toContain("evil.example");
    const page = await hostileRequest(base, `/embed/${app.prepared.pinned}`, { headers: { Host: "evil.example" } });
    expect(page.body).not.toContain("evil.example");
  });
});

describe("revoked, throttled, hostile", () => {
  it("a revoked embed answers 410 with a neutral page naming neither organization nor market", async () => {
    const page = await fetch(`${base}/embed/${app.prepared.revoked}`);
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).not.toContain("Embedder");
    expect(html).not.toContain("Foundation");
    expect(html).not.toContain(MARKET);
    expect((await fetch(`${base}/embed/${app.prepared.revoked}.svg`)).status).toBe(410);
    expect((await fetch(`${base}/embed/${app.prepared.revoked}.csv`)).status).toBe(410);
    const svg = await fetch(`${base}/embed/${app.prepared.revoked}.svg`);
    expect(await svg.json()).toMatchObject({ status: 410, code: "gone", title: "Gone" });
    const oembed = await fetch(`${base}/oembed?url=${encodeURIComponent(`${base}/embed/${app.prepared.revoked}`)}`);
    expect(oembed.status).toBe(410);
    expect(await oembed.json()).toMatchObject({ status: 410, code: "gone" });
    expect((await fetch(`${base}/embed/emb_${"0".repeat(24)}`)).status).toBe(404);
  });

  it("beyond the views allowed per embed: 429, problem+json for the SVG, a neutral page for the page", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_EMBED; i++) statuses.push((await fetch(`${base}/embed/${app.prepared.busy}.svg`)).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const svg = await fetch(`${base}/embed/${app.prepared.busy}.svg`);
    expect(svg.status).toBe(429);
    expect(svg.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(svg.headers.get("retry-after"))).toBeGreaterThan(0);
    const page = await fetch(`${base}/embed/${app.prepared.busy}`);
    expect(page.status).toBe(429);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).not.toContain(MARKET);
    // Another embed is not held back by this one's views.
    expect((await fetch(`${base}/embed/${app.prepared.pinned}.svg`)).status).toBe(200);
  });

  it("hostile product and market names stay text in the page and the SVG", async () => {
    const html = await (await fetch(`${base}/embed/${app.prepared.hostile}`)).text();
    // The page's own script is its only one: no name became markup.
    expect([...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1])).toEqual([EMBED_SCRIPT]);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    const svg = await (await fetch(`${base}/embed/${app.prepared.hostile}.svg`)).text();
    const doc = parseXml(svg);
    expect(doc.getElementsByTagName("script").length).toBe(0);
    expect(doc.getElementsByTagName("img").length).toBe(0);
    expect(doc.getElementsByTagName("title")[0]?.textContent).toContain(`Market ${HOSTILE}`);
  });

  // Last: it spends this network's views for the minute.
  it("counts views per viewer network, whatever X-Forwarded-For a client forges", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 120 && !statuses.includes(429); i++) {
      const embed = app.prepared.spread[i % app.prepared.spread.length] as string;
      const answer = await hostileRequest(base, `/embed/${embed}.svg`, {
        headers: { "X-Forwarded-For": `203.0.113.${i % 250}`, Forwarded: `for=198.51.100.${i % 250}` },
      });
      statuses.push(answer.status);
    }
    // Each embed saw at most 15 views (below its own limit of 25): the network's count refused.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(10);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeLessThanOrEqual(PER_NETWORK);
  });
});
