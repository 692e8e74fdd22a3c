/**
 * Whether the database answers now, asked at most once a second per process and never for longer
 * than a second: the HTTP server asks it before rendering a dashboard page, so that a page which
 * cannot be rendered answers a readable 503 at once instead of an error half-way through a stream.
 * A page that fails anyway (the database went away after the probe) while a database fault was
 * seen lately is answered 503 too, with Next's error page as its body.
 */
import { sql } from "drizzle-orm";
import { noteDatabaseFault } from "../../db/faults";
import { RETRY_AFTER_SECONDS } from "../1-errors/api-error";
import { escapeHtml } from "../2-http/html";
import { getDatabase } from "../5-database/app-database";

const PROBE_TIMEOUT_MS = 1000;
const PROBE_EVERY_MS = 1000;

const state = globalThis as typeof globalThis & {
  __mpsHealth?: { checkedAt: number; healthy: Promise<boolean> };
};

export { recentDatabaseFault } from "../../db/faults";

async function probe(): Promise<boolean> {
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), PROBE_TIMEOUT_MS).unref());
  const answer = (async () => {
    const { db } = await getDatabase();
    await db.execute(sql`select 1`);
    return true;
  })().catch(() => false);
  return Promise.race([answer, timeout]);
}

export function databaseHealthy(now = Date.now()): Promise<boolean> {
  const last = state.__mpsHealth;
  if (last && now - last.checkedAt < PROBE_EVERY_MS) return last.healthy;
  const healthy = probe().then((ok) => {
    if (!ok) noteDatabaseFault();
    return ok;
  });
  state.__mpsHealth = { checkedAt: now, healthy };
  return healthy;
}

/** The page a browser gets while the database is away: status 503, Retry-After, words. */
export function unavailablePage(): { status: 503; headers: Record<string, string>; body: string } {
  const text = "The service cannot reach its database just now. Nothing was changed and no credits were used.";
  return {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": String(RETRY_AFTER_SECONDS),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Temporarily unavailable — Market Positioning</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1b1f24}</style></head><body><h1>Temporarily unavailable</h1><p>${escapeHtml(text)}</p><p>Try again in a few seconds.</p></body></html>`,
  };
}
