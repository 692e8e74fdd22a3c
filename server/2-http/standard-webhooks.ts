/**
 * Signing as the Standard Webhooks specification says (standardwebhooks.com), through its
 * reference library: a secret is `whsec_` and base64 of random bytes; each attempt sends
 * `webhook-id` (the message's, the same on every attempt), `webhook-timestamp` (this attempt's,
 * seconds) and `webhook-signature`, `v1,<base64 HMAC-SHA256 of id.timestamp.body>` — one per
 * secret that still signs, space-separated, so a receiver rotating its secret verifies either.
 */
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** 32 random bytes: the specification asks for 24 to 64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

export function signedHeaders(
  messageId: string,
  body: string,
  secrets: readonly string[],
  at: Date,
): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(" "),
  };
}
