/** Debian's Chromium driven by Playwright, as the browser suites use it (no downloaded browser). */
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
