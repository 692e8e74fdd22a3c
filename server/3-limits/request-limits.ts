/**
 * The bounds every request runs within, so that one organization's trouble is nobody else's
 * (docs/operations.md "Deadlines and bulkheads"). Read from the environment once per process.
 */
export interface RequestLimits {
  /** A call that cannot finish within this many ms answers 503 `unavailable` and is not charged. */
  deadlineMs: number;
  /** Longest wait for the organization's row when debiting (PostgreSQL lock_timeout), capped by the deadline. */
  debitLockTimeoutMs: number;
  /** statement_timeout of the app's PostgreSQL connections: no statement a request runs outlives it. */
  statementTimeoutMs: number;
  /** Metered calls of one organization running at once on one instance. */
  orgMaxInFlight: number;
  /** Further calls of one organization that may wait for a place (holding no database connection). */
  orgMaxQueued: number;
  /**
   * Longest hold of a call refused at the door because its organization's bulkhead is full: it is
   * answered after a random wait between half this and this, so a flood's retries spread out
   * instead of arriving as one block the event loop must refuse at once. 0: answered at once.
   */
  refusalHoldMs: number;
  /** Release exports (a table or the archive) of one organization streaming at once on one instance. */
  exportMaxPerOrganization: number;
  /** Release exports streaming at once on one instance, every organization together. */
  exportMaxTotal: number;
  /** How long a download may take to be ready (its file built, once per release) before it answers 503. */
  exportDeadlineMs: number;
  /** A download whose client takes nothing for this long is cut off, and its slot freed. */
  exportStallMs: number;
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min)
    throw new Error(`${name} must be a whole number ≥ ${min}, not "${raw}"`);
  return value;
}

export function requestLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): RequestLimits {
  return {
    deadlineMs: whole(env, "REQUEST_DEADLINE_MS", 5000, 100),
    debitLockTimeoutMs: whole(env, "DEBIT_LOCK_TIMEOUT_MS", 2000, 10),
    statementTimeoutMs: whole(env, "STATEMENT_TIMEOUT_MS", 5000, 100),
    orgMaxInFlight: whole(env, "ORG_MAX_IN_FLIGHT", 8),
    orgMaxQueued: whole(env, "ORG_MAX_QUEUED", 16, 0),
    refusalHoldMs: whole(env, "ORG_REFUSAL_HOLD_MS", 1000, 0),
    exportMaxPerOrganization: whole(env, "EXPORT_MAX_PER_ORG", 2),
    exportMaxTotal: whole(env, "EXPORT_MAX_TOTAL", 4),
    exportDeadlineMs: whole(env, "EXPORT_DEADLINE_MS", 60_000, 1000),
    exportStallMs: whole(env, "EXPORT_STALL_MS", 30_000, 100),
  };
}

const state = globalThis as typeof globalThis & { __mpsRequestLimits?: RequestLimits };

/** This process's limits (on globalThis: Next may load this module in several bundles). */
export function requestLimits(): RequestLimits {
  state.__mpsRequestLimits ??= requestLimitsFromEnv();
  return state.__mpsRequestLimits;
}
