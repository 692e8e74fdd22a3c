/**
 * The first screen and the header, in Chromium at 1280 × 900 and 390 × 844. A visitor: what the
 * service is, a real sample reading without signing in (its numbers the API's), the way in. A
 * signed-in person never sees the sign-in form. The header: one row at 1280 and in view while
 * scrolling, a menu on a phone, an SVG bell, a link to the docs, and the organization switcher
 * only when there is a choice.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TEST_RATE_LIMIT_WINDOW_SECONDS } from "../app/global-setup";
import { launchChromium, type ReaderSession, readerSignedUpAt } from "../helpers/browser";

const base = inject("appUrl");
const accounts = inject("accounts");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");

interface MaxProduct {
  productId: string;
  name: string;
  available: boolean;
}

async function servicemax(marketId: string, country: string): Promise<{ products: MaxProduct[] }> {
  const response = await fetch(`${base}/v1/markets/${marketId}/servicemax?country=${country}`, {
    headers: { Authorization: `Bearer ${accounts.reader.token}` },
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** The header's box and whether its links sit on one line. */
const headerBox = (page: Page) =>
  page.locator("header.site-header").evaluate((header) => {
    const box = header.getBoundingClientRect();
    return { top: box.top, height: box.height };
  });

describe("the first screen, signed out", () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it("says what the service is, shows a real reading without signing in, and the way in", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/`);
    const landing = page.getByTestId("landing");
    expect(await landing.getByRole("heading", { level: 1 }).textContent()).toMatch(/sovereign controls/);
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
    const signIn = page.getByTestId("landing-sign-in");
    expect(await signIn.getAttribute("href")).toBe("/signin");

    const sample = page.getByTestId("sample-reading");
    const caption = (await sample.locator("figcaption").textContent()) ?? "";
    // The sample is the chosen demo market (SAMPLE_MARKET, foundation-model APIs), under France:
    // a first page of it, whatever the size of the largest market.
    const expected = await servicemax("foundation-model-apis", "FR");
    const usable = expected.products.filter((p) => p.available);
    expect(await page.getByTestId("sample-headline").textContent()).toBe(
      `${usable.length} of ${expected.products.length} products are usable there.`,
    );
    expect(caption).toContain("France");
    // The usable in rank order with their numbers, then the unavailable, said in words.
    const rows = await sample.locator("tbody tr").evaluateAll((trs) =>
      trs.map((tr) => ({
        rank: tr.querySelector("td")?.textContent,
        name: tr.querySelector("th")?.childNodes[0]?.textContent?.trim(),
        kept: tr.querySelector("td:last-child")?.textContent,
      })),
    );
    const ordered = [...usable, ...expected.products.filter((p) => !p.available)];
    expect(rows.map((r) => r.name)).toEqual(ordered.slice(0, 8).map((p) => p.name));
    expect(await page.getByTestId("sample-more").textContent()).toContain(
      `The first 8 of ${expected.products.length} products.`,
    );
    for (const row of rows.slice(usable.length)) expect([row.rank, row.kept]).toEqual(["–", "unavailable"]);
    for (const row of rows.slice(0, usable.length)) expect(row.kept).toMatch(/^\d+\.\d$/);
    await page.screenshot({ path: path.join(SCREENSHOTS, "landing-desktop.png"), fullPage: true });
    await page.close();
  });

  it("fits a phone, with the header folded into a menu", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${base}/`);
    expect((await headerBox(page)).height).toBeLessThanOrEqual(64);
    expect(await page.locator(".site-header .main-nav").isVisible()).toBe(false);
    await page.locator(".site-header .menu summary").click();
    expect(await page.locator(".site-header .menu nav a", { hasText: "Docs" }).isVisible()).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "landing-phone.png"), fullPage: true });
    await page.close();
  });
});

describe("the header and sign-in, signed in", () => {
  let reader: ReaderSession;
  let page: Page;
  beforeAll(async () => {
    reader = await readerSignedUpAt(`${base}/tokens`, {
      email: `header-${Date.now()}@example.com`,
      organization: "Header Checkers SARL",
      homeCountry: "FR",
    });
    page = reader.page;
  });
  afterAll(() => reader?.close());

  it("never shows a signed-in person the sign-in form: /signin goes where it would return to", async () => {
    await page.goto(`${base}/signin`);
    await page.waitForURL(`${base}/`);
    await page.goto(`${base}/signin?callbackUrl=%2Fcredits`);
    await page.waitForURL(`${base}/credits`);
    expect(await page.getByLabel("E-mail address").count()).toBe(0);
  });

  it("names the next step where there is nothing yet, and says the rate limit's window", async () => {
    await page.goto(`${base}/credits`);
    const empty = page.getByTestId("usage-empty");
    await expect.poll(() => empty.count()).toBe(1);
    expect(await empty.locator("a").evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toEqual([
      "/tokens",
      "/connect",
    ]);
    // The suites run the app with a window of TEST_RATE_LIMIT_WINDOW_SECONDS (2 s).
    await expect
      .poll(() =>
        page.getByText(`requests per ${TEST_RATE_LIMIT_WINDOW_SECONDS} s, for the whole organization`).count(),
      )
      .toBe(1);
  });

  it("is one row at 1280, stays in view, draws the bell as SVG, links the docs, and has no switcher for one organization", async () => {
    await page.goto(`${base}/markets/foundation-model-apis/readings`);
    await expect
      .poll(() => page.locator('[data-testid="delta-map"] svg [data-mark="streak"]').count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    const header = page.locator("header.site-header");
    const { height } = await headerBox(page);
    expect(height).toBeLessThanOrEqual(60);
    const centres = await header.locator(".brand, .main-nav a, .account > *").evaluateAll((items) =>
      items.map((item) => {
        const box = item.getBoundingClientRect();
        return box.top + box.height / 2;
      }),
    );
    expect(centres.length).toBeGreaterThan(6);
    expect(Math.max(...centres) - Math.min(...centres), "every item of the header on one row").toBeLessThan(12);
    expect(await page.getByTestId("notification-bell").locator("svg").count()).toBe(1);
    expect(await header.locator(".main-nav a", { hasText: "Docs" }).getAttribute("href")).toBe("/docs/api");
    expect(await page.getByTestId("organization-switcher").count()).toBe(0);
    expect(await page.getByTestId("organization-name").textContent()).toBe("Header Checkers SARL");
    await expect
      .poll(() =>
        page.evaluate(() => {
          window.scrollTo(0, document.documentElement.scrollHeight);
          return window.scrollY;
        }),
      )
      .toBeGreaterThan(500);
    expect((await headerBox(page)).top).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "header-desktop-scrolled.png") });
  });
});
