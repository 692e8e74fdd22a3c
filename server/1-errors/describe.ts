/**
 * What any failure means to a caller, whatever surface carries it: an ApiError keeps its code and
 * extras; a validation failure lists its issues; a lost database connection is `unavailable`
 * (with Retry-After); anything else is `internal_error`, whose message never reaches the client.
 */
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { ApiError, type ProblemIssue, type SeeAlso, serviceUnavailable } from "./api-error";
import type { ErrorCode } from "./codes";

/** The problem a failed call answers with. */
export interface ErrorDescription {
  code: ErrorCode;
  detail: string;
  issues?: ProblemIssue[];
  members?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Where to find what the caller lacked; each surface adds it to `detail` in its own terms. */
  see?: SeeAlso;
}

/**
 * Error codes of postgres.js, Node and PostgreSQL that mean "the database cannot serve this call
 * now": unreachable, shutting down, or a lock or statement timeout (a deadline ran out).
 */
const CONNECTION_FAILURES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "08000", // connection_exception
  "08003", // connection_does_not_exist
  "08006", // connection_failure
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "55P03", // lock_not_available: lock_timeout ran out
  "57014", // query_canceled: statement_timeout ran out
]);

/** Whether an error, or any error in its cause chain, is a lost or refused database connection. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause)
    if (CONNECTION_FAILURES.has(String((cause as { code?: unknown }).code))) return true;
  return false;
}

const issuePath = (path: readonly PropertyKey[]) => path.map(String).join(".") || "(input)";

const fromApiError = (error: ApiError): ErrorDescription => ({
  code: error.problemCode,
  detail: error.detail,
  ...error.extra,
});

export function describeError(error: unknown): ErrorDescription {
  if (error instanceof ApiError) return fromApiError(error);
  const cause = error instanceof TRPCError ? error.cause : undefined;
  if (cause instanceof ApiError) return fromApiError(cause);
  if (cause instanceof ZodError && (error as TRPCError).code === "BAD_REQUEST") {
    const issues = cause.issues.map((issue) => ({ path: issuePath(issue.path), message: issue.message }));
    return { code: "invalid_request", detail: issues.map((i) => `${i.path}: ${i.message}`).join("; "), issues };
  }
  if (isDatabaseUnavailable(error)) return fromApiError(serviceUnavailable());
  if (error instanceof TRPCError) {
    if (error.code === "NOT_FOUND") return { code: "not_found", detail: "No such path." };
    if (error.code === "BAD_REQUEST" || error.code === "PARSE_ERROR")
      return { code: "invalid_request", detail: "The request could not be understood." };
  }
  return { code: "internal_error", detail: "The service failed unexpectedly." };
}
