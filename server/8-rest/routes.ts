/** The /v1 paths the API serves, from the procedures' OpenAPI metadata (for 405 vs 404). */
import type { Operation } from "../1-domain/operations";
import { procedureMetas } from "../7-routers/root";

export const API_PREFIX = "/v1";
export const ALLOWED_METHODS = "GET, HEAD";

const pattern = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}/?$`, "i");

/** Each operation's path, as a pattern, with the operation. */
const operationPatterns: { pattern: RegExp; operation: Operation }[] = procedureMetas.flatMap((meta) =>
  meta.openapi?.path && meta.operation ? [{ pattern: pattern(meta.openapi.path), operation: meta.operation }] : [],
);

const pathPatterns: RegExp[] = procedureMetas
  .map((meta) => meta.openapi?.path)
  .filter((path): path is `/${string}` => typeof path === "string")
  .concat(["/openapi.json"])
  .map(pattern);

/** Whether a path below /v1 is one the API serves (for some method). */
export function isApiPath(pathBelowPrefix: string): boolean {
  return pathPatterns.some((pattern) => pattern.test(pathBelowPrefix));
}

/** The operation a path below /v1 names, whatever the method; undefined if none. */
export function operationAtPath(pathBelowPrefix: string): Operation | undefined {
  return operationPatterns.find(({ pattern }) => pattern.test(pathBelowPrefix))?.operation;
}

/** The name of the operation a path below /v1 names (for logs and metrics); undefined if none. */
export const operationOfPath = (pathBelowPrefix: string): string | undefined => operationAtPath(pathBelowPrefix)?.name;
