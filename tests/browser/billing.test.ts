/**
 * Buying a credit pack in Chromium, end to end, on an app of its own pointed at the Stripe
 * stand-in (tests/helpers/stripe-stand-in.ts): the owner opens the credits page, sees each pack
 * with its price per 1,000 credits, clicks Buy, lands on the stand-in's hosted page, pays; the
 * stand-in sends the signed webhook and sends the browser back to /credits?checkout=<session>,
 * which says the payment was received; the header's balance and the purchases table show the
 * pack with its invoice link. The owner then saves a card through the stand-in's setup page and
 * turns automatic top-up on; one paid call crossing the threshold makes the app's queue charge
 * the card off-session, once, and the granted pack shows. An admin reads the packs without a Buy button and is told who buys.
 * The page is looked at at 1280 and 390 px (no sideways scroll).
 */
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organization, SESSION_COOKIE, signedInUser } from "../helpers/accounts";
import { launchChromium } from "../helpers/browser";
import { type OwnApp, startOwnApp } from "../helpers/own-app";
import { type StripeObject, type StripeStandIn, startStripeStandIn } from "../helpers/stripe-stand-in";
import { SCREENSHOTS } from "../helpers/views";

let stripe: StripeStandIn;
let app: OwnApp<{ organizationId: string; owner: string; admin: string; token: string }>;
let browser: Browser;

/** A browser context signed in with `session`, under both names the app answers to. */
async function signedIn(session: string, width: number): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  // Checkout comes back to the app's own origin (localhost:<port> without APP_URL).
  const local = app.url.replace("127.0.0.1", "localhost");
  await context.addCookies([
    { name: SESSION_COOKIE, value: session, url: app.url },
    { name: SESSION_COOKIE, value: session, url: local },
  ]);
  return context;
}

const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  stripe = await startStripeStandIn();
  app = await startOwnApp(
    {
      CREDIT_PACKS: "10000:4900:eur,100000:39900:eur",
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
    },
    async (db) => {
      const org = await organization(db, "Card <b>Buyer</b> & Co", { credits: 0 });
      const admin = await signedInUser(db, org.id, undefined, "admin");
      return { organizationId: org.id, owner: org.session, admin: admin.session, token: org.token };
    },
  );
  stripe.webhookUrl = `${app.url}/stripe/webhook`;
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await stripe?.close();
});

