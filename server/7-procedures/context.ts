import type { Database } from "../../db/client";
import type { DeprecationNotice } from "../1-domain/deprecations";
import type { Download } from "../1-domain/download";
import { serviceUnavailable } from "../1-errors/api-error";
import type { RateLimitDecision } from "../3-limits/rate-limiter";
import { requestLimits } from "../3-limits/request-limits";
import { errorMessage, log } from "../3-observability/logger";
import type { JobSender } from "../3-queue/queue";
import type { Authenticate, Caller, HeaderReader } from "../6-auth/caller";

/**
 * What a call tells its surface besides its data, as typed facts: each surface says them in its
 * own protocol (REST as headers, MCP in the result's _meta, logs and metrics as fields).
 */
export interface CallFacts {
  /** The operation called (its name in server/1-domain/operations.ts), once the procedure runs. */
  operation?: string;
  /** The organization the call acts for and bills, once the caller is known. */
  organizationId?: string;
  /** The reading's strong ETag. */
  etag?: string;
  /** How long a client may keep the answer: seconds, or 0 to revalidate every time. */
  maxAgeSeconds?: number;
  /** The client's cached copy (If-None-Match) is current: answer 304 with no body. */
  notModified: boolean;
  /** A metered call that succeeded: what it cost (0 for a 304) and the balance after it. */
  credits?: { cost: number; balance: number };
  /** The organization's rate-limit decision, reported on every answer, failures included. */
  rateLimit?: RateLimitDecision;
  /** What the call touches that is being retired (server/1-domain/deprecations.ts). */
  deprecation?: DeprecationNotice;
  /** The file the call answers instead of JSON (a release export), written by the REST edge as it streams. */
  download?: Download;
  /** The answer never changes (a pinned release's file): `Cache-Control: immutable`. */
  immutable?: boolean;
  /**
   * A later deadline the call was given as it ran (epoch ms): a download, whose file may take
   * longer to make ready than a reading takes to compute. The debit honours it.
   */
  extendedDeadline?: number;
}

export interface ApiContext {
  db: Database;
  requestId: string;
  /** Request headers: Authorization, If-None-Match. */
  headers: HeaderReader;
  /** The public origin, for links in error details. */
  origin: string;
  facts: CallFacts;
  /** How this surface proves who calls; run by apiProcedure. */
  authenticate: Authenticate;
  /** Set by apiProcedure once authenticated, or by a surface that authenticated the caller first. */
  caller: Caller | null;
  /** The country readings use when the caller names none: the organization's home country. */
  defaultCountry: string;
  /** When (epoch ms) the call must have finished; past it, it answers 503 and is not charged. */
  deadline: number;
  /**
   * The call reads what an earlier call of the same organization paid for (the pages of a reading
   * behind its link, server/8-mcp/reading-resources.ts): it costs no credits.
   */
  prepaid: boolean;
  /** What a dashboard mutation's `audit.prepare` answered, before its transaction (server/7-procedures/trpc.ts). */
  prepared?: unknown;
  /** Where a procedure queues background work (the dashboard's webhook resends); absent: it cannot. */
  queue?: JobSender;
  /**
   * The surface sends a download's file (REST): only then is a file made ready and a download
   * place taken. Other surfaces get the file's name and type alone.
   */
  sendsFiles?: boolean;
}

export function createApiContext(options: {
  db: Database;
  headers: HeaderReader;
  requestId: string;
  origin: string;
  authenticate: Authenticate;
  /** The caller when the surface has authenticated it already (the MCP edge): no await for it. */
  caller?: Caller;
  /** Defaults to now + REQUEST_DEADLINE_MS. */
  deadline?: number;
  prepaid?: boolean;
  queue?: JobSender;
  sendsFiles?: boolean;
}): ApiContext {
  // Written out, not spread: one shape for every call's context (tRPC copies it as the call goes).
  return {
    db: options.db,
    requestId: options.requestId,
    headers: options.headers,
    origin: options.origin,
    facts: { notModified: false },
    authenticate: options.authenticate,
    caller: options.caller ?? null,
    defaultCountry: "",
    deadline: options.deadline ?? Date.now() + requestLimits().deadlineMs,
    prepaid: options.prepaid ?? false,
    queue: options.queue,
    sendsFiles: options.sendsFiles,
  };
}

/**
 * The database a request runs on, or ApiError `unavailable` (503, Retry-After) when it cannot be
 * reached: every surface opens its database through here.
 */
export async function reachDatabase(database: () => Promise<Database>, requestId: string): Promise<Database> {
  try {
    return await database();
  } catch (error) {
    log().error({ requestId, error: errorMessage(error) }, "database unavailable");
    throw serviceUnavailable();
  }
}
