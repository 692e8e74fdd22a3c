/**
 * tRPC for every surface: REST (/v1 via trpc-to-openapi), MCP tools and the dashboard call these
 * procedures. Errors keep their meaning across surfaces: an ApiError's code, detail and extras ride
 * in the error shape, and the REST edge turns them into problem+json.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZodError } from "zod";
import { creditBalance, debitCredits } from "../accounts/credits";
import type { CallerOrganization } from "../auth/caller";
import {
  ApiError,
  insufficientCredits,
  insufficientScope,
  organizationRequired,
  type ProblemIssue,
  rateLimited,
  unauthorized,
} from "../errors/api-error";
import type { ErrorCode } from "../errors/codes";
import { ONBOARDING_PATH } from "../paths";
import { rateLimitHeaders } from "../rate-limit/limiter";
import { defaultRateLimit, sharedRateLimiter } from "../rate-limit/shared";
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
  if (error instanceof ApiError) return { code: error.problemCode, detail: error.detail, ...error.extra };
  const cause = error.cause;
  if (cause instanceof ApiError) return { code: cause.problemCode, detail: cause.detail, ...cause.extra };
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
    // `problem` is what every surface shows: the code, the words and the body's extension members.
    // The REST edge rebuilds its problem+json (and headers) from describeError itself.
    errorFormatter: ({ shape, error }) => {
      const { code, detail, issues, members } = describeError(error);
      return { ...shape, problem: { code, detail, ...(issues ? { issues } : {}), ...members } };
    },
  });

export const createRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every API procedure, whatever surface calls it (REST, MCP, dashboard). Its operation metadata
 * decides everything here, in this order: who calls (401), the scope (403), an organization to
 * bill (403), the organization's rate limit (429); then the procedure runs, and only when it
 * succeeded — and answered more than a 304 — are its credits debited (402 when they run short).
 */
export const apiProcedure = t.procedure.use(async ({ ctx, meta, next }) => {
  const operation = meta?.operation;
  if (!operation) throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "procedure declares no operation" });
  const caller = await ctx.authenticate();
  if (operation.scope && !caller.scopes.includes(operation.scope)) throw insufficientScope(operation.scope);
  const organization = caller.organization;
  if (!organization) throw organizationRequired(`${ctx.origin}${ONBOARDING_PATH}`);
  await enforceRateLimit(ctx, organization);
  // Spare the work when it cannot be paid for. The caller's balance may be a cached hint, never
  // lower than the real one (debits only lower it; grants forget the cache): a refusal is sure.
  if (caller.metered && operation.credits > organization.creditBalance)
    throw insufficientCredits(operation.credits, await creditBalance(ctx.db, organization.id));

  const result = await next({ ctx: { caller, defaultCountry: organization.homeCountry } });
  if (result.ok && caller.metered) await meter(ctx, operation, caller.credentialId, organization);
  return result;
});

async function enforceRateLimit(ctx: ApiContext, organization: CallerOrganization): Promise<void> {
  const decision = await sharedRateLimiter().consume(
    `org:${organization.id}`,
    organization.rateLimit ?? defaultRateLimit(),
  );
  const headers = rateLimitHeaders(decision);
  Object.assign(ctx.response.commonHeaders, headers);
  if (!decision.allowed) throw rateLimited(decision.resetSeconds, headers);
}

/** Debits a successful metered call (a 304 is free) and reports cost and balance in headers. */
async function meter(
  ctx: ApiContext,
  operation: Operation,
  credentialId: string | null,
  organization: CallerOrganization,
): Promise<void> {
  const cost = ctx.response.notModified ? 0 : operation.credits;
  let balance: number;
  if (cost === 0)
    balance = await creditBalance(ctx.db, organization.id); // the caller's may be a cached hint
  else {
    const debit = await debitCredits(ctx.db, {
      organizationId: organization.id,
      cost,
      operation: operation.name,
      tokenId: credentialId,
      requestId: ctx.requestId,
    });
    if (!debit.ok) throw insufficientCredits(cost, debit.balance);
    balance = debit.balance;
  }
  ctx.response.headers["X-Credits-Cost"] = String(cost);
  ctx.response.headers["X-Credits-Remaining"] = String(balance);
}

/** Dashboard procedures for a signed-in person (no operation metadata: never on REST or MCP). */
export const userProcedure = t.procedure.use(async ({ ctx, next }) => {
  const caller = await ctx.authenticate();
  if (!caller.userId) throw unauthorized("Sign in to use the dashboard.");
  return next({ ctx: { caller, userId: caller.userId } });
});

/** Dashboard procedures acting for the signed-in person's active organization. */
export const organizationProcedure = userProcedure.use(async ({ ctx, next }) => {
  const organization = ctx.caller.organization;
  if (!organization) throw organizationRequired(`${ctx.origin}${ONBOARDING_PATH}`);
  return next({ ctx: { organization } });
});
