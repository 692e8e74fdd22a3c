/**
 * The accounts flow as a person goes through it, in Chromium against the running app: sign in by
 * the e-mail link from the dev outbox, create an organization, create a token and copy its
 * secret, call the API with it, see the debit on the credits page, revoke the token.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium, signInHere } from "../helpers/browser";

const base = inject("appUrl");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
const SNAPSHOT = `${base}/v1/markets/foundation-model-apis/snapshot`;

async function signIn(page: Page, email: string) {
  await page.goto(`${base}/tokens`);
  await page.waitForURL(/\/signin\?callbackUrl=%2Ftokens/);
  await signInHere(page, email);
}

describe("sign-in to first API call, in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => browser?.close());

  it("signs in by e-mail link, onboards, makes a token that works and shows its debit", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const page = await context.newPage();
    const email = `browser-${Date.now()}@example.com`;
    await signIn(page, email);

    // No organization yet: /tokens sends the person to onboarding, which returns to /tokens.
    await page.waitForURL(/\/onboarding\?returnTo=%2Ftokens/);
    await page.getByLabel("Organization name").fill("Browser Test SAS");
    await page.getByTestId("home-country").selectOption("FR");
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.waitForURL(/\/tokens$/);
    await expect.poll(() => page.getByTestId("header-balance").textContent()).toBe("1,000 credits");
    // The header fits at 1280: one row, the organization's name whole, the balance on one line.
    const header = page.locator(".site-header");
    expect((await header.boundingBox())?.height).toBeLessThan(64);
    const orgName = page.getByTestId("organization-name");
    expect(await orgName.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    const balance = page.getByTestId("header-balance");
    expect(await balance.evaluate((e) => e.getClientRects().length)).toBe(1);

    await page.getByLabel("Name", { exact: true }).fill("browser");
    await page.getByRole("button", { name: "Create token" }).click();
    const secretField = page.getByTestId("new-token-secret");
    await secretField.waitFor();
    await page.getByRole("button", { name: "Copy" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Copied" }).count()).toBe(1);
    const secret = await page.evaluate(() => navigator.clipboard.readText());
    expect(secret).toBe(await secretField.inputValue());
    expect(secret).toMatch(/^mps_[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => page.getByTestId("token-row").count()).toBe(1);
    await page.screenshot({ path: path.join(SCREENSHOTS, "tokens-desktop.png"), fullPage: true });

    const response = await fetch(SNAPSHOT, { headers: { Authorization: `Bearer ${secret}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-credits-cost")).toBe("5");
    const remaining = response.headers.get("x-credits-remaining");
    expect(remaining).toBe("995");
    // Readings without a country engage the organization's home country.
    const delta = await (
      await fetch(`${base}/v1/markets/foundation-model-apis/delta`, {
        headers: { Authorization: `Bearer ${secret}` },
      })
    ).json();
    expect(delta.country).toBe("FR");

    await page.goto(`${base}/credits`);
    await expect.poll(() => page.getByTestId("credit-balance").textContent()).toBe("992");
    const debits = page.locator('[data-testid="ledger-row"][data-kind="debit"]');
    await expect.poll(() => debits.count()).toBe(2);
    expect(await debits.last().textContent()).toContain("readings.snapshot");
    expect(await debits.last().textContent()).toContain("−5");
    await expect.poll(() => page.locator(".recharts-bar-rectangle").count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "credits-desktop.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(SCREENSHOTS, "credits-phone.png"), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await page.setViewportSize({ width: 1280, height: 900 });

    // The Connect page gives the MCP URL and configurations that use it.
    await page.getByRole("link", { name: "Connect MCP" }).click();
    await page.waitForURL(/\/connect$/);
    expect(await page.getByTestId("mcp-url").textContent()).toBe(`${base}/mcp`);
    const configs = await page.getByTestId("client-config").allTextContents();
    expect(configs.length).toBeGreaterThanOrEqual(3);
    for (const config of configs) expect(config).toContain(`${base}/mcp`);

    await page.goto(`${base}/tokens`);
    // A token revoked while its secret is on screen: the secret leaves with it, the token folds away.
    await page.getByLabel("Name", { exact: true }).fill("throwaway");
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByTestId("new-token-secret").waitFor();
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "Revoke throwaway" }).click();
    await expect.poll(() => page.getByTestId("new-token-secret-panel").count()).toBe(0);
    const ended = page.getByTestId("ended-tokens");
    expect(await ended.locator("summary").textContent()).toBe("Revoked and expired (1)");
    expect(await ended.getAttribute("open")).toBeNull();
    expect(await ended.getByTestId("token-row").isVisible()).toBe(false);
    expect(await ended.getByRole("button", { name: /^Revoke/ }).count()).toBe(0);
    await expect.poll(() => page.getByTestId("token-row").count()).toBe(2);

    // Revoking asks first: dismissed, nothing happens; accepted, the token is revoked.
    page.once("dialog", (dialog) => dialog.dismiss());
    await page.getByRole("button", { name: /^Revoke/ }).click();
    expect(await page.getByTestId("token-row").first().textContent()).not.toContain("Revoked");
    page.once("dialog", (dialog) => {
      expect(dialog.message()).toMatch(/^Revoke the token "/);
      return dialog.accept();
    });
    await page.getByRole("button", { name: /^Revoke/ }).click();
    await expect.poll(() => ended.locator("summary").textContent()).toBe("Revoked and expired (2)");
    expect(await page.getByText("No active tokens.").count()).toBe(1);
    expect((await fetch(SNAPSHOT, { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(401);

    // Sign out sits in the account menu of the header.
    await page.locator(".site-header .user-menu summary").click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/signin/);
    await page.goto(`${base}/credits`);
    await page.waitForURL(/\/signin\?callbackUrl=%2Fcredits/);
    await context.close();
  });

  it("hides the other organizations' data and switches between one's own", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, `switcher-${Date.now()}@example.com`);
    await page.waitForURL(/\/onboarding/);
    for (const name of ["Alpha GmbH", "Beta AB"]) {
      await page.goto(`${base}/onboarding`);
      await page.getByLabel("Organization name").fill(name);
      await page.getByTestId("home-country").selectOption("DE");
      await page.getByRole("button", { name: "Create organization" }).click();
      // Onboarding with nowhere asked for returns to the markets, what a new analyst came for.
      await page.waitForURL(/\/markets$/);
    }
    await page.goto(`${base}/tokens`);
    const switcher = page.getByTestId("organization-switcher");
    const selected = () => switcher.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent);
    await expect.poll(selected).toBe("Beta AB");
    await page.getByLabel("Name", { exact: true }).fill("beta token");
    await page.getByRole("button", { name: "Create token" }).click();
    await expect.poll(() => page.getByTestId("token-row").count()).toBe(1);
    // Keyboard: focus the switcher and choose the other organization.
    await switcher.focus();
    await switcher.selectOption({ label: "Alpha GmbH" });
    await expect.poll(selected).toBe("Alpha GmbH");
    await page.reload();
    await expect.poll(() => page.getByText("No tokens yet.").count()).toBe(1);
    await context.close();
  });
});
