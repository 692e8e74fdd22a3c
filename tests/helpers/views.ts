/**
 * A page's views (the market page's, the product page's) measured in Chromium: each visited at its
 * URL, its tab marked, its layout checked, its height recorded against its budget and a full-page
 * screenshot kept as a CI artifact.
 */
import path from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };
export const SIZES = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const;
export const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");

export interface MeasuredView {
  /** The tab's `data-view`. */
  id: string;
  url: string;
  /** The test id of what shows the view is drawn. */
  ready: string;
  /** Its height budget, in screens of the width's viewport. */
  desktop: number;
  phone: number;
}

export async function expectViewsWithinBudget(
  page: Page,
  views: readonly MeasuredView[],
  options: {
    size: (typeof SIZES)[number][0];
    /** The test id of the views' tabs. */
    tabs: string;
    /** The screenshot's file name for a view, without `-{size}.png`. */
    shot: (view: MeasuredView) => string;
    /** At 1280, whether every table must fit its card (no frame scrolls sideways). */
    tablesFit?: boolean;
  },
): Promise<void> {
  const viewport = options.size === "desktop" ? DESKTOP : PHONE;
  await page.setViewportSize(viewport);
  const heights: Record<string, number> = {};
  for (const view of views) {
    const where = `${view.id} at ${viewport.width} px`;
    await page.goto(view.url);
    // Visible, not only present: the loading frame streams first, and is not the view.
    await page.getByTestId(view.ready).first().waitFor({ state: "visible", timeout: 20_000 });
    await page.getByTestId(options.tabs).waitFor({ state: "visible" });
    expect(await page.getByTestId(options.tabs).locator('a[aria-current="page"]').getAttribute("data-view")).toBe(
      view.id,
    );
    heights[view.id] = await page.evaluate(() => document.documentElement.scrollHeight);
    // Every table's visible caption spans its table (on a phone one once shrank to 85 px).
    const squeezed = await page.locator("table > caption:not(.sr-only)").evaluateAll((captions) =>
      captions
        .filter((c) => c.getBoundingClientRect().width > 0)
        .filter((c) => c.getBoundingClientRect().width < 0.8 * (c.parentElement?.getBoundingClientRect().width ?? 0))
        .map((c) => `${c.textContent}: ${Math.round(c.getBoundingClientRect().width)} px`),
    );
    expect(squeezed, where).toEqual([]);
    // At 1280 every table fits its card: nothing (the evidence, its date) hides past the edge.
    if (options.tablesFit && options.size === "desktop")
      expect(
        await page
          .locator(".table-wrap")
          .evaluateAll((frames) =>
            frames
              .filter((f) => f.scrollWidth > f.clientWidth + 1)
              .map((f) => `${f.getAttribute("aria-label")}: ${f.scrollWidth} > ${f.clientWidth}`),
          ),
        where,
      ).toEqual([]);
    await page.screenshot({
      path: path.join(SCREENSHOTS, `${options.shot(view)}-${options.size}.png`),
      fullPage: true,
    });
  }
  console.log(`[views] ${options.tabs} at ${viewport.width} px, heights: ${JSON.stringify(heights)}`);
  for (const view of views)
    expect(heights[view.id], `${view.id} at ${viewport.width} px`).toBeLessThanOrEqual(
      view[options.size] * viewport.height,
    );
  await page.setViewportSize(DESKTOP);
}
