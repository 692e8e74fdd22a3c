/**
 * One country for a session of reading, and the unavailable never ranked, in Chromium: every view
 * of every demo market (overview, readings as map and as bars, what changed, availability, what
 * if) and the page of a product each country excludes, under several countries (France and the
 * United States engage controls, the United Kingdom none). Which products a country excludes is
 * the API's answer (GET /v1/markets/{id}/servicemax), not the page's. On every view:
 * - the frame shows the country, and the links to the other views keep it;
 * - nothing read under the country (a cell or number marked `data-under`, a kept bar, a Max rank)
 *   shows a digit or a bar for a product the country excludes, wherever that product appears;
 * - the views that read under the country do show such numbers for the usable products, so a
 *   marker that went missing fails here rather than passing for want of anything to check.
 * A product page of an excluded product says so in its first screen.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SIZED_MARKET } from "../app/global-setup";
import { SESSION_COOKIE } from "../helpers/accounts";
import { launchChromium } from "../helpers/browser";

const base = inject("appUrl");
const accounts = inject("accounts");
const COUNTRIES = ["FR", "US", "GB"] as const;
const HEIGHT = 900;

/** The views of a market page, and whether each shows numbers read under the country. */
const VIEWS = [
  { path: "", under: true },
  { path: "/readings?view=map", under: true },
  { path: "/readings?view=bars", under: true },
  { path: "/changes", under: true },
  { path: "/availability", under: true },
  // With one weight moved (at the published weights there is nothing to rescore).
  { path: "/whatif", under: true },
] as const;

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${base}/v1${path}`, { headers: { Authorization: `Bearer ${accounts.walker.token}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

interface Snapshot {
  dimensions: { id: string; indicators: { id: string; weight: number }[] }[];
}

interface Max {
  products: { productId: string; name: string; available: boolean }[];
}

/** The demo catalogue's listed markets (not the generated one, nor a suite's fixture; one demo market is archived). */
async function demoMarkets(): Promise<string[]> {
  const list = await api<{ markets: { marketId: string; releases?: number }[] }>("/markets");
  return list.markets
    .map((m) => m.marketId)
    .filter((id) => id !== SIZED_MARKET.marketId && id !== "formula-names")
    .sort();
}

async function settled(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect.poll(() => page.locator('.skeleton, [aria-busy="true"]').count(), { timeout: 30_000 }).toBe(0);
}

/**
 * What the page shows under the country for each of `excluded`: every element of the main content
 * that carries the product's id (a row, a bar, a list item) and, inside it, each `data-under`
 * text with a digit, each kept bar and each Max rank. Empty when the rule holds.
 */
function breaches(page: Page, excluded: readonly string[]) {
  return page.evaluate((ids) => {
    const found: string[] = [];
    const main = document.querySelector("main") ?? document.body;
    for (const id of ids) {
      const holders = main.querySelectorAll(
        `[data-product-id="${CSS.escape(id)}"], [data-key="${CSS.escape(id)}"], [data-key^="${CSS.escape(id)}:"]`,
      );
      for (const holder of holders) {
        const where = `${holder.tagName.toLowerCase()}${holder.getAttribute("data-testid") ? `#${holder.getAttribute("data-testid")}` : ""}`;
        for (const under of [holder, ...holder.querySelectorAll("[data-under]")])
          if (under.hasAttribute("data-under") && /\d/.test(under.textContent ?? ""))
            found.push(`${id} in ${where}: "${(under.textContent ?? "").trim()}" read under the country`);
        if (holder.querySelector("rect.kept")) found.push(`${id} in ${where}: a kept bar`);
        const rank = holder.querySelector("[data-rank]");
        if (rank) found.push(`${id} in ${where}: Max rank ${rank.getAttribute("data-rank")}`);
      }
    }
    return found;
  }, excluded);
}

