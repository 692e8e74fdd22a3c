/**
 * Webhook deliveries (docs/webhooks.md): one job per message owed, on the queue. A job claims its
 * message (so no two attempts overlap, whichever instance runs them), signs the body with every
 * secret that still signs, POSTs it under the outbound rules (no private address, a timeout, a
 * bounded read) and records the attempt. A 2xx delivers it; anything else is retried by the
 * queue with exponential backoff until WEBHOOK_RETRY_LIMIT retries are spent. An endpoint whose
 * every attempt has failed for WEBHOOK_DISABLE_AFTER_HOURS and at least
 * WEBHOOK_DISABLE_AFTER_FAILURES times in a row is disabled, and its organization's owners are
 * e-mailed.
 */
import type { Database } from "../../db/client";
import { WEBHOOK_JOB } from "../1-domain/webhook-events";
import { signedHeaders } from "../2-http/standard-webhooks";
import { unseal } from "../3-keys/sealed";
import { errorMessage, log } from "../3-observability/logger";
import { OutboundRefused, postOutbound } from "../3-outbound/guard";
import {
  claimMessage,
  disableFailingEndpoint,
  giveUpMessage,
  recordAttempt,
  unsentMessages,
} from "../4-webhooks/webhook-endpoints";
import type { JobContext, JobDefinition } from "./job";
import { queueMails } from "./mail-queue";

export { WEBHOOK_JOB };

/** Messages never attempted this long after they were written have lost their job. */
export const LOST_MESSAGE_SECONDS = 300;

function positive(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  { integer = true, zero = false } = {},
): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  const ok = Number.isFinite(value) && (zero ? value >= 0 : value > 0) && (!integer || Number.isInteger(value));
  if (!ok) throw new Error(`${name} must be a ${integer ? "whole " : ""}number ${zero ? "≥ 0" : "> 0"}, not "${raw}"`);
  return value;
}

export interface WebhookSettings {
  retryLimit: number;
  retryDelaySeconds: number;
  timeoutMs: number;
  disableAfterFailures: number;
  disableAfterHours: number;
  allowPrivate: boolean;
}

/** The operator's settings (README, Configuration), read when the jobs start. */
export const webhookSettings = (env: NodeJS.ProcessEnv = process.env): WebhookSettings => ({
  retryLimit: positive(env, "WEBHOOK_RETRY_LIMIT", 10),
  retryDelaySeconds: positive(env, "WEBHOOK_RETRY_DELAY_SECONDS", 60),
  timeoutMs: positive(env, "WEBHOOK_TIMEOUT_MS", 10_000),
  disableAfterFailures: positive(env, "WEBHOOK_DISABLE_AFTER_FAILURES", 20),
  disableAfterHours: positive(env, "WEBHOOK_DISABLE_AFTER_HOURS", 72, { integer: false, zero: true }),
  // Decided at start (scripts/serve.ts): refused in production.
  allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_HOSTS === "1",
});

/** What is read of a receiver's answer, for the delivery log. */
const EXCERPT_BYTES = 1024;

const USER_AGENT = "MarketPositioning-Webhooks/1 (+https://www.standardwebhooks.com)";

export type DeliveryOutcome = "delivered" | "failed" | "gave up" | "skipped";

/**
 * A connection's failure in words for the endpoint's owner: its kind (refused, reset, TLS…) and
 * never the address it was dialled at (the system's messages name it: "connect ECONNREFUSED …").
 */
function connectionFailure(failure: unknown): string {
  const code = (failure as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === "string" && /^[A-Z0-9_]+$/.test(code)) return `the connection failed (${code})`;
  return errorMessage(failure).replace(
    /\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?|\[?[0-9a-f]*:[0-9a-f:.]+\]?(?::\d+)?/gi,
    "…",
  );
}

