/**
 * A tool call's result: its arguments checked, its procedure run as the caller (the same
 * procedure, checks and credits as REST), and what the tool makes of the output — the payload as
 * REST sends it, its text, embedded resources, the part of a reading that fits the token budget and
 * the link to the whole of it — made once per reading. The edge's plain call (fast-call.ts) runs
 * `runCheckedTool` with the arguments it checked; the MCP server (server.ts) runs `runTool`, which
 * checks them first, for everything else.
 */
import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { invalidRequest } from "../1-errors/api-error";
import type { ErrorCode } from "../1-errors/codes";
import { describeError } from "../1-errors/describe";
import { type Problem, problemOf } from "../2-http/problem";
import type { NarrowingSpec, Page } from "../2-readings/narrowing";
import { valueAt } from "../2-readings/narrowing";
import { type ApiContext, createApiContext } from "../7-procedures/context";
import { toolNamer, withSeeAlso } from "../7-procedures/see-also";
import { SERIALIZED_JSON } from "../7-procedures/validated-once";
import { pageNote, RESULT_BUDGET_TOKENS, tokensOf, withinBudget } from "./budget";
import type { McpCall } from "./call";
import {
  isPartial,
  pageUri,
  type ReadingLink,
  readingLink,
  readingUri,
  wholeReadingArguments,
} from "./reading-resources";
import { receiptFor } from "./receipt";
import { markValidated } from "./tool-schemas";
import { argumentsTaken, type EmbeddedResource, type ToolDefinition, unknownArguments } from "./tools";

