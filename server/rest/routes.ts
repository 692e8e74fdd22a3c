/** The /v1 paths the API serves, from the procedures' OpenAPI metadata (for 405 vs 404). */
import { procedureMetas } from "../api/root";

export const API_PREFIX = "/v1";
export const ALLOWED_METHODS = "GET, HEAD";

const pathPatterns: RegExp[] = procedureMetas
  .map((meta) => meta.openapi?.path)
  .filter((path): path is `/${string}` => typeof path === "string")
  .concat(["/openapi.json"])
  .map((path) => new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}/?$`, "i"));

/** Whether a path below /v1 is one the API serves (for some method). */
export function isApiPath(pathBelowPrefix: string): boolean {
  return pathPatterns.some((pattern) => pattern.test(pathBelowPrefix));
}
