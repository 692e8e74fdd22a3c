/**
 * When this process last met a database fault: a pooled connection lost (killed, the server
 * restarted) or a request failing for it. The HTTP server reads it to answer a page that failed
 * meanwhile as 503 rather than 500 (server/5-http-server/health.ts). On globalThis: every bundle of
 * the process shares it.
 */
const state = globalThis as typeof globalThis & { __mpsDatabaseFaultAt?: number };

/** How long a fault colours the answers to pages. */
const FAULT_MEMORY_MS = 5000;

export function noteDatabaseFault(now = Date.now()): void {
  state.__mpsDatabaseFaultAt = now;
}

export function recentDatabaseFault(now = Date.now()): boolean {
  return now - (state.__mpsDatabaseFaultAt ?? Number.NEGATIVE_INFINITY) < FAULT_MEMORY_MS;
}
