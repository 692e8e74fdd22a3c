/**
 * What an answer's headers say about the call: its price, the balance left, the rate limit, the
 * request id. Each header name is checked against the names the OpenAPI document declares on
 * some response, so a header renamed on the server fails the client's build once regenerated.
 */
import type { operations } from "./openapi.js";

/** The named (not index-signature) keys of a type. */
type NamedKeys<T> = keyof {
  [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K];
};
type ResponseOf<Operation> = Operation extends { responses: infer Responses } ? Responses[keyof Responses] : never;
type HeaderNamesOf<Response> = Response extends { headers: infer Headers } ? NamedKeys<Headers> : never;

/** Every response header the document names on some answer of some operation. */
export type DocumentedHeader = HeaderNamesOf<ResponseOf<operations[keyof operations]>>;

const REQUEST_ID = "X-Request-Id" satisfies DocumentedHeader;
const CREDITS_COST = "X-Credits-Cost" satisfies DocumentedHeader;
const CREDITS_REMAINING = "X-Credits-Remaining" satisfies DocumentedHeader;
const RATE_LIMIT_LIMIT = "RateLimit-Limit" satisfies DocumentedHeader;
const RATE_LIMIT_REMAINING = "RateLimit-Remaining" satisfies DocumentedHeader;
const RATE_LIMIT_RESET = "RateLimit-Reset" satisfies DocumentedHeader;
const RETRY_AFTER = "Retry-After" satisfies DocumentedHeader;
const ETAG = "ETag" satisfies DocumentedHeader;

export interface RateLimitState {
  /** Requests the organization may make per window. */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface CallHeaders {
  /** Identifies the call in the service's logs and ledger; quote it when reporting a problem. */
  requestId: string | undefined;
  /** Credits this call cost (0 for a free operation, a 304 or a failure); undefined when not sent. */
  creditsCost: number | undefined;
  /** The organization's balance after this call; sent on successful calls. */
  creditsRemaining: number | undefined;
  /** The organization's rate limit as it stands after this call; sent on authenticated answers. */
  rateLimit: RateLimitState | undefined;
  /** Seconds to wait before retrying (429, 503). */
  retryAfterSeconds: number | undefined;
  /** The reading's validator; weak (W/"…") on a compressed answer. */
  etag: string | undefined;
}

const numberIn = (headers: Headers, name: string): number | undefined => {
  const value = headers.get(name);
  if (value === null || value.trim() === "") return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
};

/** The call's price, balance, rate limit and request id, read from its response's headers. */
export function callHeaders(response: Response): CallHeaders {
  const { headers } = response;
  const limit = numberIn(headers, RATE_LIMIT_LIMIT);
  const remaining = numberIn(headers, RATE_LIMIT_REMAINING);
  const resetSeconds = numberIn(headers, RATE_LIMIT_RESET);
  return {
    requestId: headers.get(REQUEST_ID) ?? undefined,
    creditsCost: numberIn(headers, CREDITS_COST),
    creditsRemaining: numberIn(headers, CREDITS_REMAINING),
    rateLimit:
      limit === undefined || remaining === undefined || resetSeconds === undefined
        ? undefined
        : { limit, remaining, resetSeconds },
    retryAfterSeconds: numberIn(headers, RETRY_AFTER),
    etag: headers.get(ETAG) ?? undefined,
  };
}
