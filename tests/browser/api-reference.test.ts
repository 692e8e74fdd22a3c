/**
 * The API reference in a real browser: it renders the operations from /v1/openapi.json, breaks no
 * Content-Security-Policy rule and requests nothing from any other origin (it works offline).
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
    await page.goto(`${base}/docs/api`);
    await expect
      .poll(async () => page.getByRole("heading", { name: "Market Positioning Service API" }).count(), {
        timeout: 20_000,
      })
      .toBeGreaterThan(0);
    const text = await page.locator("body").textContent();
    for (const label of ["List markets", "Get a market", "Market changelog", "Readings", "Geographies"])
      expect(text).toContain(label);
    // The Readings group opens on demand, as a reader would open it.
    await page.getByText("Readings", { exact: true }).first().click();
    await expect
      .poll(async () => page.locator("body").textContent(), { timeout: 20_000 })
      .toMatch(/Market snapshot[\s\S]*Delta reading|Delta reading[\s\S]*Market snapshot/);
    expect(violations).toEqual([]);
    const origin = new URL(base).origin;
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith("data:"))).toEqual([]);
    await page.close();
  });
});
