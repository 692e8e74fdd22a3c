/**
 * The market page as views, each at its own URL, in Chromium at 1280 × 900 and 390 × 844: every
 * view within its height budget (the page was one 9,300 px stack), reachable from the tabs with
 * the country kept, the current tab marked; a screenshot of each at both widths as CI artifacts.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ReaderSession, readerSignedUpAt } from "../helpers/browser";

const base = inject("appUrl");
const MARKET = "foundation-model-apis";
const MARKET_PAGE = `${base}/markets/${MARKET}`;
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/**
 * Each view, what shows it is drawn, and its height budget in screens of the width's viewport: about
 * two at 1280 (three for the readings, three charts of every product), more on a phone, where
 * tables become cards.
 */
const VIEWS = [
  { segment: "", label: "Overview", ready: "snapshot-table", desktop: 2, phone: 6 },
  { segment: "readings", label: "Readings", ready: "delta-map", desktop: 3.5, phone: 8 },
  { segment: "whatif", label: "What if", ready: "whatif", desktop: 2.5, phone: 6 },
  { segment: "changes", label: "What changed", ready: "changes-table", desktop: 2.5, phone: 8 },
  { segment: "availability", label: "Availability", ready: "heatmap", desktop: 2, phone: 3 },
  { segment: "methodology", label: "Methodology and releases", ready: "methodology", desktop: 3, phone: 6 },
] as const;

const pageHeight = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);

describe("the market page's views, in Chromium", () => {
  let reader: ReaderSession;
  let page: Page;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    reader = await readerSignedUpAt(MARKET_PAGE, {
      email: `views-${Date.now()}@example.com`,
      organization: "View Counters BV",
      homeCountry: "DE",
    });
    page = reader.page;
  });
  afterAll(() => reader?.close());

  for (const [size, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const)
    it(`keeps every view within its height budget at ${viewport.width} px, the current tab marked`, async () => {
      await page.setViewportSize(viewport);
      const heights: Record<string, number> = {};
      for (const view of VIEWS) {
        await page.goto(`${MARKET_PAGE}${view.segment ? `/${view.segment}` : ""}?country=FR`);
        // Visible, not only present: the loading frame streams first, and is not the view.
        await page.getByTestId(view.ready).first().waitFor({ state: "visible", timeout: 20_000 });
        await page.getByTestId("market-views").waitFor({ state: "visible" });
        expect(await page.getByTestId("market-views").locator('a[aria-current="page"]').textContent()).toBe(view.label);
        heights[view.label] = await pageHeight(page);
        // Every table's visible caption spans its table (on a phone one once shrank to 85 px).
        const squeezed = await page.locator("table > caption:not(.sr-only)").evaluateAll((captions) =>
          captions
            .filter((c) => c.getBoundingClientRect().width > 0)
            .filter(
              (c) => c.getBoundingClientRect().width < 0.8 * (c.parentElement?.getBoundingClientRect().width ?? 0),
            )
            .map((c) => `${c.textContent}: ${Math.round(c.getBoundingClientRect().width)} px`),
        );
        expect(squeezed, `${view.label} at ${viewport.width} px`).toEqual([]);
        await page.screenshot({
          path: path.join(SCREENSHOTS, `view-${view.segment || "overview"}-${size}.png`),
          fullPage: true,
        });
      }
      console.log(`[views] ${viewport.width} px heights: ${JSON.stringify(heights)}`);
      for (const view of VIEWS)
        expect(heights[view.label], `${view.label} at ${viewport.width} px`).toBeLessThanOrEqual(
          view[size] * viewport.height,
        );
      await page.setViewportSize(DESKTOP);
    });

  it("says what each what-if weight moves, and shows the results beside the sliders at 1280", async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${MARKET_PAGE}/whatif?country=FR`);
    const panel = page.getByTestId("whatif");
    await expect.poll(() => panel.locator("fieldset[data-axis]").count()).toBe(3);
    // Only Innovation weights rerank (both rankings order by it); the others say they move no table.
    expect(await panel.getByTestId("moves-innovation").textContent()).toMatch(/move both rankings/);
    for (const axis of ["control", "scale"])
      expect(await panel.getByTestId(`moves-${axis}`).textContent()).toMatch(/tables do not move/);
    const sliders = await panel.locator(".whatif-sliders").boundingBox();
    const results = await panel.locator(".whatif-results").boundingBox();
    expect(results?.x ?? 0).toBeGreaterThanOrEqual((sliders?.x ?? 0) + (sliders?.width ?? 0));
    expect(Math.abs((results?.y ?? 0) - (sliders?.y ?? 0))).toBeLessThan(40);
  });

  it("moves between views by the tabs, keeping the country", async () => {
    await page.goto(`${MARKET_PAGE}?country=US`);
    for (const view of VIEWS.slice(1)) {
      await page.getByTestId("market-views").getByRole("link", { name: view.label, exact: true }).click();
      await page.waitForURL(
        (url) => url.pathname === `/markets/${MARKET}/${view.segment}` && url.searchParams.get("country") === "US",
      );
    }
  });

  it("sends a link of the single page's time (an e-mail's comparison) to the What changed view", async () => {
    await page.goto(`${MARKET_PAGE}?from=1&to=2`);
    await page.waitForURL((url) => url.pathname === `/markets/${MARKET}/changes` && url.searchParams.get("to") === "2");
    await expect.poll(() => page.getByTestId("changes-to").inputValue()).toBe("2");
  });
});
