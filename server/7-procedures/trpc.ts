/**
 * tRPC for every surface: REST (/v1 via trpc-to-openapi), MCP tools and the dashboard call these
 * procedures. Errors keep their meaning across surfaces: an ApiError's code, detail and extras ride
 * in the error shape, and the REST edge turns them into problem+json.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { Database } from "../../db/client";
import { noteDatabaseFault } from "../../db/faults";
import type { AuditAction, AuditActor } from "../1-domain/audit";
import { describeOperation, type Operation } from "../1-domain/operations";
import { can, type Permission } from "../1-domain/roles";
import {
  deadlineExceeded,
  forbidden,
  insufficientCredits,
  insufficientScope,
  organizationRequired,
  rateLimited,
  tooManyConcurrent,
  unauthorized,
} from "../1-errors/api-error";
import { describeError, isDatabaseUnavailable } from "../1-errors/describe";
import { clientAddress } from "../2-http/client-address";
import { ONBOARDING_PATH } from "../2-http/paths";
import { organizationBulkhead } from "../3-limits/organization-bulkhead";
import { type RateLimitDecision, rateLimitHeaders } from "../3-limits/rate-limiter";
import { requestLimits } from "../3-limits/request-limits";
import { defaultRateLimit, sharedRateLimiter } from "../3-limits/shared-rate-limit";
import { serviceMetrics } from "../3-observability/metrics";
import { addStage, type Stage, timingStages } from "../3-observability/stages";
import { creditsPageUrl, howToGetCredits, processBillingConfig } from "../4-billing/config";
import { creditBalance, debitCredits, readBalance } from "../4-credits/credits";
import { recordAuditEvent } from "../4-organizations/audit";
import type { Caller, CallerOrganization } from "../6-auth/caller";
import type { ApiContext } from "./context";

/**
 * What the audit trail records of a dashboard mutation (docs/accounts.md, "Audit trail"): its
 * action, and from the mutation's input (as sent; valid, since the mutation succeeded, but only
 * ids should be read from it) and its answer its target and details (never a secret) and,
 * for a mutation not bound to the active organization, the organization it changed (null: none,
 * nothing is recorded). Write the functions' parameter types as the procedure's input and output.
 */
export interface AuditMeta {
  action: AuditAction;
  target?: (input: never, output: never) => { type: string; id: string | null };
  details?: (input: never, output: never) => Record<string, unknown>;
  organization?: (input: never, output: never) => string | null;
  /**
   * Work the mutation needs that waits on the network (a DNS lookup): run after every guard and
   * before the transaction begins, so no database connection waits with it. The mutation finds
   * its answer in `ctx.prepared` and must check it still holds inside the transaction. `input`
   * is as sent: parse it.
   */
  prepare?: (input: unknown, scope: { db: Database; organizationId: string | null }) => Promise<unknown>;
}

// `operation`: optional only for trpc-to-openapi's router type; apiProcedure refuses to run without it.
// `audit`: every dashboard mutation declares one, or is on tests/db/audit.test.ts's short list.
export type ApiMeta = OpenApiMeta<{ operation?: Operation; audit?: AuditMeta }>;

/**
 * A procedure's metadata, all of it from its entry in the operation table: the operation the
 * middleware enforces and bills, and its REST route with summary and priced description.
 */
export const operationMeta = (operation: Operation, tag: string): ApiMeta => ({
  operation,
  openapi: {
    method: "GET",
    path: operation.path,
    tags: [tag],
    protect: true,
    summary: operation.summary,
    description: describeOperation(operation),
  },
});

const t = initTRPC
  .context<ApiContext>()
  .meta<ApiMeta>()
  .create({
    // `problem` is what every surface shows: the code, the words and the body's extension members.
    // The REST edge rebuilds its problem+json (and headers) from describeError itself.
    // Only what describeError says reaches a client: an internal error's own message (SQL text and
    // its parameters, a path) and every stack stay in the server's log (trpc-handler.ts logs them
    // with the request id, which the answer names so the two can be matched).
    errorFormatter: ({ shape, error, ctx }) => {
      const { code, detail, issues, members } = describeError(error);
      const requestId = ctx?.requestId;
      const words = code === "internal_error" && requestId ? `${detail} (request ${requestId})` : detail;
      const { stack: _stack, ...data } = shape.data;
      return {
        ...shape,
        message: code === "internal_error" ? words : shape.message,
        data,
        problem: {
          code,
          detail: words,
          ...(requestId ? { requestId } : {}),
          ...(issues ? { issues } : {}),
          ...members,
        },
      };
    },
  });

