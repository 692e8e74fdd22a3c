/**
 * An embed as a member makes it and as a reader of someone else's report meets it, in Chromium
 * against the running app: made from the Delta's "Embed" form on a market page, restricted to one
 * site; framed by a page on another loopback origin it allows, whose reader sees the chart, its
 * table, the caption and the citation of the same release and country the REST reading answers;
 * refused inside a page on an origin it does not allow; reachable by keyboard; no serious
 * axe-core violation. Made with the panel's default (any site), its snippet pasted into a page on
 * yet another origin renders at 1280 and at 390 px, in the reader's dark scheme too, its text at
 * least 11 px in a 390 px frame; its data and methodology open without signing in. Listed on
 * /embeds by name, fitting 1280 px and labelled cards at 390, and Revoke asks first.
 */
import { createServer, type Server } from "node:http";
import AxeBuilder from "@axe-core/playwright";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ReaderSession, readerSignedUpAt } from "../helpers/browser";

const base = inject("appUrl");
const { reader } = inject("accounts");
const MARKET = "foundation-model-apis";

/** A page on its own loopback origin that frames `src` (or holds `html`, a snippet pasted as it is). */
async function framingSite(src: () => string, html?: () => string): Promise<{ origin: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    const body = html
      ? html().replace("<iframe ", '<iframe id="chart" ')
      : `<iframe id="chart" src="${src()}" width="760" height="900" title="Chart"></iframe>`;
    response.end(
      `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width,initial-scale=1"><title>A report</title></head><body style="margin:0"><h1>Our report</h1>${body}</body></html>`,
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

/**
 * The view of the chart on show (the Delta's page draws map and bars, one hidden), in its wide
 * drawing (the frame of 760 px shows it; a narrower one shows the narrow drawing).
 */
const SHOWN = "[data-embed-view]:not([hidden]) .layout-wide svg";

async function chartFrame(page: Page): Promise<Frame | undefined> {
  const handle = await page.locator("#chart").elementHandle();
  return (await handle?.contentFrame()) ?? undefined;
}

describe("embeds, in Chromium", () => {
  let session: ReaderSession;
  let allowed: { origin: string; server: Server };
  let refused: { origin: string; server: Server };
  let pasted: { origin: string; server: Server };
  let embedUrl = "";
  let anySiteUrl = "";
  let snippet = "";

  beforeAll(async () => {
    allowed = await framingSite(() => embedUrl);
    refused = await framingSite(() => embedUrl);
    pasted = await framingSite(
      () => anySiteUrl,
      () => snippet,
    );
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
    pasted?.server.close();
  });

  it("is made from the Delta's Embed form on a market page", async () => {
    const { page } = session;
    const form = page.getByTestId("embed-delta");
    await form.locator("summary").click();
    // Any site is the default; this one is restricted to the report's site.
    expect(await form.getByRole("radio", { name: /^Any site/ }).isChecked()).toBe(true);
    await form.getByRole("radio", { name: /^Only these sites/ }).check();
    await form.getByLabel("Sites allowed to frame it").fill(allowed.origin);
    await expect.poll(() => form.textContent()).toMatch(/Costs 3 credits per release it shows/);
    await form.getByRole("button", { name: "Create embed" }).click();
    const created = page.getByTestId("embed-created");
    await expect.poll(() => created.count()).toBe(1);
    embedUrl = (await created.getByRole("link").first().getAttribute("href")) ?? "";
    expect(embedUrl).toMatch(new RegExp(`^${base}/embed/emb_[0-9a-f]{24}$`));
    // It says what it shows, by name, and where it may be shown.
    const summary = (await created.getByTestId("embed-summary").textContent()) ?? "";
    expect(summary).toMatch(/Delta of Foundation-model APIs under France \(FR\), release \d+ \(pinned\)/);
    expect(summary).toContain("Only the sites listed may show it");
  });

  it("made with the panel's defaults, any site may show it: the snippet says what it shows", async () => {
    const { page } = session;
    const form = page.getByTestId("embed-servicemax");
    await form.locator("summary").click();
    await form.getByRole("button", { name: "Create embed" }).click();
    const created = form.getByTestId("embed-created");
    await expect.poll(() => created.count()).toBe(1);
    anySiteUrl = (await created.getByRole("link").first().getAttribute("href")) ?? "";
    expect(anySiteUrl).toMatch(new RegExp(`^${base}/embed/emb_[0-9a-f]{24}$`));
    const summary = (await created.getByTestId("embed-summary").textContent()) ?? "";
    expect(summary).toMatch(
      /Max of Foundation-model APIs under France \(FR\), release (\d+) \(pinned\)\. Any site may show it\./,
    );
    snippet = await created.getByLabel("Paste into your page").inputValue();
    const release = /release (\d+) \(pinned\)/.exec(summary)?.[1];
    expect(snippet).toContain(
      `<iframe src="${anySiteUrl}" title="Max of Foundation-model APIs under France (FR), release ${release} (pinned)"`,
    );
    await page.screenshot({ path: "artifacts/screenshots/embed-created-any-site.png" });
    // The open form and what it made: no serious axe-core finding.
    const { violations } = await new AxeBuilder({ page })
      .include('[data-testid="embed-servicemax"]')
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  });

  for (const width of [1280, 390])
    it(`pasted into a page on another origin, it renders at ${width} px, in the reader's light and dark scheme`, async () => {
      const page = await session.context.newPage();
      await page.setViewportSize({ width, height: 900 });
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        await page.goto(pasted.origin);
        await expect.poll(async () => (await chartFrame(page))?.url()).toBe(anySiteUrl);
        const chart = (await chartFrame(page)) as Frame;
        await chart.locator("#embed-caption").waitFor();
        expect(await chart.locator("#embed-caption").textContent()).toMatch(
          /^Max of Foundation-model APIs, release \d+ of \d{4}-\d{2}-\d{2}, under France \(FR\)/,
        );
        const layout = width === 1280 ? "wide" : "narrow";
        const svg = chart.locator(`.layout-${layout} svg`);
        expect(await svg.isVisible()).toBe(true);
        expect(await chart.locator(`.layout-${layout === "wide" ? "narrow" : "wide"} svg`).isVisible()).toBe(false);
        const colours = await chart.evaluate((shown) => {
          const bar = document.querySelector(`.layout-${shown} g.mark rect:last-of-type`) as SVGRectElement;
          return { page: getComputedStyle(document.body).backgroundColor, bar: getComputedStyle(bar).fill };
        }, layout);
        expect(colours).toEqual(
          colorScheme === "dark"
            ? { page: "rgb(22, 24, 29)", bar: "rgb(111, 168, 255)" }
            : { page: "rgb(255, 255, 255)", bar: "rgb(31, 95, 168)" },
        );
        // Every text drawn is at least 11 px as the reader sees it (its size × the drawing's scale).
        const smallest = await chart.evaluate((shown) => {
          const drawing = document.querySelector(`.layout-${shown} svg`) as SVGSVGElement;
          const scale = drawing.getBoundingClientRect().width / drawing.viewBox.baseVal.width;
          const sizes = Array.from(drawing.querySelectorAll("text")).map(
            (text) => Number.parseFloat(getComputedStyle(text).fontSize) * scale,
          );
          const page = Array.from(document.querySelectorAll("figcaption, p, summary, a, button")).map((element) =>
            Number.parseFloat(getComputedStyle(element).fontSize),
          );
          return { drawn: Math.min(...sizes), page: Math.min(...page), count: sizes.length };
        }, layout);
        expect(smallest.count).toBeGreaterThan(10);
        expect(smallest.drawn).toBeGreaterThanOrEqual(11);
        expect(smallest.page).toBeGreaterThanOrEqual(11);
        // No name is cut inside a word: each drawn name's words are the product's own, bar the shortened last.
        const names = await chart.evaluate(
          (shown) =>
            Array.from(document.querySelectorAll(`.layout-${shown} g.mark`)).map((mark) => ({
              label: mark.getAttribute("aria-label") ?? "",
              drawn: Array.from(mark.querySelectorAll("tspan"))
                .map((line) => line.textContent)
                .join(" "),
            })),
          layout,
        );
        for (const { label, drawn } of names) {
          const whole = (/Product: ([^;]*); Vendor: ([^;]*);/.exec(label) ?? []).slice(1).join(" (");
          const words = drawn
            .replace(/^(\d+\.|–) /, "")
            .replace(/…$/, "")
            .split(" ");
          for (const word of words.slice(0, -1)) expect(`${whole})`.split(" ")).toContain(word);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({
          path: `artifacts/screenshots/embed-pasted-${width}-${colorScheme}.png`,
          fullPage: true,
        });
      }
      await page.close();
    });

  it("its data and its methodology open without signing in: the CSV of what it draws, the release's text", async () => {
    const browser = session.browser;
    const stranger = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await stranger.newPage();
    await page.goto(anySiteUrl);
    const csvHref = (await page.getByRole("link", { name: "Data (CSV)" }).getAttribute("href")) ?? "";
    expect(csvHref).toBe(`${anySiteUrl}.csv`);
    const csv = await (await fetch(csvHref)).text();
    const drawn = await page.locator(".layout-narrow g.mark").count();
    expect(csv.trim().split("\r\n")).toHaveLength(drawn + 1);
    await page.getByRole("link", { name: "Methodology" }).evaluate((link) => link.removeAttribute("target"));
    await page.getByRole("link", { name: "Methodology" }).click();
    await page.waitForURL(`${anySiteUrl}/methodology`);
    expect(await page.locator("h1").textContent()).toMatch(/^Methodology of Foundation-model APIs, release \d+$/);
    expect(await page.locator("#embed-methodology p").count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa"]).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    await page.screenshot({ path: "artifacts/screenshots/phone-embed-methodology.png", fullPage: true });
    await stranger.close();
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
    // The methodology of its release, public through the embed (no sign-in page on the way).
    expect(await chart.getByRole("link", { name: "Methodology" }).getAttribute("href")).toBe(`${embedUrl}/methodology`);
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
      expect(await page.locator("[data-embed-view]:not([hidden]) .layout-narrow svg").isVisible()).toBe(true);
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

  it("is listed on /embeds by name with its views, the table within the page at 1280 px", async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/embeds`);
    const id = embedUrl.split("/").at(-1) as string;
    const row = page.locator(`tr[data-embed="${id}"]`);
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(async () => Number(await row.getByTestId("embed-views").textContent())).toBeGreaterThan(0);
    const text = (await row.textContent()) ?? "";
    expect(text).toContain(allowed.origin);
    expect(text).toContain("Delta of Foundation-model APIs");
    expect(text).toContain("France (FR)");
    expect(text).not.toContain(MARKET);
    expect(await page.locator(`tr[data-embed="${anySiteUrl.split("/").at(-1)}"]`).textContent()).toContain("any site");
    // Every column within the page: nothing cut off, nothing to scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    const table = page.getByTestId("embed-list");
    const frame = await page.locator(".table-wrap").evaluate((wrap) => ({
      scrolls: wrap.scrollWidth > wrap.clientWidth + 1,
      right: wrap.getBoundingClientRect().right,
    }));
    expect(frame.scrolls).toBe(false);
    for (const column of ["Created", "State"]) {
      const box = await table.getByRole("columnheader", { name: column }).boundingBox();
      expect(box && box.x + box.width, column).toBeLessThanOrEqual(frame.right);
    }
    await page.screenshot({ path: "artifacts/screenshots/embeds-1280.png", fullPage: true });
  });

  it("on a phone, /embeds is one labelled card per embed, and Revoke asks before it revokes for good", async () => {
    const page = await session.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/embeds`);
    const id = anySiteUrl.split("/").at(-1) as string;
    const card = page.locator(`tr[data-embed="${id}"]`);
    await expect.poll(() => card.count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const labels = await card
      .locator("td")
      .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, "::before").content.replace(/^"|"$/g, "")));
    expect(labels).toEqual(["Country", "Release", "Shown on", "Views", "Releases paid", "Created", "State"]);
    expect(await card.locator("th").textContent()).toContain("Max of Foundation-model APIs");

    // Revoke asks first; Cancel leaves it live.
    await card.getByRole("button", { name: /^Revoke Max of Foundation-model APIs/ }).click();
    const confirm = card.getByRole("button", { name: "Revoke for good" });
    expect(await confirm.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Revoke for good");
    expect(await card.getByRole("alert").textContent()).toContain("Revoke for good? The chart stops showing");
    await page.screenshot({ path: "artifacts/screenshots/phone-embeds-revoke-asks.png", fullPage: true });
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa"]).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    await card.getByRole("button", { name: "Cancel" }).click();
    expect(await confirm.count()).toBe(0);
    expect((await fetch(anySiteUrl)).status).toBe(200);
    // Escape takes the question back too.
    await card.getByRole("button", { name: /^Revoke / }).click();
    await page.keyboard.press("Escape");
    expect(await confirm.count()).toBe(0);
    // Asked and confirmed: revoked, the chart gone everywhere.
    await card.getByRole("button", { name: /^Revoke / }).click();
    await confirm.click();
    await expect.poll(() => card.textContent()).toContain("Revoked");
    expect((await fetch(anySiteUrl)).status).toBe(410);
    expect((await fetch(`${anySiteUrl}.csv`)).status).toBe(410);
    expect((await fetch(`${anySiteUrl}/methodology`)).status).toBe(410);
    await page.screenshot({ path: "artifacts/screenshots/phone-embeds.png", fullPage: true });
    await page.close();
  });
});
