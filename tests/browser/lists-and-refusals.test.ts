/**
 * Smaller answers of the dashboard said plainly, in Chromium at 1280 × 900 and 390 × 844: a sign-in
 * link the throttles refuse says so and when to try again (it used to say "we sent you a link"
 * and send nothing), the address kept; the error codes listed by status, then code (413 before
 * 431); onboarding offers the countries in the one order the country chooser uses, by name.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium, type ReaderSession, readerSignedUpAt } from "../helpers/browser";
import { askForSignInLink } from "../helpers/hostile";

const base = inject("appUrl");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;

/** Nothing of the page reaches past the viewport's right edge. */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

const mailsTo = async (email: string) => {
  const html = await (await fetch(`${base}/dev/outbox`)).text();
  return html.split(`data-recipient="${email}"`).length - 1;
};

describe("a throttled sign-in, the error list, the countries' order", () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it("says a refused sign-in link was not sent, and when to try again, the address kept", async () => {
    const email = `throttled-${Date.now()}@example.com`;
    // Five links in ten minutes is what one address gets (server/3-limits/throttles.ts).
    for (let i = 0; i < 5; i++) await askForSignInLink(base, email);
    expect(await mailsTo(email)).toBe(5);
    const context = await browser.newContext({ viewport: WIDTHS[0] });
    const page = await context.newPage();
    await page.goto(`${base}/signin`);
    await page.getByLabel("E-mail address").fill(email);
    const asked = Date.now();
    await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await page.waitForURL(/\/signin\?.*retry_at=/);
    const notice = page.getByTestId("signin-throttled");
    expect(await notice.textContent()).toMatch(/^No link was sent: too many sign-in links were asked for this address/);
    // When: a moment within the throttle's ten minutes, as a time and in minutes.
    const when = await notice.locator("time").getAttribute("datetime");
    const at = Date.parse(when ?? "");
    expect(at).toBeGreaterThan(asked);
    expect(at).toBeLessThanOrEqual(asked + 10 * 60_000 + 5_000);
    expect(await notice.textContent()).toMatch(/Try again after \d{2}:\d{2} UTC \(in about (1 minute|\d+ minutes)\)/);
    expect(await page.getByLabel("E-mail address").inputValue()).toBe(email);
    expect(await mailsTo(email)).toBe(5);
    expect(new URL(page.url()).pathname).toBe("/signin");
    for (const viewport of WIDTHS) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: path.join(SCREENSHOTS, `signin-throttled-${viewport.width}.png`), fullPage: true });
      expect(await sideways(page), `the throttled notice at ${viewport.width} px`).toBeLessThanOrEqual(0);
    }
    // A moment that is past, far ahead, or no number says nothing; markup in the address is text.
    for (const forged of ["1", "99999999999", "soon", "-5"]) {
      await page.goto(`${base}/signin?retry_at=${forged}&email=%3Cb%3Ex%3C%2Fb%3E`);
      expect(await page.getByTestId("signin-throttled").count()).toBe(0);
      expect(await page.getByLabel("E-mail address").inputValue()).toBe("<b>x</b>");
      expect(await page.locator("main b").count()).toBe(0);
    }
    await context.close();
  });

  for (const viewport of WIDTHS)
    it(`lists the error codes by status, then by code, at ${viewport.width} px`, async () => {
      const page = await browser.newPage({ viewport });
      await page.goto(`${base}/docs/errors`);
      const rows = await page.locator("tbody tr").evaluateAll((trs) =>
        trs.map((tr) => ({
          code: tr.getAttribute("id") ?? "",
          status: Number(tr.querySelector('[data-label="Status"]')?.textContent),
        })),
      );
      expect(rows.length).toBeGreaterThan(10);
      rows.forEach((row, i) => {
        const before = rows[i - 1];
        if (before)
          expect(
            before.status < row.status || (before.status === row.status && before.code < row.code),
            `${before.code} (${before.status}) before ${row.code} (${row.status})`,
          ).toBe(true);
      });
      const statuses = rows.map((r) => r.status);
      expect(statuses.indexOf(413)).toBeGreaterThanOrEqual(0);
      expect(statuses.indexOf(413)).toBeLessThan(statuses.indexOf(431));
      await page.close();
    });

  describe("the countries, in one order", () => {
    let reader: ReaderSession;
    let onboardingOrder: string[] = [];
    afterAll(() => reader?.close());

    it("onboarding and the country chooser list the countries by name, the same way", async () => {
      // Onboarding's list, read as it is offered to a new person (signed in, no organization yet).
      reader = await readerSignedUpAt(`${base}/markets/foundation-model-apis?country=FR`, {
        email: `countries-${Date.now()}@example.com`,
        organization: "Country Order Oy",
        homeCountry: "FI",
      });
      await reader.page.goto(`${base}/onboarding`);
      const home = reader.page.getByTestId("home-country");
      await expect.poll(() => home.isEnabled()).toBe(true);
      const offered = await home
        .locator("option")
        .evaluateAll((options) =>
          options
            .map((o) => ({ code: (o as HTMLOptionElement).value, text: o.textContent ?? "" }))
            .filter((o) => o.code !== ""),
        );
      onboardingOrder = offered.map((o) => o.code);
      const names = offered.map((o) => o.text.replace(/ \([A-Z]{2}\).*$/, ""));
      const byName = [...names].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }));
      expect(names, "onboarding's countries by name").toEqual(byName);
      expect(onboardingOrder).not.toEqual([...onboardingOrder].sort()); // by name is not by code here
      for (const viewport of WIDTHS) {
        await reader.page.setViewportSize(viewport);
        expect(await sideways(reader.page), `onboarding at ${viewport.width} px`).toBeLessThanOrEqual(0);
        await reader.page.screenshot({ path: path.join(SCREENSHOTS, `onboarding-countries-${viewport.width}.png`) });
      }
      // The chooser of a market page: the same countries in the same order.
      await reader.page.goto(`${base}/markets/foundation-model-apis?country=FR`);
      const chooser = await reader.page
        .getByTestId("frame-country")
        .locator("option")
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      const common = chooser.filter((code) => onboardingOrder.includes(code));
      expect(common.length).toBeGreaterThan(5);
      expect(common).toEqual(onboardingOrder.filter((code) => common.includes(code)));
    });
  });
});