export const createRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every procedure, whoever calls it: a database fault it meets is noted for the HTTP server, which
 * then answers a page that failed because of it as 503 (server/5-http-server/health.ts). The API's
 * procedures (apiProcedure) note theirs themselves, one middleware fewer on the metered path.
 */
const procedure = t.procedure.use(async ({ next }) => {
  const result = await next();
  if (!result.ok && isDatabaseUnavailable(result.error)) noteDatabaseFault();
  return result;
});

/** The stage bench's lap (server/3-observability/stages.ts): the stage since `began` added; now returned. */
function lap(facts: object, stage: Stage, began: number): number {
  const now = performance.now();
  addStage(facts, stage, now - began);
  return now;
}

/**
 * Every API procedure, whatever surface calls it (REST, MCP, dashboard). Its operation metadata
 * decides everything here, in this order: who calls (401), the scope (403), an organization to
 * bill (403), a place in its bulkhead (429, or 503 at the deadline), the organization's rate limit
 * (429); then the procedure runs, and only when it succeeded — and answered more than a 304,
 * within its deadline — are its credits debited (402 when they run short).
 */
export const apiProcedure = t.procedure.use(async ({ ctx, meta, next }) => {
  try {
    const operation = meta?.operation;
    if (!operation) throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "procedure declares no operation" });
    ctx.facts.operation = operation.name;
    let began = timingStages ? performance.now() : 0;
    const caller = ctx.caller ?? (await ctx.authenticate());
    if (timingStages) began = lap(ctx.facts, "authentication", began);
    if (operation.scope && !caller.scopes.includes(operation.scope)) throw insufficientScope(operation.scope);
    const organization = caller.organization;
    if (!organization) throw organizationRequired(`${ctx.origin}${ONBOARDING_PATH}`);
    // A person reads within their role (markets.read); an API token has none, and its scope decides.
    if (operation.scope && organization.role && !can(organization.role, "markets.read"))
      throw forbidden(
        `Your role in this organization (${organization.role}) may not read markets: it needs markets.read.`,
        "markets.read",
      );
    ctx.facts.organizationId = organization.id;
    // Metered calls take a place in the organization's bulkhead first: a burst waits behind itself,
    // and what it cannot hold is refused in memory, before it costs the database anything (the rate
    // limit's count is a round trip when there is no Redis).
    const admission = caller.metered ? await enterBulkhead(ctx, organization.id) : undefined;
    let answered = false;
    try {
      await enforceRateLimit(ctx, operation, organization);
      // Spare the work when it cannot be paid for. The caller's balance may be a cached hint, never
      // lower than the real one (debits only lower it; grants forget the cache): a refusal is sure.
      if (caller.metered && !ctx.prepaid && operation.credits > organization.creditBalance)
        throw unpaid(ctx, operation.credits, await creditBalance(ctx.db, organization.id));
      if (timingStages) began = lap(ctx.facts, "limits", began);

      const result = await next({ ctx: { caller, defaultCountry: organization.homeCountry } });
      if (timingStages) began = lap(ctx.facts, "procedure", began);
      if (result.ok && caller.metered) await meter(ctx, operation, caller.credentialId, organization);
      if (timingStages) began = lap(ctx.facts, "debit", began);
      answered = result.ok;
      // What `procedure` does for every other procedure, here rather than in one more middleware:
      // each level of tRPC's chain costs a metered call some microseconds.
      if (!result.ok && isDatabaseUnavailable(result.error)) noteDatabaseFault();
      return result;
    } finally {
      admission?.();
      // A download the call will not send frees its place now; one it sends, once its last byte is out.
      if (!answered) ctx.facts.download?.done?.();
    }
  } catch (error) {
    if (isDatabaseUnavailable(error)) noteDatabaseFault();
    throw error;
  }
});

/**
 * A place in the organization's bulkhead on this instance; 429 too_many_concurrent when no place
 * is free and none may wait, 503 unavailable when the wait reached the call's deadline.
 */
