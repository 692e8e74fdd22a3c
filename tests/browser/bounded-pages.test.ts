/**
 * Pages bounded at any market size, in Chromium at 1280 × 900 and 390 × 844: the generated market
 * of 1,000 products (published twice, so What changed has every product to say) read as a member,
 * every market and product view of it, the markets list and the landing page; each page's full
 * height is held to its budget. The lists that grow with a market show a page at a time: the pager
 * says which products of how many, Next moves to the next ones (the ranks go on where the page
 * before stopped), and the CSV still carries every product. The pager is drawn above and below a
 * page, and the lower one brings the top of the next page into view; on a phone a product is a
 * compact card within its own height budget, the market's name wraps whole and the country chosen
 * reads whole in its select; every count is written with its thousands separator ("1,000").
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SIZED_MARKET } from "../app/global-setup";
import { SESSION_COOKIE } from "../helpers/accounts";
import { launchChromium } from "../helpers/browser";

const base = inject("appUrl");
const accounts = inject("accounts");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
const MARKET = SIZED_MARKET.marketId;

const WIDTHS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/**
 * Each page's height budget in CSS pixels, desktop and phone. A page that drew every product of
 * this market would be tens of thousands of pixels tall (the visitors' sample was 37,329 px on a
 * desktop and 189,576 on a phone before it was bounded); a page that shows one page of 25 products
 * per list stays within these whatever the market's size.
 */
const BUDGETS: Record<string, { desktop: number; phone: number }> = {
  landing: { desktop: 2_000, phone: 5_000 },
  markets: { desktop: 1_500, phone: 2_600 },
  overview: { desktop: 3_000, phone: 4_800 },
  readings: { desktop: 5_500, phone: 6_000 },
  "readings-bars": { desktop: 6_000, phone: 6_500 },
  changes: { desktop: 5_000, phone: 7_000 },
  availability: { desktop: 2_500, phone: 2_600 },
  whatif: { desktop: 5_500, phone: 6_000 },
  methodology: { desktop: 2_500, phone: 2_500 },
  product: { desktop: 2_000, phone: 3_500 },
  "product-axis": { desktop: 3_200, phone: 6_500 },
};

/** The tallest a product's card may be on a phone: a page of 25 of them was 7,899 px before they were compact. */
const CARD_BUDGET = 160;

/** The first product of the generated market, for its product pages. */
async function firstProduct(): Promise<string> {
  const response = await fetch(`${base}/v1/markets/${MARKET}/snapshot`, {
    headers: { Authorization: `Bearer ${accounts.walker.token}` },
  });
  expect(response.status).toBe(200);
  const snapshot = (await response.json()) as { products: { productId: string }[] };
  expect(snapshot.products.length).toBe(SIZED_MARKET.products);
  return snapshot.products[0]?.productId ?? "";
}

/** Waits until nothing on the page is loading (the readings load in the browser). */
async function settled(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect.poll(() => page.locator('.skeleton, [aria-busy="true"]').count(), { timeout: 30_000 }).toBe(0);
}

/** Runs `walk` on a page of the walker's session (a member of the market's organization) at `options`, then closes it. */
async function asWalker(
  browser: Browser,
  options: Parameters<Browser["newContext"]>[0],
  walk: (page: Page) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext(options);
  try {
    await context.addCookies([{ name: SESSION_COOKIE, value: accounts.walker.session, url: base }]);
    await walk(await context.newPage());
  } finally {
    await context.close();
  }
}

const height = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);

