/**
 * tRPC for every surface: REST (/v1 via trpc-to-openapi), MCP tools and the dashboard call these
 * procedures. Errors keep their meaning across surfaces: an ApiError's code, detail and extras ride
 * in the error shape, and the REST edge turns them into problem+json.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZodError } from "zod";
import { ApiError, type ProblemIssue } from "../errors/api-error";
import type { ErrorCode } from "../errors/codes";
import type { ApiContext } from "./context";
import type { Operation } from "./operations";

// Optional only for trpc-to-openapi's router type; apiProcedure refuses to run without it.
export type ApiMeta = OpenApiMeta<{ operation?: Operation }>;

/** The problem a failed call answers with, whatever surface carries it. */
export interface ErrorDescription {
  code: ErrorCode;
  detail: string;
  issues?: ProblemIssue[];
  members?: Record<string, unknown>;
  headers?: Record<string, string>;
}

const CONNECTION_FAILURES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01", // admin_shutdown
  "57P03", // cannot_connect_now
]);

function isUnavailable(error: unknown): boolean {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause)
    if (CONNECTION_FAILURES.has(String((cause as { code?: unknown }).code))) return true;
  return false;
}

const issuePath = (path: readonly PropertyKey[]) => path.map(String).join(".") || "(input)";

export function describeError(error: TRPCError): ErrorDescription {
  const cause = error.cause;
  if (cause instanceof ApiError) return { code: cause.code, detail: cause.detail, ...cause.extra };
  if (cause instanceof ZodError && error.code === "BAD_REQUEST") {
    const issues = cause.issues.map((issue) => ({ path: issuePath(issue.path), message: issue.message }));
    return { code: "invalid_request", detail: issues.map((i) => `${i.path}: ${i.message}`).join("; "), issues };
  }
  if (isUnavailable(error)) return { code: "unavailable", detail: "The database is unreachable; retry shortly." };
  if (error.code === "NOT_FOUND") return { code: "not_found", detail: "No such path." };
  if (error.code === "BAD_REQUEST" || error.code === "PARSE_ERROR")
    return { code: "invalid_request", detail: "The request could not be understood." };
  return { code: "internal_error", detail: "The service failed unexpectedly." };
}

const t = initTRPC
  .context<ApiContext>()
  .meta<ApiMeta>()
  .create({
    errorFormatter: ({ shape, error }) => ({ ...shape, problem: describeError(error) }),
  });

export const createRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every API procedure: declares its operation (scope and credits) as metadata. Authentication,
 * scope checks and the credit debit are enforced here from that metadata by the accounts issue.
 */
export const apiProcedure = t.procedure.use(async ({ meta, next }) => {
  if (!meta?.operation)
    throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "procedure declares no operation" });
  return next();
});
