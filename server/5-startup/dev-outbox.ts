/**
 * Whether the dev outbox may be on, decided once at start from the operator's environment.
 *
 * Without SMTP_URL, sign-in links go only to /dev/outbox (never to the log), which lists every user's link:
 * whoever opens it can sign in as anyone. So:
 * - with SMTP_URL, the outbox is off;
 * - in production without SMTP_URL, the server refuses to start unless the operator opts in with
 *   DEV_OUTBOX=1;
 * - elsewhere (development, the quick start `npm ci && npm start` with no variables) it is on
 *   unless DEV_OUTBOX=0;
 * - DEV_OUTBOX is 1, 0 or unset: any other value refuses to start;
 * - whenever it is on, the server says so loudly in the log.
 * Production is NODE_ENV=production in the environment the operator starts the server with (read
 * before the server defaults it, as `next start` does, to production), or an https APP_URL.
 * The outbox, when on, is served to loopback clients only (server/2-http/peer.ts).
 */

export interface OutboxDecision {
  outbox: boolean;
  /** Logged at start when the outbox is on. */
  warning?: string;
  /** Why the server must not start. */
  refusal?: string;
}

/** Production, as the operator declared it: NODE_ENV=production, or a public https origin. */
export function isProduction(env: NodeJS.ProcessEnv): boolean {
  return env.NODE_ENV === "production" || (env.APP_URL ?? "").toLowerCase().startsWith("https:");
}

const WARNING = [
  "WARNING: the dev outbox is ON. No SMTP_URL is set, so every sign-in link is kept in the database",
  "and listed at /dev/outbox: whoever reads it can sign in as anyone. The page answers loopback",
  "clients (this machine, no proxy) only. Set SMTP_URL to send sign-in mail, or DEV_OUTBOX=0.",
];

export function decideOutbox(env: NodeJS.ProcessEnv): OutboxDecision {
  const setting = env.DEV_OUTBOX ?? "";
  if (setting !== "" && setting !== "0" && setting !== "1")
    return { outbox: false, refusal: `DEV_OUTBOX must be 1 (dev outbox on) or 0 (off), not "${setting}".` };
  if (env.SMTP_URL) return { outbox: false };
  if (setting === "1") return { outbox: true, warning: WARNING.join("\n") };
  if (isProduction(env))
    return {
      outbox: false,
      refusal: [
        `No SMTP_URL in production (${env.NODE_ENV === "production" ? "NODE_ENV=production" : `APP_URL=${env.APP_URL}`}):`,
        "sign-in links would have no way to reach people but the dev outbox.",
        "Set SMTP_URL (smtp://user:pass@host:587) to send sign-in mail, or DEV_OUTBOX=1 to accept the",
        "dev outbox (sign-in links at /dev/outbox, for loopback clients only) knowingly.",
      ].join("\n"),
    };
  if (setting === "0") return { outbox: false };
  return { outbox: true, warning: WARNING.join("\n") };
}

/** The decision for this process, or exit 1 with the reason when the server must not start. */
export function outboxOrExit(env: NodeJS.ProcessEnv = process.env): OutboxDecision {
  const decision = decideOutbox(env);
  if (decision.refusal) {
    console.error(`[start] not starting. ${decision.refusal}`);
    process.exit(1);
  }
  return decision;
}
