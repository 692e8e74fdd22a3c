/**
 * The typed client of the Market Positioning Service API (/v1). Every path, parameter and payload
 * comes from the types generated from the OpenAPI document (./openapi.ts); this file only wires
 * openapi-fetch to a token and the ETag cache.
 */
import createFetchClient, { type Client } from "openapi-fetch";
import { type EtagCache, type EtagCacheOptions, etagCache } from "./etags.js";
import type { paths } from "./openapi.js";

export type { CallHeaders, DocumentedHeader, RateLimitState } from "./call-headers.js";
export { callHeaders } from "./call-headers.js";
export type { EtagCache, EtagCacheOptions } from "./etags.js";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRIES, etagCache, isNotModified } from "./etags.js";
export type { components, operations, paths } from "./openapi.js";
export type { Problem, ProblemCode } from "./problems.js";
export { isProblem, orThrow, ProblemError } from "./problems.js";

export interface ClientOptions {
  /** The API's root, as the document's `servers` names it: `https://api.example.com/v1`. */
  baseUrl: string;
  /** An API token (`mps_…`), sent as `Authorization: Bearer <token>`. */
  token: string;
  /** A fetch of your own (tests, proxies, retries); defaults to the global one. */
  fetch?: (request: Request) => Promise<Response>;
  /** Options of the ETag cache, or false to send no If-None-Match of ours. */
  etagCache?: EtagCacheOptions | false;
}

export type MarketPositioningClient = Client<paths> & {
  /** The ETag cache in use, undefined when turned off. */
  readonly etags: EtagCache | undefined;
};

/**
 * An openapi-fetch client of the API: `GET` and `HEAD` typed by path, parameters and answers,
 * authenticated with the token, reusing ETags.
 */
export function createClient(options: ClientOptions): MarketPositioningClient {
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.token}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const etags = options.etagCache === false ? undefined : etagCache(options.etagCache);
  if (etags) client.use(etags);
  return Object.assign(client, { etags });
}
