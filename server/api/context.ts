import type { Database } from "../../db/client";

/** What a procedure tells the HTTP edge besides its data. */
export interface ResponseHints {
  headers: Record<string, string>;
  /** The client's cached copy (If-None-Match) is current: answer 304 with no body. */
  notModified: boolean;
}

export interface ApiContext {
  db: Database;
  requestId: string;
  /** Request headers: Authorization, If-None-Match. */
  headers: Headers;
  response: ResponseHints;
  /** The country readings use when the caller names none (the organization's home country). */
  defaultCountry: string;
}

/** Until organizations exist, readings without `country` use DEFAULT_COUNTRY (documented fallback). */
export const FALLBACK_COUNTRY = (process.env.DEFAULT_COUNTRY || "DE").toUpperCase();

export function createApiContext(db: Database, headers: Headers, requestId: string): ApiContext {
  return { db, requestId, headers, response: { headers: {}, notModified: false }, defaultCountry: FALLBACK_COUNTRY };
}
