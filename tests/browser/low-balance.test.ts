/**
 * The low-balance warning in Chromium, for the `lowBalance` fixture (110 credits, the default
 * threshold of 100, a name with markup): API calls debit it across the threshold, and the header
 * turns the balance into a warning — "Low: N credits" on one row at 1280, "Low: N" still in view
 * at 390, every item of the header whole and in view there and at 320 — with an accessible name
 * saying what it means; its owner gets one e-mail, the name in it escaped. On the credits page the owner sets a threshold far above the balance (still low), then
 * 0 (the plain balance again).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SESSION_COOKIE } from "../helpers/accounts";
import { launchChromium } from "../helpers/browser";

const base = inject("appUrl");
const { lowBalance } = inject("accounts");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
const NAME = "Low <b>balance</b> & Co";

/** The vertical centres of the header's visible items, its height, and any sideways overflow. */
const headerRow = (page: Page) =>
  page.locator("header.site-header").evaluate((header) => ({
    height: header.getBoundingClientRect().height,
    centres: [...header.querySelectorAll(".brand, .main-nav a, .account > *")]
      .filter((item) => item.getBoundingClientRect().width > 0)
      .map((item) => {
        const box = item.getBoundingClientRect();
        return box.top + box.height / 2;
      }),
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  }));

/** The header's visible items whose box reaches past the viewport's right edge, or the header's own. */
const headerItemsPastEdge = (page: Page, width: number) =>
  page.locator("header.site-header").evaluate(
    (header, width) =>
      [header, ...header.querySelectorAll(".brand, .menu > summary, .account > *, .user-menu > summary")]
        .filter((item) => item.getBoundingClientRect().width > 0)
        .filter(
          (item) =>
            item.getBoundingClientRect().right > width + 0.5 ||
            // A label cut inside its own box ("Acco…") is not whole either.
            (item.matches("summary, .balance") && item.scrollWidth > item.clientWidth + 1),
        )
        .map((item) => `${item.className || item.tagName}: ${Math.round(item.getBoundingClientRect().right)} px`),
    width,
  );

/** What the balance link shows, on one line (innerText: what is rendered, without hidden parts). */
const shown = async (page: Page) =>
  // biome-ignore lint/performance/useDomNodeTextContent: the phone hides " credits"; only innerText knows
  ((await page.getByTestId("header-balance").innerText()) ?? "").replace(/\s+/g, " ").trim();

async function snapshot(): Promise<number> {
  const response = await fetch(`${base}/v1/markets/foundation-model-apis/snapshot`, {
    headers: { Authorization: `Bearer ${lowBalance.token}` },
  });
  expect(response.status).toBe(200);
  return Number(response.headers.get("x-credits-remaining"));
}

async function setThreshold(page: Page, threshold: number) {
  await page.goto(`${base}/credits`);
  const input = page.getByLabel("Warn at or below (credits)");
  await expect.poll(() => input.inputValue()).not.toBe("");
  await input.fill(String(threshold));
  await page.getByRole("button", { name: "Save" }).click();
  await expect.poll(() => page.getByRole("status").textContent()).toBe("Saved.");
}

describe("the low-balance warning", () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: SESSION_COOKIE, value: lowBalance.session, url: base }]);
    page = await context.newPage();
  });
  afterAll(() => browser?.close());

  it("says what the threshold does, and shows no warning while the balance is above it", async () => {
    await page.goto(`${base}/credits`);
    const section = page.getByRole("region", { name: "Low-balance warning" });
    expect(await section.textContent()).toContain("0 turns the warning off");
    expect(await page.getByTestId("header-balance").getAttribute("data-low")).toBeNull();
    expect(await shown(page)).toBe("110 credits");
  });

  it("warns once a debit takes the balance to the threshold: in the header, and one e-mail", async () => {
    expect(await snapshot()).toBe(105);
    expect(await snapshot()).toBe(100); // crossed
    expect(await snapshot()).toBe(95); // below already: no second e-mail
    await page.goto(`${base}/credits`);
    const warning = page.getByTestId("header-balance");
    expect(await warning.getAttribute("data-low")).toBe("true");
    expect(await shown(page)).toBe("! Low: 95 credits");
    // Its accessible name starts with what it shows (WCAG 2.5.3) and says what it means.
    const named = page.getByRole("link", {
      name: "Low: 95 credits, at or below the warning threshold of 100 credits",
      exact: true,
    });
    expect(await named.count()).toBe(1);

    // The owner's e-mail: queued by the debit, sent by the mail job, the name escaped.
    const mails = page.locator('[data-testid="outbox-mail"]', { hasText: "low balance, 100 credits left" });
    await expect
      .poll(
        async () => {
          await page.goto(`${base}/dev/outbox`);
          return mails.count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    expect(await mails.textContent()).toContain(NAME);
    await mails.getByTestId("outbox-html").click();
    await expect.poll(() => page.locator("h1").textContent()).toBe(`${NAME}: low balance, 100 credits left`);
    expect(await page.locator("b").count()).toBe(0); // the markup is text, not markup
    expect(await page.getByRole("link", { name: "Open the credits page" }).getAttribute("href")).toMatch(/\/credits$/);
  });

  it("keeps the warning on one row at 1280 and in view at 390, with a threshold set far above", async () => {
    await setThreshold(page, 1_000_000_000);
    await page.goto(`${base}/credits`);
    expect(await shown(page)).toBe("! Low: 95 credits");
    expect(await page.getByTestId("low-balance-state").textContent()).toContain("The balance is low");
    const wide = await headerRow(page);
    console.log(`header at 1280 with the warning: ${JSON.stringify(wide)}`);
    expect(wide.height).toBeLessThanOrEqual(60);
    expect(wide.centres.length).toBeGreaterThan(6);
    expect(Math.max(...wide.centres) - Math.min(...wide.centres), "the header on one row").toBeLessThan(12);
    expect(wide.overflow).toBe(0);
    // The organization's name stays whole beside the warning.
    expect(await page.getByTestId("organization-name").evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, "header-low-balance-desktop.png") });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/credits`);
    expect(await page.getByTestId("header-balance").isVisible()).toBe(true);
    expect(await shown(page)).toBe("! Low: 95");
    expect(
      await page.getByRole("link", { name: /^Low: 95 credits, at or below the warning threshold/ }).count(),
    ).toBeGreaterThanOrEqual(1);
    const narrow = await headerRow(page);
    console.log(`header at 390 with the warning: ${JSON.stringify(narrow)}`);
    expect(narrow.height).toBeLessThanOrEqual(64);
    expect(Math.max(...narrow.centres) - Math.min(...narrow.centres), "the phone header on one row").toBeLessThan(12);
    expect(narrow.overflow).toBe(0);
    // Every item of the header wholly in view: "Account" was clipped at 403 px of header.
    expect(await headerItemsPastEdge(page, 390)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, "header-low-balance-phone.png") });
    // A narrower phone still: the header gives the brand up before anything overflows.
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`${base}/credits`);
    expect(await headerItemsPastEdge(page, 320)).toEqual([]);
    expect((await headerRow(page)).overflow).toBe(0);
    expect(await shown(page)).toBe("! Low: 95");
    await page.screenshot({ path: path.join(SCREENSHOTS, "header-low-balance-320.png") });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("gives the plain balance back with the warning off", async () => {
    await setThreshold(page, 0);
    await page.goto(`${base}/credits`);
    expect(await page.getByTestId("header-balance").getAttribute("data-low")).toBeNull();
    expect(await shown(page)).toBe("95 credits");
    expect(await page.getByTestId("low-balance-state").textContent()).toBe("The warning is off.");
  });
});