describe("buying a credit pack", () => {
  it("from the credits page through Stripe's hosted page, back to a received payment and the new balance", async () => {
    const context = await signedIn(app.prepared.owner, 1280);
    const page = await context.newPage();
    await page.goto(`${app.url}/credits`);
    const packs = page.getByTestId("credit-pack");
    await expect.poll(() => packs.count()).toBe(2);
    expect((await packs.nth(0).innerText()).replace(/\s+/g, " ")).toContain("10,000 49.00 EUR 4.90 EUR");
    expect((await packs.nth(1).innerText()).replace(/\s+/g, " ")).toContain("100,000 399.00 EUR 3.99 EUR");
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SCREENSHOTS}/credits-packs-1280.png`, fullPage: true });

    await packs.nth(0).getByRole("button", { name: "Buy" }).click();
    await page.waitForURL(new RegExp(`^${stripe.url}/pay/cs_`));
    expect(await page.getByRole("heading").innerText()).toBe("Stripe stand-in");
    await page.getByRole("button", { name: "Pay" }).click();

    await page.waitForURL(/\/credits\?checkout=cs_/);
    await expect
      .poll(() => page.getByTestId("checkout-return").textContent())
      .toBe("Payment received: the credits are in the balance.");
    await expect.poll(() => page.getByTestId("header-balance").innerText()).toContain("10,000");
    const row = page.getByTestId("purchase-row");
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getAttribute("data-state")).toBe("paid");
    expect(await row.getByRole("link", { name: "Invoice" }).getAttribute("href")).toMatch(
      /^https:\/\/invoice\.stripe\.test\/i\/in_/,
    );
    await page.screenshot({ path: `${SCREENSHOTS}/credits-bought-1280.png`, fullPage: true });
    await context.close();
  });

  it("fits a phone: packs, Buy and the purchases readable at 390 px without sideways scrolling", async () => {
    const context = await signedIn(app.prepared.owner, 390);
    const page = await context.newPage();
    await page.goto(`${app.url}/credits`);
    await expect.poll(() => page.getByTestId("credit-pack").count()).toBe(2);
    await expect.poll(() => page.getByTestId("purchase-row").count()).toBe(1);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    const buy = page.getByTestId("buy-credits").first();
    const box = await buy.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SCREENSHOTS}/credits-packs-390.png`, fullPage: true });
    await context.close();
  });

  it("saves a card, turns automatic top-up on, and a paid call that crosses the threshold buys a pack", async () => {
    const context = await signedIn(app.prepared.owner, 1280);
    const page = await context.newPage();
    await page.goto(`${app.url}/credits`);
    const panel = page.getByRole("region", { name: "Automatic top-up" });
    expect(await panel.getByTestId("top-up-state").innerText()).toBe("Off until a card is saved.");
    await panel.getByRole("button", { name: "Save a card" }).click();
    await page.waitForURL(new RegExp(`^${stripe.url}/pay/cs_`));
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL(/\/credits\?card=saved/);
    await expect.poll(() => panel.getByTestId("top-up-card").innerText()).toContain("visa •••• 4242");

    // Just below the balance (10,000 after the purchase above): the next paid call crosses it.
    await panel.getByTestId("top-up-enabled").check();
    await panel.getByTestId("top-up-threshold").fill("9999");
    await panel.getByTestId("top-up-max").fill("2");
    await panel.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(() => panel.getByTestId("top-up-state").innerText())
      .toBe("On: when the balance falls to 9,999 credits or below, 10,000 credits are bought for 49.00 EUR.");

    const intentsBefore = stripe.paymentIntents.size;
    const call = await fetch(`${app.url}/v1/markets/foundation-model-apis/snapshot`, {
      headers: { Authorization: `Bearer ${app.prepared.token}` },
    });
    expect(call.status).toBe(200);
    // The app's own queue worker charges the saved card, off-session, once.
    await expect.poll(() => stripe.paymentIntents.size, { timeout: 30_000 }).toBe(intentsBefore + 1);
    const intent = [...stripe.paymentIntents.values()].at(-1) as StripeObject;
    expect(intent).toMatchObject({ status: "succeeded", off_session: "true", amount: 4900 });
    expect((await stripe.sendEvent("payment_intent.succeeded", stripe.paymentIntent(intent.id))).status).toBe(200);
    await page.reload();
    await expect.poll(() => page.getByTestId("header-balance").innerText()).toContain("19,995");
    expect(await panel.getByTestId("top-up-month").innerText()).toBe("This month: 1 top-up.");
    await expect.poll(() => page.getByTestId("purchase-row").count()).toBe(2);
    const newest = page.getByTestId("purchase-row").first();
    expect(await newest.getAttribute("data-state")).toBe("paid");
    expect((await newest.innerText()).replace(/\s+/g, " ")).toContain("10,000 49.00 EUR automatic top-up paid");
    await page.screenshot({ path: `${SCREENSHOTS}/credits-top-up-1280.png`, fullPage: true });
    await context.close();
  });

  it("an admin reads the packs without a Buy button and is told who buys", async () => {
    const context = await signedIn(app.prepared.admin, 1280);
    const page = await context.newPage();
    await page.goto(`${app.url}/credits`);
    await expect.poll(() => page.getByTestId("credit-pack").count()).toBe(2);
    expect(await page.getByTestId("buy-credits").count()).toBe(0);
    expect(await page.getByText("Only owner and billing members of the organization can buy credits.").count()).toBe(1);
    await context.close();
  });
});
