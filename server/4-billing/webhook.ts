/**
 * POST /stripe/webhook (docs/billing.md): Stripe's events, answered from Node outside Next like
 * the embeds (server/9-routing/api-routes.ts). The raw body is read up to 256 KiB (Stripe's events
 * are a few KiB; more is refused with 413 unread), its signature checked with the SDK against
 * STRIPE_WEBHOOK_SECRET (five minutes' tolerance, so a captured event cannot be replayed later)
 * and only then acted on. A refusal changes nothing. Any 2xx tells Stripe to stop retrying, so
 * an event we do not act on is still 200, and a failure of ours is 500 (Stripe retries it).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database } from "../../db/client";
import { isJsonObject } from "../2-http/json-object";
import { nodeHeaders } from "../2-http/node-headers";
import { publicOriginFrom } from "../2-http/origin";
import { PROBLEM_CONTENT_TYPE, problemOf } from "../2-http/problem";
import { errorMessage, log } from "../3-observability/logger";
import { type BillingConfig, processBillingConfig } from "./config";
import { actOnEvent } from "./events";
import { SignatureVerificationError, type Stripe, type StripeSettings, stripeClient, stripeWebhooks } from "./stripe";

export const WEBHOOK_BODY_LIMIT = 256 * 1024;
/** Seconds a signature's timestamp may be old (Stripe's default). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

type Code = Parameters<typeof problemOf>[0];

class BodyTooLarge extends Error {}

/** The body as bytes, or BodyTooLarge as soon as it passes the limit (the rest is not read). */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.removeAllListeners("data");
        request.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/**
 * The invoice's hosted page, for the purchase's mail and row. A purchase is granted without it when
 * Stripe cannot say (it is logged): the credits matter more than the link, and the page lists it.
 */
async function invoiceUrl(settings: StripeSettings | null, invoiceId: string): Promise<string | null> {
  if (!settings) return null;
  try {
    return (await stripeClient(settings).invoices.retrieve(invoiceId)).hosted_invoice_url ?? null;
  } catch (error) {
    log().warn({ event: "stripe.invoice_unread", invoiceId, error: errorMessage(error) }, "invoice not read");
    return null;
  }
}

/** The timestamp (`t=`) the SDK verified: the last `t` entry of the header, as it reads it. */
function signedAt(header: string): number | null {
  let at: number | null = null;
  for (const item of header.split(",")) {
    const [key, value] = item.split("=");
    if (key === "t") at = Number.parseInt(value ?? "", 10);
  }
  return at === null || Number.isNaN(at) ? null : at;
}

/** The parsed body when it has an event's shape (a string `type`, an object `data.object`), else null. */
function eventOf(parsed: unknown): Stripe.Event | null {
  if (!isJsonObject(parsed) || typeof parsed.type !== "string" || !isJsonObject(parsed.data)) return null;
  return isJsonObject(parsed.data.object) ? (parsed as unknown as Stripe.Event) : null;
}

/** The Node entry of POST /stripe/webhook. */
export async function serveStripeWebhook(
  request: IncomingMessage,
  response: ServerResponse,
  database: () => Promise<Database>,
  config: BillingConfig = processBillingConfig(),
): Promise<void> {
  const origin = publicOriginFrom((name) => nodeHeaders(request).get(name) ?? undefined);
  const send = (status: number, body: string, headers: Record<string, string>) => {
    response.writeHead(status, {
      ...headers,
      "Cache-Control": "no-store",
      "Content-Length": String(Buffer.byteLength(body)),
    });
    response.end(body);
  };
  const refuse = (code: Code, detail: string, headers: Record<string, string> = {}) => {
    const problem = problemOf(code, detail, { origin, requestId: crypto.randomUUID() });
    // The connection is closed after a refusal whose body was left unread.
    send(problem.status, JSON.stringify(problem), {
      ...headers,
      "Content-Type": PROBLEM_CONTENT_TYPE,
      "X-Request-Id": problem.requestId,
    });
  };
  if (request.method !== "POST")
    return refuse("method_not_allowed", "Stripe's events are sent with POST.", { Allow: "POST" });
  const secret = config.stripe?.webhookSecret;
  if (!secret) return refuse("not_found", "Card purchases are not configured on this service.");
  let body: Buffer;
  try {
    body = await readBody(request, WEBHOOK_BODY_LIMIT);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      response.setHeader("Connection", "close");
      return refuse("request_too_large", `A Stripe event is at most ${WEBHOOK_BODY_LIMIT / 1024} KiB.`);
    }
    throw error;
  }
  const signature = request.headers["stripe-signature"];
  const header = typeof signature === "string" ? signature : "";
  let parsed: unknown;
  try {
    parsed = stripeWebhooks.constructEvent(body, header, secret, SIGNATURE_TOLERANCE_SECONDS);
    // The SDK only bounds a signature's age: one dated ahead would stay replayable until then. Stripe
    // signs with its own clock, so a timestamp beyond the tolerance in the future is refused too.
    const at = signedAt(header);
    if (at === null || at - Date.now() / 1000 > SIGNATURE_TOLERANCE_SECONDS)
      throw new SignatureVerificationError(header, body.toString("utf8"), {
        message: "Timestamp in the future beyond the tolerance zone",
      });
  } catch (error) {
    // A body the signature verifies but that is not JSON (the SDK parses it after verifying) is
    // refused as such, not as a signature's fault.
    if (error instanceof SyntaxError)
      return refuse("invalid_request", "The body is signed but is not a JSON Stripe event.");
    log().warn(
      { event: "stripe.webhook_refused", reason: errorMessage(error).slice(0, 200) },
      "stripe webhook refused",
    );
    return refuse(
      "invalid_signature",
      "The Stripe-Signature header does not verify this body under the endpoint's secret, or its time is more than five minutes away.",
    );
  }
  // Verified is not well formed: `null`, an array or an event without `data.object` would make the
  // handlers throw (500, retried by Stripe for days). Refused with 400, changing nothing.
  const event = eventOf(parsed);
  if (!event) return refuse("invalid_request", "The body is signed but is not a Stripe event (type, data.object).");
  try {
    const settings = config.stripe;
    const outcome = await actOnEvent(
      await database(),
      event,
      (invoiceId) => invoiceUrl(settings, invoiceId),
      settings ? stripeClient(settings) : null,
    );
    log().info({ event: "stripe.webhook", type: event.type, id: event.id, outcome }, "stripe event");
    send(200, JSON.stringify({ received: true }), { "Content-Type": "application/json" });
  } catch (error) {
    log().error(
      { event: "stripe.webhook_failed", type: event.type, id: event.id, error: errorMessage(error) },
      "stripe event failed",
    );
    refuse("internal_error", "The event was not recorded; Stripe will send it again.");
  }
}
