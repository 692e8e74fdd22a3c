import type { Database } from "../../db/client";
import type { Authenticate, Caller } from "../auth/caller";

/** What a procedure tells the HTTP edge besides its data. */
export interface ResponseHints {
  /** Headers of a successful answer (ETag, caching, credits). */
  headers: Record<string, string>;
  /** Headers of any answer, failures included (rate limits). */
  commonHeaders: Record<string, string>;
  /** The client's cached copy (If-None-Match) is current: answer 304 with no body. */
  notModified: boolean;
}

export interface ApiContext {
  db: Database;
  requestId: string;
  /** Request headers: Authorization, If-None-Match. */
  headers: Headers;
  /** The public origin, for links in error details. */
  origin: string;
  response: ResponseHints;
  /** How this surface proves who calls; run by apiProcedure. */
  authenticate: Authenticate;
  /** Set by apiProcedure once authenticated. */
  caller: Caller | null;
  /** The country readings use when the caller names none: the organization's home country. */
  defaultCountry: string;
}

export function createApiContext(options: {
  db: Database;
  headers: Headers;
  requestId: string;
  origin: string;
  authenticate: Authenticate;
}): ApiContext {
  return {
    ...options,
    response: { headers: {}, commonHeaders: {}, notModified: false },
    caller: null,
    defaultCountry: "",
  };
}
