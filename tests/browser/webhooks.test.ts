/**
 * The webhooks page as an organization's owner uses it, in Chromium against the running app: add
 * an endpoint (its markets and countries picked, not typed), copy its secret (shown once), send a
 * test, see it delivered in the endpoint's log — and the receiver's own check of the signature
 * passes with the secret the page showed; a deleted endpoint's secret leaves the screen. At 1280
 * and 390 px.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium, signUpOnTheWay } from "../helpers/browser";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

const base = inject("appUrl");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");

describe("the webhooks page, in Chromium", () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => receiver?.close());

  it("adds an endpoint, shows its secret once, and logs a test delivered with that secret's signature", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await signUpOnTheWay(page, `${base}/webhooks`, {
        email: `hooks-${Date.now()}@example.com`,
        organization: "Hook Readers GmbH",
        homeCountry: "DE",
      });
      await page.getByLabel("URL").fill(receiver.url);
      await page.getByLabel("Description").fill("ops <team>");
      await page.getByRole("checkbox", { name: /market\.changed/ }).check();
      // Markets and countries are picked from the lists, found by typing part of a name.
      const markets = page.getByTestId("webhook-markets");
      expect(await markets.getByTestId("webhook-markets-summary").textContent()).toContain("every market");
      await markets.getByRole("checkbox", { name: /Foundation-model APIs/ }).check();
      const countries = page.getByTestId("webhook-countries");
      expect(await countries.getByTestId("webhook-countries-summary").textContent()).toContain("home country, DE");
      await countries.getByRole("searchbox").fill("fran");
      expect(await countries.getByRole("checkbox").count()).toBe(1);
      await countries.getByRole("checkbox", { name: /France/ }).check();
      await countries.getByRole("searchbox").fill("DE");
      await countries.getByRole("checkbox", { name: /Germany/ }).check();
      expect(await countries.getByTestId("webhook-countries-summary").textContent()).toBe(
        "2 chosen: France; Germany. Clear countries for market.changed",
      );
      await page.getByRole("button", { name: "Add endpoint" }).click();
      const secret = await page.getByTestId("webhook-secret").inputValue();
      expect(secret).toMatch(/^whsec_/);
      // Every secret has a copy button.
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
      await page.getByTestId("webhook-secret-copy").click();
      await expect.poll(() => page.getByTestId("webhook-secret-copy").textContent()).toMatch(/^Copied/);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await expect.poll(() => page.getByTestId("webhook-row").count()).toBe(1);
      const row = page.getByTestId("webhook-row");
      expect(await row.locator('[data-label="Markets"]').textContent()).toBe("foundation-model-apis");
      expect(await row.locator('[data-label="Countries"]').textContent()).toBe("FR, DE");
      expect(await page.getByTestId("webhook-state").textContent()).toBe("Enabled");
      await page.screenshot({ path: path.join(SCREENSHOTS, "webhooks-desktop.png"), fullPage: true });

      await page.getByRole("button", { name: /^Send test/ }).click();
      await page.getByText(/Test event msg_\w+ queued/).waitFor();
      await page.reload();
      expect(await page.getByTestId("webhook-secret").count()).toBe(0); // shown once
      await page.getByRole("link", { name: receiver.url }).click();
      await page.waitForURL(/\/webhooks\/ep_\w+$/);
      await expect
        .poll(() => page.getByTestId("delivery-outcome").first().textContent(), { timeout: 20_000 })
        .toBe("Delivered");
      expect(await page.getByTestId("delivery-attempt").first().textContent()).toMatch(/HTTP 204/);
      const [delivery] = receiver.received;
      if (!delivery) throw new Error("nothing reached the receiver");
      expect(receiver.verifies(delivery, secret)).toBe(true);
      expect(JSON.parse(delivery.body).type).toBe("webhook.test");
      await page.screenshot({ path: path.join(SCREENSHOTS, "webhook-deliveries-desktop.png"), fullPage: true });

      // A second endpoint, deleted while its secret is on screen: the secret goes with it.
      await page.goto(`${base}/webhooks`);
      await page.getByLabel("URL").fill(`${receiver.url}?second`);
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await page.getByTestId("webhook-secret").waitFor();
      page.once("dialog", (dialog) => dialog.accept());
      await page.getByRole("button", { name: `Delete ${receiver.url}?second` }).click();
      await expect.poll(() => page.getByTestId("webhook-row").count()).toBe(1);
      expect(await page.getByTestId("webhook-secret").count()).toBe(0);

      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${base}/webhooks`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, "webhooks-phone.png"), fullPage: true });
    } finally {
      await browser.close();
    }
  });
});
