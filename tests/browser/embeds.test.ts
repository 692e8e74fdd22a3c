/**
 * An embed as a member makes it and as a reader of someone else's report meets it, in Chromium
 * against the running app: made from the Delta's "Embed" form on a market page; framed by a page
 * on another loopback origin it allows, whose reader sees the chart, its table, the caption and
 * the citation of the same release and country the REST reading answers; refused inside a page
 * on an origin it does not allow; reachable by keyboard; no serious axe-core violation; listed on
 * /embeds with its views.
 */
import { createServer, type Server } from "node:http";
import AxeBuilder from "@axe-core/playwright";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ReaderSession, readerSignedUpAt } from "../helpers/browser";

const base = inject("appUrl");
const { reader } = inject("accounts");
const MARKET = "foundation-model-apis";

/** A page on its own loopback origin that frames `src`. */
async function framingSite(src: () => string): Promise<{ origin: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(
      `<!doctype html><html lang="en"><head><title>A report</title></head><body><h1>Our report</h1><iframe id="chart" src="${src()}" width="760" height="900" title="Chart"></iframe></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return { origin: `http://127.0.0.1:${address.port}`, server };
}

interface DeltaReading {
  release: number;
  lastUpdated: string;
  products: {
    productId: string;
    name: string;
    available: boolean;
    published: { innovation: number; control: number };
    underControls: { innovation: number; control: number };
  }[];
}

async function restDelta(release: number): Promise<DeltaReading> {
  const response = await fetch(`${base}/v1/markets/${MARKET}/delta?country=FR&release=${release}`, {
    headers: { Authorization: `Bearer ${reader.token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as DeltaReading;
}

/** The view of the chart on show (the Delta's page draws map and bars, one hidden). */
const SHOWN = "[data-embed-view]:not([hidden]) svg";

async function chartFrame(page: Page): Promise<Frame | undefined> {
  const handle = await page.locator("#chart").elementHandle();
  return (await handle?.contentFrame()) ?? undefined;
}

describe("embeds, in Chromium", () => {
  let session: ReaderSession;
  let allowed: { origin: string; server: Server };
  let refused: { origin: string; server: Server };
  let embedUrl = "";

  beforeAll(async () => {
    allowed = await framingSite(() => embedUrl);
    refused = await framingSite(() => embedUrl);
    session = await readerSignedUpAt(`${base}/markets/${MARKET}/readings?country=FR`, {
      email: `embeds-${Date.now()}@example.com`,
      organization: "Report Writers <Ltd>",
      homeCountry: "FR",
    });
  });
  afterAll(async () => {
    await session?.close();
    allowed?.server.close();
    refused?.server.close();
  });

  it("is made from the Delta's Embed form on a market page", async () => {
    const { page } = session;
    const form = page.getByTestId("embed-delta");
    await form.locator("summary").click();
    await form.getByLabel("Origins allowed to frame it").fill(allowed.origin);
    await expect.poll(() => form.textContent()).toMatch(/Costs 3 credits per release it shows/);
    await form.getByRole("button", { name: "Create embed" }).click();
    const created = page.getByTestId("embed-created");
    await expect.poll(() => created.count()).toBe(1);
    embedUrl = (await created.getByRole("link").first().getAttribute("href")) ?? "";
    expect(embedUrl).toMatch(new RegExp(`^${base}/embed/emb_[0-9a-f]{24}$`));
  });

  it("is framed by a page on an origin it allows: chart, table, caption and citation as the REST reading", async () => {
    const page = await session.context.newPage();
    await page.goto(allowed.origin);
    await expect.poll(async () => (await chartFrame(page))?.url()).toBe(embedUrl);
    const chart = (await chartFrame(page)) as Frame;
    await chart.locator("#embed-caption").waitFor();
    const caption = (await chart.locator("#embed-caption").textContent()) ?? "";
    const release = Number(/release (\d+) of/.exec(caption)?.[1]);
    const delta = await restDelta(release);
    expect(caption).toContain(
      `Delta of Foundation-model APIs, release ${release} of ${delta.lastUpdated.slice(0, 10)}`,
    );
    expect(caption).toContain("France (FR)");
    const citation = (await chart.locator("#embed-citation").textContent()) ?? "";
    expect(citation).toContain(`release ${release} (${delta.lastUpdated.slice(0, 10)})`);
    expect(await chart.getByRole("link", { name: "Methodology" }).getAttribute("href")).toBe(
      `${base}/markets/${MARKET}/methodology`,
    );
    // One mark per product, each with the REST reading's number under controls.
    const marks = chart.locator(`${SHOWN} g.mark`);
    expect(await marks.count()).toBe(delta.products.length);
    for (const product of delta.products) {
      const mark = chart.locator(`${SHOWN} g.mark[data-product="${product.productId}"]`);
      expect(await mark.getAttribute("data-value")).toBe(
        product.available ? product.underControls.innovation.toFixed(1) : "",
      );
    }
    // The table, opened as a reader opens it: the published and kept numbers of each product.
    await chart.getByText("Table of the chart").click();
    const rows = chart.locator("table tbody tr");
    expect(await rows.count()).toBe(delta.products.length);
    for (const product of delta.products) {
      const cells = await chart.locator(`tr[data-product="${product.productId}"] td`).allTextContents();
      expect(cells[0]).toBe(product.name);
      expect(cells[4]).toBe(product.published.innovation.toFixed(1));
      expect(cells[6]).toBe(product.available ? product.underControls.innovation.toFixed(1) : "unavailable");
    }
    // The keyboard reaches the marks, each named with its numbers.
    await chart.locator("body").focus();
    await chart.locator(`${SHOWN} g.mark`).first().focus();
    const focused = await chart.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? "");
    expect(focused).toMatch(/^Product: .+; Vendor: .+; State: (available|unavailable); Published Control: /);
    await page.keyboard.press("Tab");
    const next = await chart.evaluate(() => document.activeElement?.getAttribute("class"));
    expect(next).toBe("mark");
    await page.close();
  });

  it("answers the pointer and the keyboard, and switches between map and bars, as the dashboard's figure", async () => {
    const page = await session.context.newPage();
    const blocked: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(allowed.origin);
    await expect.poll(async () => (await chartFrame(page))?.url()).toBe(embedUrl);
    const chart = (await chartFrame(page)) as Frame;
    // The switch appears only when the page's own script ran (allowed by its hash).
    const map = chart.getByRole("button", { name: "Map" });
    const bars = chart.getByRole("button", { name: "Bars" });
    await map.waitFor();
    expect(await map.getAttribute("aria-pressed")).toBe("true");
    expect(await bars.getAttribute("aria-pressed")).toBe("false");

    const marks = chart.locator(`${SHOWN} g.mark`);
    const products = await marks.evaluateAll((all) => all.map((m) => m.getAttribute("data-product")));
    const tip = chart.locator("#embed-tip");
    await marks.first().focus();
    await expect.poll(() => tip.isVisible()).toBe(true);
    expect(await tip.textContent()).toBe(await marks.first().getAttribute("aria-label"));
    await page.keyboard.press("ArrowDown");
    const active = () => chart.evaluate(() => document.activeElement?.getAttribute("data-product") ?? null);
    expect(await active()).toBe(products[1]);
    expect(await tip.textContent()).toBe(await marks.nth(1).getAttribute("aria-label"));
    await page.keyboard.press("End");
    expect(await active()).toBe(products.at(-1));
    await page.keyboard.press("Home");
    expect(await active()).toBe(products[0]);
    await page.keyboard.press("Escape");
    expect(await tip.isVisible()).toBe(false);
    // Enter opens the table at the mark's row.
    await page.keyboard.press("Enter");
    expect(await chart.locator("#embed-table").evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    const current = chart.locator("tr.current");
    expect(await current.getAttribute("data-product")).toBe(products[0]);
    expect(await chart.evaluate(() => document.activeElement?.tagName)).toBe("TR");
    // The pointer shows the same numbers.
    await marks.nth(2).hover();
    await expect.poll(() => tip.textContent()).toBe(await marks.nth(2).getAttribute("aria-label"));

    // Bars: the same products, ranked, with the kept and published numbers; the map hidden.
    await bars.click();
    expect(await bars.getAttribute("aria-pressed")).toBe("true");
    expect(await chart.locator('[data-embed-view="map"]').isHidden()).toBe(true);
    const barMarks = chart.locator(`${SHOWN} g.mark`);
    expect((await barMarks.evaluateAll((all) => all.map((m) => m.getAttribute("data-product")))).sort()).toEqual(
      [...products].sort(),
    );
    await barMarks.first().focus();
    await page.keyboard.press("ArrowDown");
    expect(await active()).toBe(await barMarks.nth(1).getAttribute("data-product"));
    await map.click();
    expect(await chart.locator('[data-embed-view="bars"]').isHidden()).toBe(true);
    expect(blocked).toEqual([]);
    await page.screenshot({ path: "artifacts/screenshots/embed-framed-interactive.png" });
    await page.close();
  });

  it("fits the frame oEmbed gives a CMS: no scrolling at oEmbed's width and height", async () => {
    const oembed = (await (await fetch(`${base}/oembed?url=${encodeURIComponent(embedUrl)}`)).json()) as {
      width: number;
      height: number;
      html: string;
    };
    expect(oembed.html).toContain(`width="${oembed.width}" height="${oembed.height}"`);
    const page = await session.context.newPage();
    await page.setViewportSize({ width: oembed.width, height: oembed.height });
    await page.goto(embedUrl);
    await page.getByRole("button", { name: "Bars" }).waitFor();
    const size = await page.evaluate(() => ({
      width: document.documentElement.scrollWidth,
      height: document.documentElement.scrollHeight,
    }));
    expect(size.width).toBeLessThanOrEqual(oembed.width);
    expect(size.height).toBeLessThanOrEqual(oembed.height);
    await page.close();
  });

  it("fits a phone's width: no sideways scrolling at 390 px", async () => {
    const page = await session.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(embedUrl);
    await page.getByRole("button", { name: "Bars" }).waitFor();
    for (const view of ["Map", "Bars"]) {
      await page.getByRole("button", { name: view }).click();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), view).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `artifacts/screenshots/phone-embed-${view.toLowerCase()}.png`, fullPage: true });
    }
    await page.close();
  });

  it("is refused inside a page on an origin it does not allow", async () => {
    const page = await session.context.newPage();
    const refusals: string[] = [];
    page.on("console", (message) => {
      if (/frame-ancestors|Refused to frame/i.test(message.text())) refusals.push(message.text());
    });
    await page.goto(refused.origin);
    await page.waitForLoadState("load");
    await expect.poll(() => refusals.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const frame = await chartFrame(page);
    // Chromium puts its error page in place of the chart: none of the chart is there.
    expect(await frame?.locator("#embed-caption").count()).toBe(0);
    await page.close();
  });

  it("has no serious or critical axe-core violation on its page", async () => {
    const page = await session.context.newPage();
    await page.goto(embedUrl);
    await page.evaluate(() => {
      for (const details of document.querySelectorAll("details")) (details as HTMLDetailsElement).open = true;
    });
    const { violations } = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    const serious = violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
    expect(serious).toEqual([]);
    await page.close();
  });

  it("is listed on /embeds with its views", async () => {
    const { page } = session;
    await page.goto(`${base}/embeds`);
    const id = embedUrl.split("/").at(-1) as string;
    const row = page.locator(`tr[data-embed="${id}"]`);
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(async () => Number(await row.getByTestId("embed-views").textContent())).toBeGreaterThan(0);
    expect(await row.textContent()).toContain(allowed.origin);
  });
});
