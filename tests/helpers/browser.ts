/** Debian's Chromium driven by Playwright, as the browser suites use it (no downloaded browser). */
import { readFileSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}

/** On the sign-in page: asks for a link, opens it from the dev outbox (it returns to callbackUrl). */
export async function signInHere(page: Page, email: string) {
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await page.waitForURL(/\/signin\/check-email/);
  await page.getByRole("link", { name: "dev outbox" }).click();
  await page.locator(`[data-recipient="${email}"] [data-testid="outbox-link"]`).first().click();
}

/**
 * A new person on the way to `url`, signed out: sent to sign in (the e-mail link returns to `url`),
 * then to onboarding, where they create an organization with this home country; back on `url`.
 */
export async function signUpOnTheWay(
  page: Page,
  url: string,
  person: { email: string; organization: string; homeCountry: string },
) {
  await page.goto(url);
  await page.waitForURL(/\/signin\?callbackUrl=/);
  await signInHere(page, person.email);
  await page.waitForURL(/\/onboarding\?returnTo=/);
  await page.getByLabel("Organization name").fill(person.organization);
  await page.getByTestId("home-country").selectOption(person.homeCountry);
  await page.getByRole("button", { name: "Create organization" }).click();
  await page.waitForURL(url);
}

export interface ReaderSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * A fresh Chromium at desktop size with one page, on which a new person signs up on the way to
 * `url` (signUpOnTheWay): how a suite starts that reads market pages as a signed-in member.
 */
export async function readerSignedUpAt(
  url: string,
  person: { email: string; organization: string; homeCountry: string },
  { acceptDownloads = false } = {},
): Promise<ReaderSession> {
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads });
  const page = await context.newPage();
  await signUpOnTheWay(page, url, person);
  return {
    browser,
    context,
    page,
    close: async () => {
      await context.close();
      await browser.close();
    },
  };
}

/** Clicks the element with this test id, waits for the download it starts, and reads the file. */
export async function downloadText(page: Page, testId: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
  return readFileSync(await download.path(), "utf8");
}