export interface ToolResult {
  [key: string]: unknown;
  content: ({ type: "text"; text: string } | EmbeddedResource | ReadingLink)[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

type ToolContent = ToolResult["content"];

/**
 * A reading validated once (server/7-procedures/validated-once.ts) is the same object on every call,
 * so what a tool makes of it — the payload as JSON gives it, its text and its embedded HTML — is
 * made once per reading too, not on every call (a CPU profile of snapshot tool calls spent more on
 * that than on the procedure). Kept by identity of the reading, the tool and the room kept for a
 * link (rounded up, so calls share it); never mutated.
 */
/** A tool call's procedure reads no request header (the MCP edge has authenticated the caller). */
const NO_HEADERS = { get: () => null };

const madeOnce = new WeakMap<object, Map<string, MadeResult>>();

interface MadeResult {
  payload: Record<string, unknown>;
  content: ToolContent;
  /** `"content":…,"structuredContent":…` as JSON in UTF-8, made on first use: the same for every call. */
  json?: Buffer;
}

/** Room kept for a link is rounded up to this many bytes: one made result serves links of similar size. */
const LINK_ROOM_STEP = 256;

/**
 * A tool's content for a payload: its text (saying which part of a reading it holds) and embedded
 * resources. A sparse payload (`fields`) has products the tool's own text cannot render: its text
 * lists them as they are.
 */
function contentOf(
  definition: ToolDefinition,
  payload: Record<string, unknown>,
  args: Record<string, unknown>,
  sparse = false,
): ToolContent {
  const spec = definition.narrowing;
  const note = spec ? pageNote(definition.name, payload.page as Page | undefined, spec.columns !== undefined) : "";
  if (sparse && spec) return [{ type: "text", text: `${sparseText(definition, payload, spec)}${note}` }];
  return [
    { type: "text", text: `${definition.render(payload as never)}${note}` },
    ...(definition.embed?.(payload as never, args) ?? []),
  ];
}

/**
 * Which reading a payload is, in words: "foundation-model-apis, release 3, under FR" (a comparison:
 * "releases 2 → 3"). A sparse answer's text has nothing else to say which market, release and
 * country its figures are of.
 */
function readingContext(payload: Record<string, unknown>): string {
  const releaseOf = (ref: unknown) => (ref as { release?: unknown } | null | undefined)?.release;
  const from = releaseOf(payload.from);
  const to = releaseOf(payload.to);
  const country = payload.country ?? (payload.max as { country?: unknown } | undefined)?.country;
  return [
    typeof payload.marketId === "string" ? payload.marketId : undefined,
    typeof payload.release === "number"
      ? `release ${payload.release}`
      : typeof from === "number" && typeof to === "number"
        ? `releases ${from} → ${to}`
        : undefined,
    typeof country === "string" ? `under ${country}` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
}

/**
 * A sparse reading as text: which reading it is, then per product its name and id, whether it is
 * unavailable under the country, then the fields kept, as JSON.
 */
function sparseText(definition: ToolDefinition, payload: Record<string, unknown>, spec: NarrowingSpec): string {
  const context = readingContext(payload);
  const lines = [`${definition.title}${context ? ` of ${context}` : ""}, the fields asked for of each product:`];
  for (const path of spec.lists) {
    const list = valueAt(payload, path);
    if (!Array.isArray(list)) continue;
    if (spec.lists.length > 1) lines.push(`${path}:`);
    for (const { productId, name, ...rest } of list as Record<string, unknown>[])
      lines.push(
        `- ${String(name)} (${String(productId)})${rest.available === false ? ", unavailable: no score under the controls" : ""}: ${JSON.stringify(rest)}`,
      );
  }
  return lines.join("\n");
}

/** A reading kept in memory, as JSON gives it: parsed once per reading for its tool results and all of its pages. */
const parsedOnce = new WeakMap<object, Record<string, unknown>>();

/** The payload as REST sends it (through JSON), parsed once when the reading is one kept in memory. */
export function asSent(output: Record<PropertyKey, unknown>): Record<string, unknown> {
  const serialized = output[SERIALIZED_JSON];
  if (typeof serialized !== "string") return JSON.parse(JSON.stringify(output)) as Record<string, unknown>;
  let parsed = parsedOnce.get(output);
  if (!parsed) {
    parsed = JSON.parse(serialized) as Record<string, unknown>;
    parsedOnce.set(output, parsed);
  }
  return parsed;
}

/**
 * The payload and content of a result, fitted to the budget with `linkBytes` kept free for a link.
 * A reading kept in memory is the one answer to arguments that narrow nothing, so what is made of
 * it with such arguments serves every call.
 */
function resultOf(
  definition: ToolDefinition,
  output: Record<PropertyKey, unknown>,
  args: Record<string, unknown>,
  linkBytes = 0,
  sparse = false,
) {
  const room = Math.ceil(linkBytes / LINK_ROOM_STEP) * LINK_ROOM_STEP;
  const key = `${definition.name} ${room}${sparse ? " sparse" : ""}`;
  const immutable = typeof output[SERIALIZED_JSON] === "string";
  const known = immutable ? madeOnce.get(output)?.get(key) : undefined;
  if (known) return known;
  // Through JSON, as REST sends it: structuredContent is the REST body, value for value.
  const parsed = markValidated(asSent(output));
  // A reading of every product answers the part of it that fits the token budget.
  const made = definition.narrowing
    ? (() => {
        const { payload, result } = withinBudget(
          parsed,
          definition.narrowing,
          (candidate) => ({ structuredContent: candidate, content: contentOf(definition, candidate, args, sparse) }),
          room,
        );
        return { payload: markValidated(payload), content: result.content };
      })()
    : { payload: parsed, content: contentOf(definition, parsed, args) };
  if (immutable) {
    const byTool = madeOnce.get(output) ?? new Map();
    byTool.set(key, made);
    madeOnce.set(output, byTool);
  }
  return made;
}

/** What running a tool's procedure gave: its output, or the problem as MCP says it; and the call's _meta. */
export type ProcedureOutcome =
  | { ok: true; output: Record<PropertyKey, unknown>; meta: Record<string, unknown>; organizationId: string }
  | { ok: false; problem: Problem; meta: Record<string, unknown> };

/**
 * Runs a tool's procedure as its caller: the same procedure, checks and credits as REST. A
 * `prepaid` call reads what an earlier call paid for (reading-resources.ts): no credits.
 */
export async function runProcedure(
  definition: ToolDefinition,
  input: unknown,
  call: McpCall,
  prepaid = false,
): Promise<ProcedureOutcome> {
  const requestId = randomUUID();
  const ctx: ApiContext = createApiContext({
    db: call.db,
    headers: NO_HEADERS,
    requestId,
    origin: call.origin,
    authenticate: call.authenticated,
    caller: call.caller,
    prepaid,
  });
  try {
    const output = (await definition.call(ctx, input)) as Record<PropertyKey, unknown>;
    tellExchange(call, definition, ctx, null);
    return { ok: true, output, meta: resultMeta(ctx), organizationId: ctx.facts.organizationId ?? "" };
  } catch (error) {
    const trpcError =
      error instanceof TRPCError ? error : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error });
    const problem = withSeeAlso(describeError(trpcError), toolNamer);
    tellExchange(call, definition, ctx, problem.code, error);
    return {
      ok: false,
      problem: problemOf(problem.code, problem.detail, { origin: call.origin, requestId }, problem),
      meta: resultMeta(ctx),
    };
  }
}

// Module functions, not closures made per call: a call of a tool is the hottest path of /mcp.

/** A tool result's `_meta`: the call's request id, its credits and any deprecation of its operation. */
function resultMeta(ctx: ApiContext): Record<string, unknown> {
  const { credits, deprecation } = ctx.facts;
  return {
    requestId: ctx.requestId,
    ...(credits ? { credits: { cost: credits.cost, remaining: credits.balance } } : {}),
    ...(deprecation
      ? {
          deprecation: {
            since: deprecation.since.toISOString(),
            sunset: deprecation.sunset.toISOString(),
            notes: deprecation.notes,
          },
        }
      : {}),
  };
}

/** What a tool call did, told to its request's exchange (its log line and metrics, record.ts). */
function tellExchange(
  call: McpCall,
  definition: ToolDefinition,
  ctx: ApiContext,
  problem: ErrorCode | null,
  error?: unknown,
): void {
  call.exchange.tools.push({
    tool: definition.name,
    operation: ctx.facts.operation ?? definition.operation.name,
    requestId: ctx.requestId,
    isError: problem !== null,
    problem,
    credits: ctx.facts.credits ?? null,
    error,
  });
}

/**
 * The tool's arguments checked against its own schema (its defaults applied), or the problem a
 * procedure answers for input it refuses: `invalid_request` with its issues, the one shape of
 * every tool error.
 */
function toolArgumentsOf(definition: ToolDefinition, input: unknown, call: McpCall) {
  const unknown = unknownArguments(definition, input);
  const parsed = unknown.length ? undefined : definition.input.safeParse(input ?? {});
  if (parsed?.success) return { ok: true as const, args: parsed.data as unknown };
  const requestId = randomUUID();
  const problem = parsed
    ? describeError(new TRPCError({ code: "BAD_REQUEST", cause: parsed.error }))
    : describeError(
        invalidRequest(`${unknown.map((issue) => issue.message).join("; ")}. ${argumentsTaken(definition)}`, unknown),
      );
  call.exchange.tools.push({
    tool: definition.name,
    operation: definition.operation.name,
    requestId,
    isError: true,
    problem: problem.code,
    credits: null,
  });
  return {
    ok: false as const,
    problem: problemOf(problem.code, problem.detail, { origin: call.origin, requestId }, problem),
    requestId,
  };
}

/**
 * A result's JSON but for its `_meta`, as UTF-8, when it was made once for every call of the same
 * reading: the edge's plain call (fast-call.ts) writes it as it is, not serialized or encoded again
 * on every call.
 */
export const RESULT_JSON = Symbol("result JSON without _meta");

/** Runs one tool as its caller; a result holding part of a reading links to the whole of it. */
export async function runTool(definition: ToolDefinition, given: unknown, call: McpCall): Promise<ToolResult> {
  const checked = toolArgumentsOf(definition, given, call);
  if (!checked.ok)
    return {
      isError: true,
      content: [{ type: "text", text: JSON.stringify(checked.problem) }],
      _meta: { requestId: checked.requestId, problem: checked.problem },
    };
  return runCheckedTool(definition, checked.args, call);
}

/**
 * `runTool` for arguments its tool's input schema has parsed already and that name nothing the tool
 * does not take (the edge's plain call, fast-call.ts): they are not checked twice.
 */
export async function runCheckedTool(definition: ToolDefinition, input: unknown, call: McpCall): Promise<ToolResult> {
  const outcome = await runProcedure(definition, input, call);
  if (!outcome.ok)
    return {
      isError: true,
      content: [{ type: "text", text: JSON.stringify(outcome.problem) }],
      _meta: { ...outcome.meta, problem: outcome.problem },
    };
  const args = (input ?? {}) as Record<string, unknown>;
  if (!definition.narrowing) {
    const made = resultOf(definition, outcome.output, args);
    const tokens = tokensOf({ content: made.content, structuredContent: made.payload, _meta: outcome.meta });
    if (tokens > RESULT_BUDGET_TOKENS) return overBudget(definition, tokens, call, outcome.meta);
    return withJson(made, outcome.meta);
  }
  // The link to the whole reading is made first, so the part that fits leaves room for it.
  const { link, bytes } = wholeReadingLink(definition, input, outcome.output, outcome.organizationId);
  const sparse = (input as { fields?: string } | undefined)?.fields !== undefined;
  const made = resultOf(definition, outcome.output, args, bytes, sparse);
  const { payload, content } = made;
  if (!isPartial(payload.page as Page | undefined)) return withJson(made, outcome.meta);
  return { structuredContent: payload, content: [...content, link], _meta: outcome.meta };
}

/**
 * The error a tool answers in place of a result over the token budget, when it has no narrowing to
 * answer a page of it: it says how large the answer would be and what to ask instead. Only tools
 * whose answer grows with what the caller asks (a long period of usage) can reach it; readings of
 * every product are paged instead (budget.ts).
 */
function overBudget(
  definition: ToolDefinition,
  tokens: number,
  call: McpCall,
  meta: Record<string, unknown>,
): ToolResult {
  const requestId = String(meta.requestId ?? randomUUID());
  const advice = definition.overBudget ?? "narrow the arguments";
  const detail = `This answer would take about ${tokens.toLocaleString("en")} tokens, over the ${RESULT_BUDGET_TOKENS.toLocaleString("en")} a tool result may take: ${advice}.`;
  const problem = problemOf(
    "invalid_request",
    detail,
    { origin: call.origin, requestId },
    {
      issues: [{ path: "(input)", message: detail }],
    },
  );
  return { isError: true, content: [{ type: "text", text: JSON.stringify(problem) }], _meta: { ...meta, problem } };
}

/** A result made once, carrying its JSON (besides `_meta`) for a surface that writes it as it is. */
function withJson(made: MadeResult, meta: Record<string, unknown>): ToolResult {
  made.json ??= Buffer.from(JSON.stringify({ content: made.content, structuredContent: made.payload }).slice(1, -1));
  const result: ToolResult = { structuredContent: made.payload, content: [...made.content], _meta: meta };
  Object.defineProperty(result, RESULT_JSON, { value: made.json, enumerable: false });
  return result;
}

/** The link to the whole reading a payload is part of, with this organization's receipt. */
function wholeReadingLink(
  definition: ToolDefinition,
  input: unknown,
  output: Record<PropertyKey, unknown>,
  organizationId: string,
) {
  const args = wholeReadingArguments(
    Object.keys(definition.input.shape),
    (input ?? {}) as Record<string, unknown>,
    output as Record<string, unknown>,
  );
  const reading = readingUri(definition.name, args);
  // A receipt names its expiry to the second: within one second, every call of one organization
  // for one reading gets the same link, so it is signed and written once a second, not per call.
  const second = Math.floor(Date.now() / 1000);
  const key = `${organizationId}\n${reading}`;
  const kept = recentLinks.get(key);
  if (kept?.second === second) return kept;
  const receipt = receiptFor(organizationId, reading, second * 1000);
  const uri = pageUri({ tool: definition.name, arguments: args, receipt });
  const link = Object.freeze(readingLink(uri, definition.name, args, definition.narrowing as NarrowingSpec));
  if (recentLinks.size >= RECENT_LINKS_KEPT) recentLinks.clear();
  const made = { second, link, bytes: Buffer.byteLength(JSON.stringify(link)) };
  recentLinks.set(key, made);
  return made;
}

/** The links to whole readings made in the current second, by organization and reading. */
const recentLinks = new Map<string, { second: number; link: ReturnType<typeof readingLink>; bytes: number }>();
const RECENT_LINKS_KEPT = 1_000;