describe(`every page of a ${SIZED_MARKET.products}-product market holds its height budget`, () => {
  let browser: Browser;
  let product: string;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    product = await firstProduct();
  });
  afterAll(() => browser?.close());

  const pages = () => ({
    landing: "/",
    markets: "/markets?country=FR",
    overview: `/markets/${MARKET}?country=FR`,
    readings: `/markets/${MARKET}/readings?country=FR`,
    "readings-bars": `/markets/${MARKET}/readings?country=DE&view=bars`,
    changes: `/markets/${MARKET}/changes?country=FR`,
    availability: `/markets/${MARKET}/availability?country=FR`,
    whatif: `/markets/${MARKET}/whatif?country=FR`,
    methodology: `/markets/${MARKET}/methodology`,
    product: `/markets/${MARKET}/products/${product}?country=FR`,
    "product-axis": `/markets/${MARKET}/products/${product}/innovation?country=FR`,
  });

  for (const size of WIDTHS)
    it(`at ${size.width} px`, async () => {
      await asWalker(browser, { viewport: { width: size.width, height: size.height } }, async (page) => {
        const measured: Record<string, number> = {};
        for (const [name, url] of Object.entries(pages())) {
          // The landing page as a visitor sees it: the sample is what grows there.
          const visitor = name === "landing" ? await browser.newContext({ viewport: size }) : undefined;
          const on = visitor ? await visitor.newPage() : page;
          await on.goto(`${base}${url}`);
          await settled(on);
          measured[name] = await height(on);
          await on.screenshot({ path: path.join(SCREENSHOTS, `sized-${size.name}-${name}.png`), fullPage: true });
          await visitor?.close();
        }
        console.log(`heights at ${size.width} px: ${JSON.stringify(measured)}`);
        const over = Object.entries(measured).filter(([name, h]) => h > (BUDGETS[name]?.[size.name] ?? 0));
        expect(over, `heights at ${size.width} px: ${JSON.stringify(measured)}`).toEqual([]);
      });
    });

  it("pages the rankings: 25 products at a time, the ranks going on, every product in the CSV", async () => {
    await asWalker(browser, { viewport: { width: 1280, height: 900 }, acceptDownloads: true }, async (page) => {
      await page.goto(`${base}/markets/${MARKET}/readings?country=FR`);
      await settled(page);
      const capaindex = page.getByTestId("capaindex");
      expect(await page.getByTestId("capaindex-range").textContent()).toBe("Products 1–25 of 1,000");
      expect(await capaindex.locator('[data-mark="bar"]').count()).toBe(25);
      expect(await capaindex.locator('[data-testid="capaindex-table"] tbody tr').count()).toBe(25);
      const ranks = () =>
        capaindex
          .locator('[data-testid="capaindex-table"] tbody tr td:first-child')
          .evaluateAll((cells) => cells.map((c) => Number(c.textContent)));
      const first = await ranks();
      await page.getByTestId("capaindex-next").click();
      expect(await page.getByTestId("capaindex-range").textContent()).toBe("Products 26–50 of 1,000");
      const second = await ranks();
      // Competition ranks go on from the first page: none on the second is better than the first's last.
      expect(Math.min(...second)).toBeGreaterThanOrEqual(Math.max(...first));
      expect(await capaindex.locator('[data-mark="bar"]').count()).toBe(25);
      await page.getByTestId("capaindex-previous").click();
      expect(await ranks()).toEqual(first);
      // A hundred at a time, on asking.
      await page.getByTestId("capaindex-size").selectOption("100");
      expect(await page.getByTestId("capaindex-range").textContent()).toBe("Products 1–100 of 1,000");
      expect(await capaindex.locator('[data-mark="bar"]').count()).toBe(100);
      // The CSV is of every product, whatever the page.
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("capaindex-csv").click()]);
      const file = await download.path();
      const lines = readFileSync(file, "utf8").trim().split(/\r?\n/);
      expect(lines.length).toBe(1 + SIZED_MARKET.products);
    });
  });

  it("pages the availability grid by product, every country of each, the keys staying inside the page", async () => {
    await asWalker(browser, { viewport: { width: 1280, height: 900 } }, async (page) => {
      await page.goto(`${base}/markets/${MARKET}/availability?country=FR`);
      await settled(page);
      expect(await page.getByTestId("availability-map-range").textContent()).toBe("Products 1–25 of 1,000");
      // The country read under comes first, marked.
      const firstColumn = page.locator('[data-testid="heatmap"] thead th.heat-country').first();
      expect(await firstColumn.getAttribute("data-country")).toBe("FR");
      expect(await firstColumn.getAttribute("data-chosen")).toBe("true");
      const rows = page.locator('[data-testid="heatmap"] tbody tr');
      expect(await rows.count()).toBe(25);
      const firstPage = await rows.first().getAttribute("data-product-id");
      await page.getByTestId("availability-map-next").click();
      expect(await rows.count()).toBe(25);
      expect(await rows.first().getAttribute("data-product-id")).not.toBe(firstPage);
      // The grid is still one tab stop after paging, and End on the last row stays on this page.
      const stops = await page.locator('[data-testid="heatmap"] [tabindex="0"]').count();
      expect(stops).toBe(1);
    });
  });

  for (const size of WIDTHS)
    it(`draws the pager above and below a page of products, the lower one leading to the next page's top, at ${size.width} px`, async () => {
      await asWalker(browser, { viewport: { width: size.width, height: size.height } }, async (page) => {
        await page.goto(`${base}/markets/${MARKET}?country=FR`);
        await settled(page);
        const ranges = () =>
          Promise.all([
            page.getByTestId("snapshot-range").textContent(),
            page.getByTestId("snapshot-range-end").textContent(),
          ]);
        expect(await ranges()).toEqual(["Products 1–25 of 1,000", "Products 1–25 of 1,000"]);
        const rows = page.locator('[data-testid="snapshot-table"] tbody tr');
        expect(await rows.count()).toBe(25);
        // The lower pager is below the last product of the page, the upper one above the first.
        const lastRow = await rows.last().boundingBox();
        const firstRow = await rows.first().boundingBox();
        const lower = await page.getByTestId("snapshot-pager-end").boundingBox();
        const upper = await page.getByTestId("snapshot-pager").boundingBox();
        expect(lower && lastRow && lower.y >= lastRow.y + lastRow.height - 1).toBe(true);
        expect(upper && firstRow && upper.y + upper.height <= firstRow.y + 1).toBe(true);
        // Only one of the two announces a move.
        expect(await page.locator('[data-testid^="snapshot-range"][aria-live]').count()).toBe(1);
        const firstProduct = await rows.first().getAttribute("data-product-id");
        await page.getByTestId("snapshot-next-end").scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(SCREENSHOTS, `sized-${size.name}-pager-end.png`) });
        await page.getByTestId("snapshot-next-end").click();
        await expect.poll(ranges).toEqual(["Products 26–50 of 1,000", "Products 26–50 of 1,000"]);
        expect(await rows.first().getAttribute("data-product-id")).not.toBe(firstProduct);
        // The next page is read from its top: the upper pager is in view, below the sticky header.
        await expect
          .poll(() => page.getByTestId("snapshot-pager").evaluate((e) => Math.round(e.getBoundingClientRect().top)))
          .toBeGreaterThanOrEqual(0);
        const top = await page.getByTestId("snapshot-pager").evaluate((e) => e.getBoundingClientRect().top);
        const header = await page.locator("header.site-header").evaluate((e) => e.getBoundingClientRect().bottom);
        expect(top).toBeGreaterThanOrEqual(header - 1);
        expect(top).toBeLessThan(size.height / 2);
        await page.screenshot({ path: path.join(SCREENSHOTS, `sized-${size.name}-pager-next.png`) });
        // Back from below, too.
        await page.getByTestId("snapshot-previous-end").click();
        await expect.poll(ranges).toEqual(["Products 1–25 of 1,000", "Products 1–25 of 1,000"]);
        // The readings' charts have theirs as well.
        await page.goto(`${base}/markets/${MARKET}/readings?country=FR`);
        await settled(page);
        expect(await page.getByTestId("capaindex-range-end").textContent()).toBe("Products 1–25 of 1,000");
        await page.getByTestId("capaindex-next-end").click();
        await expect.poll(() => page.getByTestId("capaindex-range").textContent()).toBe("Products 26–50 of 1,000");
      });
    });

  it("on a phone: compact cards, the market's name whole, the country whole, counts as 1,000", async () => {
    await asWalker(browser, { viewport: { width: 390, height: 844 } }, async (page) => {
      await page.goto(`${base}/markets/${MARKET}?country=FR`);
      await settled(page);
      const cards = await page
        .locator('[data-testid="snapshot-table"] tbody tr')
        .evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect().height));
      expect(cards.length).toBe(25);
      console.log(
        `snapshot cards at 390: tallest ${Math.max(...cards)} px, all ${cards.reduce((a, b) => a + b, 0)} px`,
      );
      expect(Math.max(...cards), "the tallest card").toBeLessThanOrEqual(CARD_BUDGET);
      // Each card still names what each number is: the three scores side by side, labelled.
      const axisLabels = await page
        .locator('[data-testid="snapshot-table"] tbody tr')
        .first()
        .locator("td[data-axis]")
        .evaluateAll((cells) =>
          cells.map((c) => [getComputedStyle(c, "::before").content, c.getBoundingClientRect().top]),
        );
      expect(axisLabels.map(([label]) => label)).toEqual(['"Innovation"', '"Control"', '"Scale"']);
      expect(new Set(axisLabels.map(([, top]) => Math.round(Number(top)))).size, "the scores on one row").toBe(1);

      // The name wraps, whole: never cut with an ellipsis.
      const heading = await page.getByRole("heading", { level: 1 }).evaluate((h) => ({
        text: h.textContent,
        cut: h.scrollWidth > h.clientWidth + 1 || getComputedStyle(h).textOverflow === "ellipsis",
        right: h.getBoundingClientRect().right,
      }));
      expect(heading.cut).toBe(false);
      expect(heading.right).toBeLessThanOrEqual(390);
      // The country chosen reads whole inside its select ("France (FR) — 4 controls", not "… — 4 c").
      const country = await page.getByTestId("frame-country").evaluate((select: HTMLSelectElement) => {
        const style = getComputedStyle(select);
        const canvas = document.createElement("canvas").getContext("2d") as CanvasRenderingContext2D;
        canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const text = select.selectedOptions[0]?.text ?? "";
        const room =
          select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight) - 20;
        return { text, width: canvas.measureText(text).width, room };
      });
      expect(country.text).toMatch(/^France \(FR\)/);
      expect(country.width, `"${country.text}" in its select`).toBeLessThanOrEqual(country.room);
      await page.screenshot({ path: path.join(SCREENSHOTS, "sized-phone-overview-top.png") });

      // Counts of a 1,000-product market in the one format: "N of 1,000", as the release line's "1,000 products".
      await page.goto(`${base}/markets/${MARKET}/readings?country=FR`);
      await settled(page);
      expect(await page.getByTestId("usable-headline").textContent()).toMatch(
        /^\d{1,3}(,\d{3})* of 1,000 products? (is|are) usable/,
      );
      expect(await page.locator("#capaindex-summary").textContent()).toMatch(/^1,000 products ranked/);
    });
  });
});
