/**
 * Problems: every answer of /v1 that is not a success is RFC 9457 `application/problem+json`
 * with a stable `code`. The type and the union of codes are the OpenAPI document's own (its
 * `Problem` schema enumerates the codes of server/1-errors/codes.ts), so a code added on the server
 * reaches callers' `switch` statements through `npm run client:generate`, never by hand.
 */
import type { components } from "./openapi.js";

export type Problem = components["schemas"]["Problem"];

/** Every stable error code the API answers with: `"not_found" | "invalid_request" | …`. */
export type ProblemCode = Problem["code"];

/**
 * Whether a value has the shape of a problem body. An answer that did not come from the service
 * (a proxy's HTML page, a HEAD answer without a body) is not one.
 */
export function isProblem(value: unknown): value is Problem {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.code === "string" && typeof candidate.status === "number";
}

/** A call the service refused: its status, and its problem body when it sent one. */
export class ProblemError extends Error {
  override readonly name = "ProblemError";
  readonly status: number;
  /** Undefined when the answer carried no problem body (HEAD, or not from the service). */
  readonly problem: Problem | undefined;
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const problem = isProblem(body) ? body : undefined;
    super(
      problem
        ? `${problem.status} ${problem.code}: ${problem.detail}`
        : `${response.status} ${response.statusText || "error"} (no problem body)`,
    );
    this.status = response.status;
    this.problem = problem;
    this.response = response;
  }

  /** The problem's stable code, to `switch` on; undefined without a problem body. */
  get code(): ProblemCode | undefined {
    return this.problem?.code;
  }
}

/** What every openapi-fetch call resolves to, whatever the operation. */
interface CallResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful call, or a thrown ProblemError: `await api.GET(…).then(orThrow)`.
 * A 304 that reached the caller (an If-None-Match of their own, or the ETag cache turned off) is
 * not a success either: there is no data to return.
 */
export function orThrow<Data>(result: CallResult<Data>): Data {
  if (!result.response.ok) throw new ProblemError(result.response, result.error);
  return result.data as Data;
}