async function enterBulkhead(ctx: ApiContext, organizationId: string): Promise<() => void> {
  const limits = requestLimits();
  const admission = await organizationBulkhead().enter(organizationId, ctx.deadline - Date.now());
  if (admission.ok) return admission.release;
  // Waited until its deadline: as any call that cannot finish in time. No room to wait at all: 429.
  if (admission.reason === "timeout") throw deadlineExceeded(limits.deadlineMs);
  throw tooManyConcurrent(limits.orgMaxInFlight, limits.orgMaxQueued);
}

/**
 * The bulkhead's refusal of a metered call, decided at a surface's door before any work, when the
 * caller is already known (a cached token) and its operation's scope is held: the answer
 * `apiProcedure` would give, `429 too_many_concurrent`, at a fraction of the cost. During one
 * organization's flood most of its calls end here, so the event loop stays free for the others.
 */
export function bulkheadRefusal(organizationId: string, operation: Operation, scopes: readonly string[]) {
  if (operation.scope && !scopes.includes(operation.scope)) return undefined;
  if (!organizationBulkhead().isFull(organizationId)) return undefined;
  // One error for every refusal: it says only the limits, and building a tRPC error is not free.
  const limits = requestLimits();
  doorRefusal ??= tooManyConcurrent(limits.orgMaxInFlight, limits.orgMaxQueued);
  return doorRefusal;
}
let doorRefusal: ReturnType<typeof tooManyConcurrent> | undefined;

async function enforceRateLimit(
  ctx: ApiContext,
  operation: Operation,
  organization: CallerOrganization,
): Promise<void> {
  const decision = await countRequests({ organization, userId: null, credentialId: null }, 1);
  ctx.facts.rateLimit = decision;
  if (!decision.allowed) {
    serviceMetrics().rateLimited(operation.name);
    throw rateLimited(decision.resetSeconds, rateLimitHeaders(decision));
  }
}

/**
 * Counts `requests` against the caller's rate limit: its organization's (shared by every token,
 * connection and surface of it), or, for a person with no organization yet, their own at the
 * default limit. The one count every surface uses: procedures count their call; the MCP edge
 * counts the messages no procedure will (tools/list, initialize, each message of a batch).
 */
export function countRequests(
  caller: Pick<Caller, "organization" | "userId" | "credentialId">,
  requests: number,
): Promise<RateLimitDecision> {
  const { organization } = caller;
  const key = organization ? `org:${organization.id}` : `person:${caller.userId ?? caller.credentialId ?? "unknown"}`;
  return sharedRateLimiter().consume(key, organization?.rateLimit ?? defaultRateLimit(), requests);
}

/** Debits a successful metered call (a 304 and a prepaid page are free) and records its cost and the balance. */
/** The 402 of a call the organization cannot pay for: its cost, balance, and where credits come from. */
const unpaid = (ctx: ApiContext, cost: number, balance: number) =>
  insufficientCredits(cost, balance, howToGetCredits(processBillingConfig(), ctx.origin), creditsPageUrl(ctx.origin));

async function meter(
  ctx: ApiContext,
  operation: Operation,
  credentialId: string | null,
  organization: CallerOrganization,
): Promise<void> {
  const cost = ctx.facts.notModified || ctx.prepaid ? 0 : operation.credits;
  // Past its deadline the caller has given up or will: answer 503 and charge nothing.
  if (cost > 0 && Date.now() >= (ctx.facts.extendedDeadline ?? ctx.deadline))
    throw deadlineExceeded(requestLimits().deadlineMs);
  let balance: number;
  if (cost === 0)
    balance = await readBalance(ctx.db, organization.id); // the caller's may be a cached hint
  else {
    const debit = await debitCredits(
      ctx.db,
      {
        organizationId: organization.id,
        cost,
        operation: operation.name,
        tokenId: credentialId,
        requestId: ctx.requestId,
        deadline: ctx.facts.extendedDeadline ?? ctx.deadline,
      },
      { lockTimeoutMs: requestLimits().debitLockTimeoutMs },
    );
    if (!debit.ok) throw unpaid(ctx, cost, debit.balance);
    balance = debit.balance;
    serviceMetrics().debited(operation.name, cost);
  }
  ctx.facts.credits = { cost, balance };
}

/** Dashboard procedures anyone may call, signed in or not (never on REST or MCP). */
export const publicProcedure = procedure;

