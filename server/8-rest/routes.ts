/**
 * What /v1's paths are, asked before a call is dispatched (405 vs 404, the early 401, the door's
 * bulkhead) and after it (the log's operation): one table, the dispatcher's (./dispatch.ts).
 */
import type { Operation } from "../1-domain/operations";
import { findRestRoute } from "./dispatch";

export const API_PREFIX = "/v1";
export const ALLOWED_METHODS = "GET, HEAD";

/** The OpenAPI document's path below /v1: served, but by no procedure (./openapi.ts). */
const OPENAPI_DOCUMENT = /^\/openapi\.json\/?$/i;

/** Whether a path below /v1 is one the API serves (for some method). */
export const isApiPath = (pathBelowPrefix: string): boolean =>
  OPENAPI_DOCUMENT.test(pathBelowPrefix) || findRestRoute(pathBelowPrefix) !== undefined;

/** The operation a path below /v1 names, whatever the method; undefined if none. */
export const operationAtPath = (pathBelowPrefix: string): Operation | undefined =>
  findRestRoute(pathBelowPrefix)?.route.operation;

/** The name of the operation a path below /v1 names (for logs and metrics); undefined if none. */
export const operationOfPath = (pathBelowPrefix: string): string | undefined => operationAtPath(pathBelowPrefix)?.name;