/** How many `data-under` numbers the page shows for the usable products. */
function underNumbers(page: Page, usable: readonly string[]) {
  return page.evaluate((ids) => {
    const main = document.querySelector("main") ?? document.body;
    let count = 0;
    for (const id of ids)
      for (const holder of main.querySelectorAll(
        `[data-product-id="${CSS.escape(id)}"], [data-key="${CSS.escape(id)}"], [data-key^="${CSS.escape(id)}:"]`,
      ))
        for (const under of [holder, ...holder.querySelectorAll("[data-under]")])
          if (under.hasAttribute("data-under") && /\d/.test(under.textContent ?? "")) count++;
    return count;
  }, usable);
}

describe("one country on every view; the unavailable never ranked", () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let markets: string[];
  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: HEIGHT } });
    await context.addCookies([{ name: SESSION_COOKIE, value: accounts.walker.session, url: base }]);
    page = await context.newPage();
    markets = await demoMarkets();
    expect(markets.length).toBeGreaterThanOrEqual(4);
  });
  afterAll(() => browser?.close());

  for (const country of COUNTRIES)
    it(`under ${country}, on every view of every demo market`, async () => {
      const problems: string[] = [];
      let excludedSeen = 0;
      for (const marketId of markets) {
        const max = await api<Max>(`/markets/${marketId}/servicemax?country=${country}`);
        const excluded = max.products.filter((p) => !p.available).map((p) => p.productId);
        const usable = max.products.filter((p) => p.available).map((p) => p.productId);
        excludedSeen += excluded.length;
        const snapshot = await api<Snapshot>(`/markets/${marketId}/snapshot`);
        // What changed compares two releases: a market with one has no numbers there for anyone.
        const { release } = await api<{ release: number }>(`/markets/${marketId}`);
        const moved = snapshot.dimensions.find((d) => d.id === "innovation")?.indicators[0];
        expect(moved, `${marketId}: an Innovation indicator`).toBeDefined();
        for (const view of VIEWS) {
          const [route, query = ""] = view.path.split("?");
          const params = new URLSearchParams([...new URLSearchParams(query), ["country", country]]);
          if (route === "/whatif" && moved) params.set("whatif", `${moved.id}:${moved.weight + 1}`);
          const url = `/markets/${marketId}${route}?${params}`;
          await page.goto(`${base}${url}`);
          await settled(page);
          // The frame shows the country, and every tab keeps it.
          expect(await page.getByTestId("frame-country").inputValue(), url).toBe(country);
          const tabs = await page
            .locator('[data-testid="market-views"] a')
            .evaluateAll((links) =>
              links.map((a) => new URL((a as HTMLAnchorElement).href).searchParams.get("country")),
            );
          expect(tabs.length, `${url}: the view tabs`).toBeGreaterThan(0);
          expect(new Set(tabs), `${url}: the tabs keep the country`).toEqual(new Set([country]));
          problems.push(...(await breaches(page, excluded)).map((b) => `${url}: ${b}`));
          if (view.under && usable.length > 0 && !(route === "/changes" && release < 2))
            expect(await underNumbers(page, usable), `${url}: numbers under ${country} for the usable`).toBeGreaterThan(
              0,
            );
        }
        // A product the country excludes says so in its first screen, and shows nothing under it.
        const first = excluded[0];
        if (first) {
          const url = `/markets/${marketId}/products/${first}?country=${country}`;
          await page.goto(`${base}${url}`);
          await settled(page);
          const verdict = page.locator(`[data-unavailable-under="${country}"]`).first();
          await verdict.waitFor({ timeout: 30_000 });
          const box = await verdict.boundingBox();
          expect(box, `${url}: the verdict`).not.toBeNull();
          expect(box?.y ?? HEIGHT, `${url}: the verdict is in the first screen`).toBeLessThan(HEIGHT - 40);
          problems.push(
            ...(
              await page.evaluate(() =>
                [...(document.querySelector("main")?.querySelectorAll("[data-under]") ?? [])]
                  .filter((e) => /\d/.test(e.textContent ?? ""))
                  .map((e) => `"${(e.textContent ?? "").trim()}" read under the country`),
              )
            ).map((b) => `${url}: ${b}`),
          );
        }
      }
      expect(problems).toEqual([]);
      // France and the United States exclude products in the demo; the United Kingdom none.
      if (country === "GB") expect(excludedSeen).toBe(0);
      else expect(excludedSeen).toBeGreaterThan(0);
    });
});
