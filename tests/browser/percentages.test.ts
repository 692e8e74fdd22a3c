/**
 * Percentages on the dashboard, in Chromium at 1280 and 390 px: the Max reading's line per product
 * says how often it is in the top 3 ("top 3 in 99.8 % of draws"), and a share strictly between
 * none and all never prints as 0 % or 100 % (the 1,000-product market has many such shares). Each
 * line is checked against the same reading from the API, never against the formatter's own output.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ReaderSession, readerSignedUpAt } from "../helpers/browser";

const base = inject("appUrl");
const accounts = inject("accounts");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
const READINGS = `${base}/markets/generated-1000/readings?country=FR`;

type Odds = { productId: string; available: boolean; rankOdds: { top3: number } };

/** The Max reading under FR from the API, asked again while its first computation outlasts the deadline. */
async function maxReading(): Promise<Odds[]> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${base}/v1/markets/generated-1000/servicemax?country=FR`, {
      headers: { Authorization: `Bearer ${accounts.walker.token}` },
    });
    if (response.status === 200) return ((await response.json()) as { products: Odds[] }).products;
    expect(response.status, "only a first computation's deadline may delay it").toBe(503);
    expect(attempt).toBeLessThan(10);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/** Each product's line of the Max reading ("off … → on …, top 3 in … of draws"), by product id. */
async function maxLines(page: Page): Promise<Map<string, string>> {
  const list = page.getByTestId("max-states");
  await list.waitFor({ state: "attached", timeout: 60_000 });
  await page.locator("details.max-states-details > summary").first().click();
  const lines = await list.evaluate((element) =>
    [...element.querySelectorAll("li")].map((li) => [li.getAttribute("data-product-id") ?? "", li.textContent ?? ""]),
  );
  return new Map(lines as [string, string][]);
}

describe("percentages on the dashboard", () => {
  let reader: ReaderSession;
  let products: Odds[];
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    products = await maxReading();
    reader = await readerSignedUpAt(READINGS, {
      email: `percent-${Date.now()}@example.com`,
      organization: "Percent Readers SARL",
      homeCountry: "FR",
    });
  });
  afterAll(() => reader?.close());

  for (const viewport of [
    { name: "desktop", width: 1280, height: 900 },
    { name: "phone", width: 390, height: 844 },
  ])
    it(`never say 0 % or 100 % of a share between none and all, at ${viewport.width} px`, async () => {
      const page = reader.page;
      await page.setViewportSize(viewport);
      await page.goto(READINGS);
      const lines = await maxLines(page);
      expect(lines.size).toBeGreaterThan(0);
      let between = 0;
      // Shares that whole percents would round to 0 or 100: the ones this page must not say so of.
      let edge = 0;
      for (const product of products) {
        const line = lines.get(product.productId);
        if (line === undefined || !product.available) continue;
        const shown = /top 3 in (<|>)? ?([\d.]+) % of draws/.exec(line);
        expect(shown, line).not.toBeNull();
        const value = Number(shown?.[2]);
        const share = product.rankOdds.top3;
        expect(Math.abs(value - share * 100), line).toBeLessThanOrEqual(0.5);
        if (share > 0 && share < 1) {
          between += 1;
          if (Math.round(share * 100) % 100 === 0) edge += 1;
          expect(value, line).toBeGreaterThan(0);
          expect(value, line).toBeLessThan(100);
        }
      }
      expect(between, "lines with a share strictly between none and all").toBeGreaterThan(0);
      expect(edge, "lines whose share whole percents would round to 0 or 100").toBeGreaterThan(0);
      await page.getByTestId("max-states").scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SCREENSHOTS, `percentages-max-${viewport.name}.png`) });
    });
});