/**
 * Who acted and from where, for the audit trail: the person or the token (an OAuth grant too),
 * the client address as the service's own door saw it (server/2-http/client-address.ts: never a
 * header the client could forge, unless TRUST_PROXY says a proxy overwrites X-Forwarded-For) and
 * the user agent, both cut to length when written.
 */
export function auditActorOf(caller: Caller, headers: ApiContext["headers"]): AuditActor {
  const where = { clientAddress: clientAddress(headers), userAgent: headers.get("user-agent") };
  if (caller.via === "session") return { kind: "user", userId: caller.userId, ...where };
  return { kind: "token", tokenId: caller.credentialId, userId: caller.userId, ...where };
}

/** Thrown inside the transaction to roll a failed mutation back; its result is answered as it is. */
class RolledBack extends Error {
  constructor(readonly result: unknown) {
    super("rolled back");
  }
}

/** A signed-in person (no operation metadata: never on REST or MCP). */
const signedInProcedure = procedure.use(async ({ ctx, next }) => {
  const caller = await ctx.authenticate();
  if (!caller.userId) throw unauthorized("Sign in to use the dashboard.");
  return next({ ctx: { caller, userId: caller.userId } });
});

/** …acting for their active organization. */
const inOrganizationProcedure = signedInProcedure.use(async ({ ctx, next }) => {
  const organization = ctx.caller.organization;
  if (!organization) throw organizationRequired(`${ctx.origin}${ONBOARDING_PATH}`);
  return next({ ctx: { organization } });
});

/**
 * A mutation that declares `audit` runs in one transaction (its `ctx.db` is that transaction)
 * with the event that records it, written after it succeeded: a failed mutation records nothing
 * and a recorded one happened. It is the last of the shared middlewares, so every guard (signed
 * in, organization, permission) has decided before the transaction begins, and so has the
 * mutation's `audit.prepare`, whose network work then holds no connection (on PGlite, the one).
 */
const auditedMutation = t.middleware(async ({ ctx, meta, type, getRawInput, next }) => {
  const audit = meta?.audit;
  if (!audit || type !== "mutation") return next();
  const caller = ctx.caller;
  if (!caller) throw unauthorized("Sign in to use the dashboard.");
  // The input as sent (this middleware runs before the procedure's parser): by the time it is
  // used the procedure has succeeded, so it was valid; values worth keeping are read from the answer.
  const input = await getRawInput();
  const prepared = audit.prepare
    ? await audit.prepare(input, { db: ctx.db, organizationId: caller.organization?.id ?? null })
    : undefined;
  try {
    return await ctx.db.transaction(async (tx) => {
      const result = await next({ ctx: { db: tx as unknown as Database, prepared } });
      if (!result.ok) throw new RolledBack(result);
      const output = result.data as never;
      const organizationId = audit.organization
        ? audit.organization(input as never, output)
        : (caller.organization?.id ?? null);
      if (organizationId !== null)
        await recordAuditEvent(tx, organizationId, auditActorOf(caller, ctx.headers), {
          action: audit.action,
          ...(audit.target ? toTarget(audit.target(input as never, output)) : {}),
          details: audit.details?.(input as never, output) ?? {},
        });
      return result;
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.result as Awaited<ReturnType<typeof next>>;
    throw error;
  }
});

const toTarget = (target: { type: string; id: string | null }) => ({ targetType: target.type, targetId: target.id });

/** Dashboard procedures for a signed-in person. */
export const userProcedure = signedInProcedure.use(auditedMutation);

/** Dashboard procedures acting for the signed-in person's active organization. */
export const organizationProcedure = inOrganizationProcedure.use(auditedMutation);

/**
 * Dashboard procedures that need one power of the roles table (server/1-domain/roles.ts), checked
 * against the role of the caller's membership row, read at this request: the one place the table
 * is enforced. A refusal is `403 forbidden` naming the permission.
 */
export const permittedProcedure = (permission: Permission) =>
  inOrganizationProcedure
    .use(async ({ ctx, next }) => {
      const role = ctx.organization.role;
      if (!role || !can(role, permission))
        throw forbidden(
          `Your role in this organization (${role ?? "none"}) may not do this: it needs ${permission}.`,
          permission,
        );
      return next({ ctx: { role } });
    })
    .use(auditedMutation);
