/** Debian's Chromium driven by Playwright, as the browser suites use it (no downloaded browser). */
import { readFileSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";

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

/** Clicks the element with this test id, waits for the download it starts, and reads the file. */
export async function downloadText(page: Page, testId: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
  return readFileSync(await download.path(), "utf8");
}
