/**
 * The webhooks page as an organization's owner uses it, in Chromium against the running app: add
 * an endpoint, copy its secret (shown once), send a test, see it delivered in the endpoint's log —
 * and the receiver's own check of the signature passes with the secret the page showed. At 1280
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
      await page.getByRole("button", { name: "Add endpoint" }).click();
      const secret = await page.getByTestId("webhook-secret").inputValue();
      expect(secret).toMatch(/^whsec_/);
      await expect.poll(() => page.getByTestId("webhook-row").count()).toBe(1);
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
