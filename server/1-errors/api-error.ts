import { TRPCError } from "@trpc/server";
import { ERROR_CODES, type ErrorCode } from "./codes";

/** tRPC's code for each HTTP status we answer, so tRPC's own HTTP adapters send the right status. */
const TRPC_CODE_BY_STATUS: Record<number, TRPCError["code"]> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  402: "PAYMENT_REQUIRED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  408: "TIMEOUT",
  // Without it a conflict (the last owner leaving) reached the dashboard as a 500.
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  429: "TOO_MANY_REQUESTS",
  500: "INTERNAL_SERVER_ERROR",
  501: "NOT_IMPLEMENTED",
  503: "SERVICE_UNAVAILABLE",
};

/**
 * Where a caller finds what it lacked: an operation by its ledger name ("geographies.list") and
 * what it gives ("lists the valid countries"). REST names it by its path, MCP by its tool
 * (server/7-procedures/see-also.ts), so an agent is never sent to a surface it does not have.
 */
export interface SeeAlso {
  operation: string;
  says: string;
}

export interface ProblemIssue {
  path: string;
  message: string;
}

/**
 * An error the API answers deliberately, with a stable code. Anything else that is thrown is an
 * internal_error, and its message never reaches the client.
 */
export class ApiError extends TRPCError {
  constructor(
    readonly problemCode: ErrorCode,
    readonly detail: string,
    readonly extra: {
      issues?: ProblemIssue[];
      headers?: Record<string, string>;
      /** Extension members of the problem body, e.g. cost and balance. */
      members?: Record<string, unknown>;
      /** The operation that answers what the caller lacked, named by each surface its own way. */
      see?: SeeAlso;
    } = {},
  ) {
    super({ code: TRPC_CODE_BY_STATUS[ERROR_CODES[problemCode].status] ?? "INTERNAL_SERVER_ERROR", message: detail });
    this.name = "ApiError";
  }
}

/** The realm of every Bearer challenge we send (RFC 6750 §3). */
export const BEARER_REALM = "market-positioning";

export const notFound = (detail: string, see?: SeeAlso) => new ApiError("not_found", detail, see ? { see } : {});

/** The caller's role lacks `permission` (server/1-domain/roles.ts). */
export const forbidden = (detail: string, permission: string) =>
  new ApiError("forbidden", detail, { members: { permission } });

/** The change contradicts the organization's state (its last owner, a member invited again). */
export const conflict = (detail: string) => new ApiError("conflict", detail);

export const quotaExceeded = (detail: string) => new ApiError("quota_exceeded", detail);

export const invalidRequest = (detail: string, issues: ProblemIssue[], see?: SeeAlso) =>
  new ApiError("invalid_request", detail, { issues, ...(see ? { see } : {}) });

export const bearerChallenge = (params: Record<string, string>) =>
  `Bearer ${Object.entries({ realm: BEARER_REALM, ...params })
    .map(([name, value]) => `${name}="${value.replace(/["\\]/g, "")}"`)
    .join(", ")}`;

export const unauthorized = (detail: string) =>
  new ApiError("unauthorized", detail, {
    headers: { "WWW-Authenticate": bearerChallenge({ error: "invalid_token", error_description: detail }) },
  });

export const insufficientScope = (scope: string) =>
  new ApiError("insufficient_scope", `This operation needs a token with the scope ${scope}.`, {
    headers: { "WWW-Authenticate": bearerChallenge({ error: "insufficient_scope", scope }) },
    members: { scope },
  });

export const organizationRequired = (createUrl: string) =>
  new ApiError(
    "organization_required",
    `You do not belong to an organization yet. Create one at ${createUrl}, then call again with the same credentials.`,
    { members: { createOrganizationUrl: createUrl } },
  );

/**
 * `whereToGetCredits`: one sentence saying where more credits come from (server/4-billing/config.ts);
 * `creditsUrl`: the dashboard's Credits page, where they are bought and automatic top-up is set.
 */
export const insufficientCredits = (cost: number, balance: number, whereToGetCredits: string, creditsUrl: string) =>
  new ApiError(
    "insufficient_credits",
    `This call costs ${cost} credits and the organization's balance is ${balance}. Nothing was debited. ${whereToGetCredits}`,
    { members: { cost, balance, creditsUrl } },
  );

export const rateLimited = (retryAfterSeconds: number, headers: Record<string, string>) =>
  new ApiError(
    "rate_limited",
    `The organization's rate limit is used up for this window; retry in ${retryAfterSeconds} s.`,
    { headers },
  );

/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 5;

/** The database (or another dependency) cannot serve the call now; nothing was charged. */
export const serviceUnavailable = () =>
  new ApiError("unavailable", "The database is unreachable; retry shortly.", {
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
  });

/** Every worker thread is busy and the pool's queue is full: refused at once, nothing charged. */
export const workersBusy = () =>
  new ApiError(
    "unavailable",
    "Every worker that computes readings of large markets is busy; nothing was debited. Retry shortly.",
    { headers: { "Retry-After": "2" } },
  );

/** Stripe refused or did not answer a request of ours: nothing was bought or charged. */
export const paymentProviderFailed = (what: string) =>
  new ApiError("unavailable", `Stripe did not ${what}; nothing was charged. Try again in a minute.`, {
    headers: { "Retry-After": "60" },
  });

/** The call could not finish within its deadline; nothing was charged. */
export const deadlineExceeded = (deadlineMs: number) =>
  new ApiError(
    "unavailable",
    `The call could not finish within its deadline of ${deadlineMs} ms (the organization's account may be held by another transaction); nothing was debited. Retry shortly.`,
    { headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } },
  );

/** The organization's bulkhead on this instance is full: its own calls fill it. */
export const tooManyConcurrent = (maxInFlight: number, maxQueued: number) =>
  new ApiError(
    "too_many_concurrent",
    `The organization already has ${maxInFlight} metered calls in progress and ${maxQueued} waiting on this instance; retry in 1 s or send fewer at once. Nothing was debited.`,
    { headers: { "Retry-After": "1" } },
  );

/** No download place is free on this instance: the organization's own downloads, or everyone's, fill them. */
export const tooManyDownloads = (whose: "organization" | "instance", limit: number) =>
  new ApiError(
    "too_many_concurrent",
    whose === "organization"
      ? `The organization already has ${limit} release downloads in progress on this instance; retry once one has finished. Nothing was debited.`
      : `${limit} release downloads are in progress on this instance, as many as it sends at once; retry shortly. Nothing was debited.`,
    { headers: { "Retry-After": whose === "organization" ? "5" : "2" } },
  );

/** A download's file could not be made ready within its deadline (it is still being built: retry). */
export const downloadNotReady = (deadlineMs: number) =>
  new ApiError(
    "unavailable",
    `The release's files could not be made ready within ${deadlineMs} ms; they are still being built. Nothing was debited. Retry shortly.`,
    { headers: { "Retry-After": String(RETRY_AFTER_SECONDS * 5) } },
  );