/** One attempt at one message; throws when the queue should retry it. */
export async function deliverMessage(
  db: Database,
  messageId: string,
  trigger: "queue" | "resend",
  settings: WebhookSettings,
  context: JobContext,
): Promise<DeliveryOutcome> {
  const claimed = await claimMessage(db, messageId);
  if (!claimed) return "skipped"; // delivered or given up already, or another attempt holds it
  const { message, endpoint } = claimed;
  // A disabled endpoint gets what its owners ask for (a test, a resend), not the events meanwhile.
  if (endpoint.disabledAt && trigger === "queue" && message.eventType !== "webhook.test") {
    await giveUpMessage(db, message.id);
    return "gave up";
  }
  const now = new Date();
  const secrets = [
    unseal(endpoint.secret),
    ...(endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now
      ? [unseal(endpoint.previousSecret)]
      : []),
  ];
  const started = performance.now();
  let status: number | null = null;
  let excerpt: string | null = null;
  let error: string | null = null;
  try {
    const answer = await postOutbound(
      endpoint.url,
      message.body,
      {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        ...signedHeaders(message.id, message.body, secrets, now),
      },
      { allowPrivate: settings.allowPrivate, timeoutMs: settings.timeoutMs, maxResponseBytes: EXCERPT_BYTES },
    );
    status = answer.status;
    excerpt = answer.excerpt;
    if (status < 200 || status >= 300) error = `HTTP ${status}`;
  } catch (failure) {
    error = failure instanceof OutboundRefused ? failure.message : `could not be sent: ${connectionFailure(failure)}`;
  }
  const delivered = error === null;
  // A resend is one attempt; the queue's own attempts stop when its retries are spent.
  const lastTry = trigger === "resend" || message.attempts > settings.retryLimit;
  const outcome = delivered ? "delivered" : lastTry ? "gave up" : "failed";
  const state = await recordAttempt(
    db,
    {
      messageId: message.id,
      status,
      error,
      durationMs: performance.now() - started,
      responseExcerpt: excerpt,
      trigger,
    },
    outcome,
  );
  if (!delivered) {
    log().warn(
      { messageId: message.id, endpointId: endpoint.id, attempt: message.attempts, error },
      "webhook: delivery failed",
    );
    const failingFor = state.failingSince ? (Date.now() - state.failingSince.getTime()) / 3_600_000 : 0;
    if (state.consecutiveFailures >= settings.disableAfterFailures && failingFor >= settings.disableAfterHours) {
      const mails = await disableFailingEndpoint(db, endpoint.id, error ?? "failed");
      log().warn(
        { endpointId: endpoint.id, consecutiveFailures: state.consecutiveFailures },
        "webhook: endpoint disabled after sustained failure",
      );
      await queueMails(context, mails);
    }
    if (outcome === "failed") throw new Error(`webhook ${message.id}: ${error}; it will be retried`);
  }
  return outcome;
}

/** Queues one delivery job per message (the queue keeps one per message at a time). */
export async function queueWebhooks(
  context: JobContext,
  messageIds: readonly string[],
  trigger: "queue" | "resend" = "queue",
): Promise<void> {
  for (const messageId of messageIds)
    await context.send(WEBHOOK_JOB, { messageId, trigger }, { singletonKey: `webhook:${messageId}` });
}

/** Messages whose job was lost (a crash between writing them and queuing it), queued again. */
export const lostMessages = (db: Database, olderThanSeconds = LOST_MESSAGE_SECONDS) =>
  unsentMessages(db, olderThanSeconds);

export function webhookJob(env: NodeJS.ProcessEnv = process.env): JobDefinition {
  const settings = webhookSettings(env);
  return {
    name: WEBHOOK_JOB,
    queue: {
      policy: "short",
      retryLimit: settings.retryLimit,
      retryDelay: settings.retryDelaySeconds,
      retryBackoff: true,
    },
    run: (db: Database, data: unknown, context: JobContext) => {
      const { messageId, trigger } = data as { messageId: string; trigger?: "queue" | "resend" };
      return deliverMessage(db, messageId, trigger ?? "queue", settings, context);
    },
  };
}
