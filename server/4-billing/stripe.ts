/**
 * The one Stripe client (the official SDK), made from the billing configuration: Stripe's API, or
 * the address STRIPE_API_BASE names (the tests' stand-in, tests/helpers/stripe-stand-in.ts). One
 * per secret key and address, so each request does not build its own agent.
 */
import Stripe from "stripe";
import { paymentProviderFailed } from "../1-errors/api-error";
import { log } from "../3-observability/logger";
import type { StripeSettings } from "./config";

export type { Stripe, StripeSettings };

/** How long one call to Stripe may take: a dashboard click waits for it. */
const TIMEOUT_MS = 20_000;

const clients = new Map<string, Stripe>();

export function stripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase;
  const key = `${settings.secretKey} ${base?.href ?? ""}`;
  let client = clients.get(key);
  if (!client) {
    client = new Stripe(settings.secretKey, {
      // Retries carry the SDK's idempotency key, so a retried create makes one object.
      maxNetworkRetries: 2,
      timeout: TIMEOUT_MS,
      telemetry: false,
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === "https:" ? 443 : 80),
            protocol: base.protocol === "https:" ? "https" : "http",
          }
        : {}),
    });
    clients.set(key, client);
  }
  return client;
}

/** Signature check of a webhook without any API key: the static half of the SDK. */
export const stripeWebhooks = Stripe.webhooks;

/** What the SDK throws when a Stripe-Signature does not verify a body. */
export const SignatureVerificationError = Stripe.errors.StripeSignatureVerificationError;

/**
 * A person's Stripe request (a checkout, the portal): Stripe's own refusal or silence becomes a 503
 * saying nothing was charged, never an unexplained 500; what Stripe said goes to the log.
 */
export async function askStripe<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      // The operator's half of the story: what Stripe said (never a secret: Stripe's own message).
      log().warn(
        { event: "stripe.request_failed", what, type: error.type, code: error.code, status: error.statusCode },
        error.message.slice(0, 300),
      );
      throw paymentProviderFailed(what);
    }
    throw error;
  }
}
