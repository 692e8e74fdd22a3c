/**
 * The API reference in a real browser: it keeps the app's header, renders the operations from
 * /v1/openapi.json in its frame, breaks no Content-Security-Policy rule and requests nothing from
 * any other origin (it works offline).
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium } from "../helpers/browser";

const base = inject("appUrl");

describe("/docs/api in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it("renders every operation from this origin only", async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    const violations: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    page.on("console", (message) => {
      if (/Content Security Policy|Refused/i.test(message.text())) violations.push(message.text());
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/docs/api`);
    // The app's header stays: every page of the dashboard is one click away.
    const header = page.locator(".site-header");
    expect(await header.locator(".main-nav a", { hasText: "Markets" }).getAttribute("href")).toBe("/");
    const reference = page.frameLocator('[data-testid="api-reference-frame"]');
    await expect
      .poll(async () => reference.getByRole("heading", { name: "Market Positioning Service API" }).count(), {
        timeout: 20_000,
      })
      .toBeGreaterThan(0);
    // The frame fills the window below the header: the reference is read, not peeked at.
    const frameBox = await page.getByTestId("api-reference-frame").boundingBox();
    expect(frameBox?.width).toBeGreaterThan(1200);
    expect((frameBox?.y ?? 0) + (frameBox?.height ?? 0)).toBeGreaterThan(850);
    expect(frameBox?.height).toBeGreaterThan(700);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    const text = await reference.locator("body").textContent();
    for (const label of ["List markets", "Get a market", "Market changelog", "Readings", "Geographies"])
      expect(text).toContain(label);
    // The Readings group opens on demand, as a reader would open it.
    await reference.getByText("Readings", { exact: true }).first().click();
    await expect
      .poll(async () => reference.locator("body").textContent(), { timeout: 20_000 })
      .toMatch(/Market snapshot[\s\S]*Delta reading|Delta reading[\s\S]*Market snapshot/);
    expect(violations).toEqual([]);
    const origin = new URL(base).origin;
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith("data:"))).toEqual([]);
    await page.close();
  });
});
