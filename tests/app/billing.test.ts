/**
 * Card purchases through the running app (npm start) and the Stripe stand-in: POST /stripe/webhook
 * is answered by the routing table outside Next, refuses an unsigned delivery, and grants a paid
 * checkout once when the same event arrives ten times at once — on PostgreSQL split over two app
 * instances on one database. A paid call then sees the new balance at once (the ledger's trigger
 * makes cached token holders forget their balance hint); a 402 names where to buy credits.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken, TOKEN_SCOPES } from "@/server/4-api-access/tokens";
import { METADATA_CREDITS, METADATA_ORGANIZATION } from "@/server/4-billing/events";
import { stripeClient } from "@/server/4-billing/stripe";
import { createOrganization } from "@/server/4-organizations/organizations";
import { type OwnApp, startOwnApp } from "../helpers/own-app";
import { type RunningApp, startApp } from "../helpers/server";
import { type StripeObject, type StripeStandIn, startStripeStandIn } from "../helpers/stripe-stand-in";

let stripe: StripeStandIn;
let app: OwnApp<{ organizationId: string; token: string }>;
let second: RunningApp | null = null;
let secondDir = "";

const env = () => ({
  CREDIT_PACKS: "10000:4900:eur",
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
  STRIPE_API_BASE: stripe.url,
});

beforeAll(async () => {
  stripe = await startStripeStandIn();
  app = await startOwnApp(env(), async (db) => {
    const org = await createOrganization(db, { name: "Card Buyer", homeCountry: "DE", credits: 0 });
    const { secret } = await createApiToken(db, { organizationId: org.id, name: "t", scopes: TOKEN_SCOPES });
    return { organizationId: org.id, token: secret };
  });
  if (app.databaseUrl) {
    secondDir = mkdtempSync(path.join(tmpdir(), "mps-billing-second-"));
    second = await startApp({
      ...env(),
      REDIS_URL: "",
      APP_URL: "",
      DATABASE_URL: app.databaseUrl,
      DATA_DIR: secondDir,
    });
  }
  stripe.webhookUrl = `${app.url}/stripe/webhook`;
}, 300_000);

afterAll(async () => {
  await second?.stop();
  if (secondDir) rmSync(secondDir, { recursive: true, force: true });
  await app?.close();
  await stripe?.close();
});

const balance = async () => {
  const answer = await fetch(`${app.url}/v1/organization`, {
    headers: { Authorization: `Bearer ${app.prepared.token}` },
  });
  return ((await answer.json()) as { balance: number }).balance;
};

describe("POST /stripe/webhook on the running app", () => {
  it("refuses an unsigned delivery with 400 invalid_signature, outside Next", async () => {
    const answer = await fetch(`${app.url}/stripe/webhook`, { method: "POST", body: "{}" });
    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(await answer.json()).toMatchObject({ code: "invalid_signature" });
  });

  it("says in a 402 where credits are bought", async () => {
    const answer = await fetch(`${app.url}/v1/markets/foundation-model-apis/snapshot`, {
      headers: { Authorization: `Bearer ${app.prepared.token}` },
    });
    expect(answer.status).toBe(402);
    const problem = (await answer.json()) as { detail: string; creditsUrl: string };
    expect(problem.creditsUrl).toMatch(/^https?:\/\/[^/]+\/credits$/);
    expect(problem.detail).toContain(
      `buy credits, or turn on automatic top-up, on the Credits page: ${problem.creditsUrl}.`,
    );
  });

  it("grants a paid checkout once when the event arrives ten times at once, on every instance", async () => {
    expect(await balance()).toBe(0); // the cached hint of the token is now 0
    const client = stripeClient({ secretKey: stripe.secretKey, webhookSecret: null, apiBase: new URL(stripe.url) });
    const session = await client.checkout.sessions.create({
      mode: "payment",
      line_items: [
        { quantity: 1, price_data: { currency: "eur", unit_amount: 4900, product_data: { name: "Credits" } } },
      ],
      metadata: { [METADATA_ORGANIZATION]: app.prepared.organizationId, [METADATA_CREDITS]: "10000" },
      success_url: `${app.url}/credits?checkout={CHECKOUT_SESSION_ID}`,
    });
    Object.assign(stripe.sessions.get(session.id) as StripeObject, {
      payment_status: "paid",
      payment_intent: "pi_app",
    });
    const { body, signature } = stripe.signedEvent(
      "checkout.session.completed",
      stripe.sessions.get(session.id) as StripeObject,
    );
    const doors = [app.url, ...(second ? [second.url] : [])];
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        fetch(`${doors[index % doors.length]}/stripe/webhook`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
          body,
        }).then((answer) => answer.status),
      ),
    );
    expect(answers).toEqual(Array(10).fill(200));
    expect(await balance()).toBe(10000);
    // A paid call right away: the token's cached balance hint (0) was forgotten with the grant.
    const paid = await fetch(`${app.url}/v1/markets/foundation-model-apis/snapshot`, {
      headers: { Authorization: `Bearer ${app.prepared.token}` },
    });
    expect(paid.status).toBe(200);
  });
});
