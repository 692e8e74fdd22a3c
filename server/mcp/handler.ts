/**
 * The MCP endpoint (/mcp, Streamable HTTP, stateless). The HTTP edge authenticates the bearer
 * token and answers failures as problem+json with a Bearer challenge; each tool then runs its tRPC
 * procedure through a server-side caller acting as that caller, so REST and MCP share every rule.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import {
  type AuthInfo,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  UriTemplate,
} from "@modelcontextprotocol/server";
import { TRPCError } from "@trpc/server";
import { createMcpHandler } from "mcp-handler";
import type { z } from "zod";
import type { Database } from "../../db/client";
import { bearerAuthenticator, presentsToken } from "../auth/bearer";
import { bearerToken, type Caller, type HeaderReader } from "../auth/caller";
import { MARKET_READ_SCOPE, priceSentence } from "../domain/operations";
import { bearerChallenge, insufficientScope, rateLimited, unauthorized } from "../errors/api-error";
import type { ErrorCode } from "../errors/codes";
import { describeError, type ErrorDescription } from "../errors/describe";
import { nodeHeaders } from "../http/node-headers";
import { publicOrigin, publicOriginFrom } from "../http/origin";
import { MCP_PATH } from "../http/paths";
import { type Problem, problemOf, problemResponse } from "../http/problem";
import { protectedResourceMetadataUrl } from "../http/protected-resource";
import { apiSecurityHeaders, arrivedOverTls, withApiSecurityHeaders } from "../http/security-headers";
import { sendDocument, serveFetch } from "../http-server/fetch-bridge";
import { rateLimitHeaders } from "../limits/rate-limiter";
import { recordApiCall, UNKNOWN_OPERATION } from "../observability/calls";
import { serviceMetrics } from "../observability/metrics";
import { type ApiContext, createApiContext, reachDatabase } from "../procedures/context";
import { snapshot } from "../procedures/operations/snapshot";
import { SNAPSHOT_RESOURCE_TEMPLATE } from "../procedures/operations/snapshot-html";
import { createCaller } from "../procedures/root";
import { toolNamer, withSeeAlso } from "../procedures/see-also";
import { countRequests } from "../procedures/trpc";
import { SERIALIZED_JSON } from "../procedures/validated-once";
import { NarrowingError, type NarrowingSpec, narrow, type Page, valueAt } from "../readings/narrowing";
import { pageNote, withinBudget } from "./budget";
import {
  boundedBody,
  type McpMessage,
  mcpMessageOf,
  messagesCountedAtTheEdge,
  NOT_JSON,
  operationOfMessage,
  parsedBody,
  rpcOutcomeOf,
  whenSent,
} from "./exchange";
import {
  FAST_REVISIONS,
  type FastAnswer,
  type FastCall,
  fastAnswer,
  fastCallOf,
  fastResponse,
  RESULT_JSON,
} from "./fast-call";
import { RESULT_SERVER_INFO, SERVER_INFO } from "./identity";
import { MCP_INSTRUCTIONS } from "./instructions";
import {
  isPartial,
  pageUri,
  parseReadingUri,
  READING_TEMPLATE,
  type ReadingLink,
  readingLink,
  readingUri,
  wholeReadingArguments,
} from "./reading-resources";
import { checkReceipt, receiptFor } from "./receipt";
import { compactInput, outlineSchema } from "./schema-outline";
import { missingScope } from "./scope-check";
import { convertedOnce, markValidated } from "./tool-schemas";
import { type EmbeddedResource, TOOLS, type ToolDefinition, toolOfDeclaration } from "./tools";
import { CHARTS_RESOURCE_URI, chartsViewHtml } from "./views";

/**
 * Cache hints of the 2026-07-28 revision. The lists and the discovery answer are the same for
 * every caller and change only with a deployment: public, an hour. resources/read stays the
 * SDK's default (private, 0): the snapshot is metered and follows each publish.
 */
const HOUR_MS = 3_600_000;
const CACHE_HINTS = {
  "tools/list": { ttlMs: HOUR_MS, cacheScope: "public" },
  "resources/list": { ttlMs: HOUR_MS, cacheScope: "public" },
  "resources/templates/list": { ttlMs: HOUR_MS, cacheScope: "public" },
  "server/discover": { ttlMs: HOUR_MS, cacheScope: "public" },
} as const;

/** What one tool call did, for the POST's log line and the metrics. */
interface ToolFacts {
  tool: string;
  operation: string;
  /** The tool call's own request id (in its _meta and the credits ledger). */
  requestId: string;
  isError: boolean;
  problem: ErrorCode | null;
  credits: { cost: number; balance: number } | null;
  error?: unknown;
}

/** What one HTTP request to /mcp did, gathered as it runs and said once its answer is sent. */
interface McpExchange {
  requestId: string;
  organizationId: string | null;
  message: McpMessage | null;
  /** The edge's own refusal (401, 405, 503…). */
  problem: ErrorCode | null;
  error?: unknown;
  tools: ToolFacts[];
}

/** What the edge hands each tool call (through the SDK's AuthInfo.extra). */
interface McpCall {
  db: Database;
  caller: Caller;
  origin: string;
  exchange: McpExchange;
}

export interface ToolResult {
  [key: string]: unknown;
  content: ({ type: "text"; text: string } | EmbeddedResource | ReadingLink)[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

type ToolContent = ToolResult["content"];

/**
 * A reading validated once (server/procedures/validated-once.ts) is the same object on every call,
 * so what a tool makes of it — the payload as JSON gives it, its text and its embedded HTML — is
 * made once per reading too, not on every call (a CPU profile of snapshot tool calls spent more on
 * that than on the procedure). Kept by identity of the reading, the tool and the room kept for a
 * link (rounded up, so calls share it); never mutated.
 */
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
function contentOf(definition: ToolDefinition, payload: Record<string, unknown>, sparse = false): ToolContent {
  const spec = definition.narrowing;
  const note = spec ? pageNote(definition.name, payload.page as Page | undefined, spec.columns !== undefined) : "";
  if (sparse && spec) return [{ type: "text", text: `${sparseText(definition, payload, spec)}${note}` }];
  return [
    { type: "text", text: `${definition.render(payload as never)}${note}` },
    ...(definition.embed?.(payload as never) ?? []),
  ];
}

/** A sparse reading as text: per product, its name and id, then the fields kept, as JSON. */
function sparseText(definition: ToolDefinition, payload: Record<string, unknown>, spec: NarrowingSpec): string {
  const lines = [`${definition.title}, the fields asked for of each product:`];
  for (const path of spec.lists) {
    const list = valueAt(payload, path);
    if (!Array.isArray(list)) continue;
    if (spec.lists.length > 1) lines.push(`${path}:`);
    for (const { productId, name, ...rest } of list as Record<string, unknown>[])
      lines.push(`- ${String(name)} (${String(productId)}): ${JSON.stringify(rest)}`);
  }
  return lines.join("\n");
}

/** A reading kept in memory, as JSON gives it: parsed once per reading for its tool results and all of its pages. */
const parsedOnce = new WeakMap<object, Record<string, unknown>>();

/** The payload as REST sends it (through JSON), parsed once when the reading is one kept in memory. */
function asSent(output: Record<PropertyKey, unknown>): Record<string, unknown> {
  const serialized = output[SERIALIZED_JSON];
  if (typeof serialized !== "string") return JSON.parse(JSON.stringify(output)) as Record<string, unknown>;
  let parsed = parsedOnce.get(output);
  if (!parsed) {
    parsed = JSON.parse(serialized) as Record<string, unknown>;
    parsedOnce.set(output, parsed);
  }
  return parsed;
}

/** The payload and content of a result, fitted to the budget with `linkBytes` kept free for a link. */
function resultOf(definition: ToolDefinition, output: Record<PropertyKey, unknown>, linkBytes = 0, sparse = false) {
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
          (candidate) => ({ structuredContent: candidate, content: contentOf(definition, candidate, sparse) }),
          room,
        );
        return { payload: markValidated(payload), content: result.content };
      })()
    : { payload: parsed, content: contentOf(definition, parsed) };
  if (immutable) {
    const byTool = madeOnce.get(output) ?? new Map();
    byTool.set(key, made);
    madeOnce.set(output, byTool);
  }
  return made;
}

/** What running a tool's procedure gave: its output, or the problem as MCP says it; and the call's _meta. */
type ProcedureOutcome =
  | { ok: true; output: Record<PropertyKey, unknown>; meta: Record<string, unknown>; organizationId: string }
  | { ok: false; problem: Problem; meta: Record<string, unknown> };

/**
 * Runs a tool's procedure as its caller: the same procedure, checks and credits as REST. A
 * `prepaid` call reads what an earlier call paid for (reading-resources.ts): no credits.
 */
async function runProcedure(
  definition: ToolDefinition,
  input: unknown,
  call: McpCall,
  prepaid = false,
): Promise<ProcedureOutcome> {
  const requestId = randomUUID();
  const ctx: ApiContext = createApiContext({
    db: call.db,
    headers: new Headers(),
    requestId,
    origin: call.origin,
    authenticate: async () => call.caller,
    prepaid,
  });
  const meta = () => {
    const credits = ctx.facts.credits;
    const deprecation = ctx.facts.deprecation;
    return {
      requestId,
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
  };
  const told = (problem: ErrorCode | null, error?: unknown) =>
    call.exchange.tools.push({
      tool: definition.name,
      operation: ctx.facts.operation ?? definition.operation.name,
      requestId,
      isError: problem !== null,
      problem,
      credits: ctx.facts.credits ?? null,
      error,
    });
  try {
    const output = (await definition.call(createCaller(ctx), input as never)) as Record<PropertyKey, unknown>;
    told(null);
    return { ok: true, output, meta: meta(), organizationId: ctx.facts.organizationId ?? "" };
  } catch (error) {
    const trpcError =
      error instanceof TRPCError ? error : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error });
    const problem = withSeeAlso(describeError(trpcError), toolNamer);
    told(problem.code, error);
    return {
      ok: false,
      problem: problemOf(problem.code, problem.detail, { origin: call.origin, requestId }, problem),
      meta: meta(),
    };
  }
}

/**
 * The tool's arguments checked against its own schema (its defaults applied), or the problem a
 * procedure answers for input it refuses: `invalid_request` with its issues, the one shape of
 * every tool error.
 */
function toolArgumentsOf(definition: ToolDefinition, input: unknown, call: McpCall) {
  const parsed = definition.input.safeParse(input ?? {});
  if (parsed.success) return { ok: true as const, args: parsed.data as unknown };
  const requestId = randomUUID();
  const problem = describeError(new TRPCError({ code: "BAD_REQUEST", cause: parsed.error }));
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

/** Runs one tool as its caller; a result holding part of a reading links to the whole of it. */
export async function runTool(definition: ToolDefinition, given: unknown, call: McpCall): Promise<ToolResult> {
  const checked = toolArgumentsOf(definition, given, call);
  if (!checked.ok)
    return {
      isError: true,
      content: [{ type: "text", text: JSON.stringify(checked.problem) }],
      _meta: { requestId: checked.requestId, problem: checked.problem },
    };
  const input = checked.args;
  const outcome = await runProcedure(definition, input, call);
  if (!outcome.ok)
    return {
      isError: true,
      content: [{ type: "text", text: JSON.stringify(outcome.problem) }],
      _meta: { ...outcome.meta, problem: outcome.problem },
    };
  if (!definition.narrowing) return withJson(resultOf(definition, outcome.output), outcome.meta);
  // The link to the whole reading is made first, so the part that fits leaves room for it.
  const link = wholeReadingLink(definition, input, outcome.output, outcome.organizationId);
  const sparse = (input as { fields?: string } | undefined)?.fields !== undefined;
  const made = resultOf(definition, outcome.output, Buffer.byteLength(JSON.stringify(link)), sparse);
  const { payload, content } = made;
  if (!isPartial(payload.page as Page | undefined)) return withJson(made, outcome.meta);
  return { structuredContent: payload, content: [...content, link], _meta: outcome.meta };
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
  const receipt = receiptFor(organizationId, readingUri(definition.name, args));
  const uri = pageUri({ tool: definition.name, arguments: args, receipt });
  return readingLink(uri, definition.name, args, definition.narrowing as NarrowingSpec);
}

/** The tools whose readings a link can name: those of every product. */
const READING_TOOLS = new Map(TOOLS.filter((tool) => tool.narrowing).map((tool) => [tool.name, tool]));

/** A reading link's arguments as its tool takes them: a URI's text, numbers where the tool wants one. */
function toolArguments(definition: ToolDefinition, args: Record<string, string>): Record<string, unknown> {
  const shape = definition.input.shape as Record<string, z.ZodType>;
  const unknown = Object.keys(args).filter((key) => !(key in shape));
  if (unknown.length)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${definition.name} takes no argument ${unknown.map((key) => `"${key}"`).join(", ")}; it takes ${Object.keys(shape).join(", ")}.`,
    );
  return Object.fromEntries(
    Object.entries(args).map(([key, text]) => {
      const field = shape[key] as z.ZodType;
      if (field.safeParse(text).success || text.trim() === "") return [key, text];
      const number = Number(text);
      return [key, Number.isFinite(number) && field.safeParse(number).success ? number : text];
    }),
  );
}

/** The JSON-RPC error of a problem: the caller's mistake is invalid params, the rest an internal error; `data` is the problem. */
const protocolErrorOf = (problem: Problem) =>
  new ProtocolError(
    problem.status < 500 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError,
    problem.detail,
    problem,
  );

/**
 * resources/read of a reading link (reading-resources.ts): the page its cursor starts (the first
 * without one) of the whole reading, within the token budget, and the next page's URI.
 */
async function readReadingPage(uri: URL, call: McpCall) {
  const address = parseReadingUri(uri.href);
  const definition = address ? READING_TOOLS.get(address.tool) : undefined;
  if (!address || !definition)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${uri.href} names no reading: a reading link is ${READING_TEMPLATE} for one of ${[...READING_TOOLS.keys()].join(", ")}; tool results that hold part of a reading give theirs.`,
    );
  const args = toolArguments(definition, address.arguments);
  let prepaid = false;
  if (address.receipt !== undefined) {
    const check = checkReceipt(
      address.receipt,
      call.caller.organization?.id ?? "",
      readingUri(address.tool, address.arguments),
    );
    if (!check.ok)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        check.reason === "expired"
          ? `This link's receipt expired at ${check.expiredAt?.toISOString()}: call ${definition.name} again for a new link, or read the link without its receipt at the tool's price.`
          : `This link's receipt is not this organization's for this reading: use the link a tool result gave as it is.`,
      );
    prepaid = true;
  }
  // The whole reading (the one kept in memory, validated and parsed once), then the page its cursor starts.
  const outcome = await runProcedure(definition, args, call, prepaid);
  if (!outcome.ok) throw protocolErrorOf(outcome.problem);
  const spec = definition.narrowing as NarrowingSpec;
  let whole = asSent(outcome.output);
  try {
    whole = narrow(whole, spec, { cursor: address.cursor });
  } catch (error) {
    if (error instanceof NarrowingError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
    throw error;
  }
  const pageAt = (payload: Record<string, unknown>) => {
    const next = (payload.page as Page | undefined)?.nextCursor ?? null;
    return {
      contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(payload) }],
      _meta: {
        ...outcome.meta,
        nextUri: next === null ? null : pageUri({ ...address, cursor: next }),
      },
    };
  };
  return withinBudget(whole, spec, pageAt).result;
}

/** Each tool's schemas, converted to JSON Schema once for every server built (tool-schemas.ts), outputs outlined (schema-outline.ts). */
const TOOL_SCHEMAS = new Map(
  TOOLS.map((definition) => [
    definition,
    {
      input: convertedOnce(definition.input, compactInput, "tool"),
      output: convertedOnce(definition.output, outlineSchema),
    },
  ]),
);

/** Matches every reading link, whatever arguments it carries in whatever order (the SDK's matcher wants them all, in order). */
class ReadingTemplate extends UriTemplate {
  override match(uri: string) {
    const address = parseReadingUri(uri);
    return address ? { tool: address.tool } : null;
  }
}

const mcpHandler = createMcpHandler(
  (server) => {
    // Results identify the server without its icon (identity.ts): the SDK stamps what the first
    // gives on every result but one that names itself; server/discover, the 2026-07-28 client's
    // first call, names the server with its icon, once.
    const inner = server.server as unknown as { _ondiscover: () => Record<string, unknown> };
    const discover = inner._ondiscover.bind(inner);
    Object.assign(inner, {
      _outboundServerInfo: () => RESULT_SERVER_INFO,
      _ondiscover: () => ({ ...discover(), _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } }),
    });
    for (const definition of TOOLS) {
      const schemas = TOOL_SCHEMAS.get(definition) as { input: z.ZodObject; output: z.ZodType };
      const config = {
        title: definition.title,
        description: definition.description,
        inputSchema: schemas.input,
        outputSchema: schemas.output,
        // destructiveHint and idempotentHint mean something only when readOnlyHint is false (the spec): left out.
        annotations: { readOnlyHint: true, openWorldHint: false },
      };
      const run = async (input: unknown, ctx: { http?: { authInfo?: AuthInfo } }) =>
        runTool(definition, input, ctx.http?.authInfo?.extra as unknown as McpCall);
      if (definition.chart)
        registerAppTool(
          server,
          definition.name,
          { ...config, _meta: { ui: { resourceUri: CHARTS_RESOURCE_URI } } },
          run,
        );
      else server.registerTool(definition.name, config, run);
    }
    // The chart view: static, data-free HTML (the data comes with each tool result); free to read.
    registerAppResource(
      server,
      "charts",
      CHARTS_RESOURCE_URI,
      { title: "Market charts", description: "Interactive delta map and ranking bars.", mimeType: RESOURCE_MIME_TYPE },
      // The same page for everyone until the next deployment: public, an hour (2026-07-28 cache hints).
      async () => ({
        contents: [{ uri: CHARTS_RESOURCE_URI, mimeType: RESOURCE_MIME_TYPE, text: chartsViewHtml() }],
        ttlMs: HOUR_MS,
        cacheScope: "public" as const,
      }),
    );
    // The whole of a reading a tool result answered part of, page by page (reading-resources.ts).
    server.registerResource(
      "reading",
      new ResourceTemplate(new ReadingTemplate(READING_TEMPLATE), { list: undefined }),
      {
        title: "A whole reading, in pages",
        description:
          "Every product of a reading a tool answered part of, as its resource_link gives it: each page a JSON document of the REST payload within the token budget, its _meta.nextUri the next page. Free with the link's receipt for an hour after the call that gave it; without it, the tool's price per page.",
        mimeType: "application/json",
      },
      async (uri, _variables, ctx) => readReadingPage(uri, ctx.http?.authInfo?.extra as unknown as McpCall),
    );
    // Reading the HTML snapshot directly is the snapshot: same procedure, same price.
    server.registerResource(
      "snapshot-html",
      new ResourceTemplate(SNAPSHOT_RESOURCE_TEMPLATE, { list: undefined }),
      {
        title: "Market snapshot (HTML)",
        description: `The snapshot of one market as a readable HTML table with bands and methodology. ${priceSentence(snapshot.credits)}`,
        mimeType: "text/html",
      },
      async (uri, variables, ctx) => {
        const result = await runTool(
          toolOfDeclaration(snapshot),
          { marketId: String(variables.marketId) },
          ctx.http?.authInfo?.extra as unknown as McpCall,
        );
        const embedded = result.content.find((c): c is EmbeddedResource => c.type === "resource");
        if (result.isError || !embedded)
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, (result.content[0] as { text: string }).text);
        return { contents: [{ ...embedded.resource, uri: uri.href }], _meta: result._meta };
      },
    );
  },
  { serverInfo: SERVER_INFO, cacheHints: CACHE_HINTS, instructions: MCP_INSTRUCTIONS },
);

/**
 * 401 for /mcp: problem+json, with the Bearer challenge MCP clients start OAuth from (RFC 9728
 * §5.1): where the resource's metadata is and which scope to ask for.
 */
function challenge(detail: string, origin: string, requestId: string, tokenPresented: boolean): Response {
  const error = unauthorized(detail);
  const params: Record<string, string> = {
    resource_metadata: protectedResourceMetadataUrl(origin),
    scope: MARKET_READ_SCOPE,
    ...(tokenPresented ? { error: "invalid_token", error_description: detail } : {}),
  };
  return problemResponse(problemOf(error.problemCode, error.detail, { origin, requestId }), {
    "Cache-Control": "no-store",
    "WWW-Authenticate": bearerChallenge(params),
  });
}

/**
 * 403 for a message whose token lacks a scope (MCP authorization, "Scope challenge handling"): the
 * Bearer challenge names the scope and where the resource's metadata is, so a client can
 * re-authorize for it; the body is the JSON-RPC error of the message, its data the problem REST
 * answers (`insufficient_scope`).
 */
function stepUpChallenge(message: unknown, scope: string, origin: string, requestId: string): Response {
  const refusal = insufficientScope(scope);
  const problem = problemOf("insufficient_scope", refusal.detail, { origin, requestId }, describeError(refusal));
  return jsonRpcFailure(message, problem, {
    "WWW-Authenticate": bearerChallenge({
      error: "insufficient_scope",
      scope,
      resource_metadata: protectedResourceMetadataUrl(origin),
      error_description: refusal.detail,
    }),
  });
}

/** JSON-RPC's code for a server error outside the protocol's own (the SDK uses it for transport errors). */
const SERVER_ERROR = -32000;

/**
 * A failure before the message reached the MCP server (the database unreachable while checking
 * the token, say), as the JSON-RPC error of the message's id: clients read it like any error, and
 * `data` is the problem with its stable code. The HTTP status stays the problem's (503 + Retry-After).
 */
function jsonRpcFailure(message: unknown, problem: Problem, headers: Record<string, string> = {}) {
  const first = Array.isArray(message) ? message[0] : message;
  const id = first && typeof first === "object" && "id" in first ? ((first as { id: unknown }).id ?? null) : null;
  return Response.json(
    { jsonrpc: "2.0", id, error: { code: SERVER_ERROR, message: problem.detail, data: problem } },
    {
      status: problem.status,
      headers: { ...headers, "Cache-Control": "no-store", "X-Request-Id": problem.requestId },
    },
  );
}

/** The methods of Streamable HTTP; anything else is 405 (GET answers 405 too: no server-sent stream). */
const MCP_METHODS = ["GET", "POST", "DELETE"];

export async function handleMcpRequest(request: Request, database: () => Promise<Database>): Promise<Response> {
  const started = performance.now();
  const exchange: McpExchange = {
    requestId: randomUUID(),
    organizationId: null,
    message: null,
    problem: null,
    tools: [],
  };
  const response = withApiSecurityHeaders(request, await answer(request, database, exchange));
  return whenSent(response, (body) =>
    recordExchange(request.method, response.status, exchange, body, performance.now() - started),
  );
}

/**
 * /mcp straight from Node (server/http-server/http-server.ts routes it here in production). A POST
 * that may be the common tool call (fast-call.ts) is read here and, when it is one, answered here
 * with no Fetch Request, Response or stream built for it, as /v1 is answered; every other request
 * goes to handleMcpRequest and the SDK as it came, its body handed on when it was read.
 */
export async function serveMcpRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  origin: string,
  database: () => Promise<Database>,
): Promise<void> {
  const started = performance.now();
  const handle = (request: Request) => handleMcpRequest(request, database);
  const headers = nodeHeaders(incoming);
  const length = Number(headers.get("content-length") ?? Number.NaN);
  const mayBeFast =
    incoming.method === "POST" &&
    FAST_REVISIONS.has(headers.get("mcp-protocol-version") ?? "") &&
    length >= 0 &&
    length <= MCP_BODY_LIMIT;
  if (!mayBeFast) return serveFetch(incoming, outgoing, origin, handle);
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const message = parsedBody(body.toString("utf8"));
  const fast = fastCallOf(headers, message);
  const url = `${origin}${incoming.url ?? "/"}`;
  const answered = fast ? await answerDirectly(fast, message, headers, database) : undefined;
  if (!answered) return serveFetch(incoming, outgoing, origin, handle, body);
  outgoing.once("close", () => recordExchange("POST", 200, answered.exchange, null, performance.now() - started));
  const security = apiSecurityHeaders(arrivedOverTls(url, headers.get("x-forwarded-proto")));
  const { headers: framing, parts } = answered.answer;
  await sendDocument(outgoing, 200, { ...framing, ...security }, parts, incoming.headers["accept-encoding"]);
}

/**
 * The common tool call answered as the SDK would answer it; undefined when its caller is not
 * known (no token, a bad one, no database): handleMcpRequest then answers the refusal as always.
 */
async function answerDirectly(
  fast: FastCall,
  message: unknown,
  headers: HeaderReader,
  database: () => Promise<Database>,
): Promise<{ exchange: McpExchange; answer: FastAnswer } | undefined> {
  const exchange: McpExchange = {
    requestId: randomUUID(),
    organizationId: null,
    message: mcpMessageOf(message),
    problem: null,
    tools: [],
  };
  const origin = publicOriginFrom((name) => headers.get(name) ?? undefined);
  let call: McpCall;
  try {
    const db = await database();
    const caller = await bearerAuthenticator(db, headers, { accessTokensFor: origin })();
    call = { db, caller, origin, exchange };
  } catch {
    return undefined;
  }
  // A missing scope is the edge's 403 (handleMcpRequest answers it).
  if (missingScope(message, call.caller.scopes)) return undefined;
  exchange.organizationId = call.caller.organization?.id ?? null;
  return { exchange, answer: fastAnswer(fast, await runTool(fast.definition, fast.args, call)) };
}

/** One log line and the metrics of one request, once its answer is sent. */
function recordExchange(
  method: string,
  status: number,
  exchange: McpExchange,
  body: Uint8Array[] | null,
  durationMs: number,
): void {
  const tool = exchange.tools[0];
  const { message } = exchange;
  // Without a tool of ours, the answer says how it went: a JSON-RPC error, or a tool error the SDK gave.
  const outcome = tool || !message ? { rpcError: null, toolError: null } : rpcOutcomeOf(body);
  const operation = tool?.operation ?? operationOfMessage(message) ?? UNKNOWN_OPERATION;
  const toolError = tool ? tool.isError : outcome.toolError;
  recordApiCall({
    surface: "mcp",
    requestId: exchange.requestId,
    method,
    path: MCP_PATH,
    operation,
    organizationId: exchange.organizationId,
    status,
    problem: exchange.problem ?? tool?.problem ?? null,
    durationMs,
    credits: tool?.credits ?? null,
    mcp: {
      rpcMethod: message?.rpcMethod ?? null,
      tool: tool?.tool ?? message?.tool ?? null,
      toolError,
      toolRequestId: tool?.requestId ?? null,
      rpcError: outcome.rpcError,
    },
    error: exchange.error ?? tool?.error,
  });
  if (message?.rpcMethod === "tools/call")
    serviceMetrics().toolCall(operation, tool ? (tool.problem ?? "ok") : "refused");
}

/** The largest MCP message read: tool calls and their arguments are a few hundred bytes. */
const MCP_BODY_LIMIT = 1024 * 1024;

async function answer(received: Request, database: () => Promise<Database>, exchange: McpExchange): Promise<Response> {
  const request = received;
  let message: unknown = NOT_JSON;
  let body: string | undefined;
  const origin = publicOrigin(request);
  const { requestId } = exchange;
  const fail = (description: ErrorDescription, headers: Record<string, string> = {}) => {
    exchange.problem = description.code;
    return problemResponse(problemOf(description.code, description.detail, { origin, requestId }, description), {
      "Cache-Control": "no-store",
      ...description.headers,
      ...headers,
    });
  };
  if (request.method === "OPTIONS")
    return new Response(null, { status: 204, headers: { Allow: MCP_METHODS.join(", "), "X-Request-Id": requestId } });
  if (!MCP_METHODS.includes(request.method))
    return fail(
      {
        code: "method_not_allowed",
        detail: `${request.method} is not allowed on ${MCP_PATH}; MCP clients POST JSON-RPC messages.`,
      },
      { Allow: MCP_METHODS.join(", ") },
    );
  if (request.method === "POST") {
    body = (await boundedBody(request, MCP_BODY_LIMIT)) ?? undefined;
    // The rest of the body is drained, not cut off: closing on a client still sending would reset
    // the connection before it could read this answer.
    if (body === undefined)
      return fail({
        code: "request_too_large",
        detail: `The MCP message is larger than ${MCP_BODY_LIMIT / 1024 / 1024} MiB.`,
      });
    // Read once: the rest read the parsed message; the SDK, when it is called, gets its own copy.
    message = parsedBody(body);
    exchange.message = mcpMessageOf(message);
  }
  let call: McpCall;
  try {
    const db = await reachDatabase(database, requestId);
    const caller = await bearerAuthenticator(db, request.headers, { accessTokensFor: origin })();
    call = { db, caller, origin, exchange };
  } catch (error) {
    const description = describeError(error);
    if (description.code === "unauthorized") {
      exchange.problem = "unauthorized";
      return challenge(description.detail, origin, requestId, presentsToken(request.headers));
    }
    if (description.code === "internal_error") exchange.error = error;
    exchange.problem = description.code;
    // A JSON-RPC message gets a JSON-RPC error (its id, the problem as data); other methods problem+json.
    if (request.method === "POST")
      return jsonRpcFailure(
        message,
        problemOf(description.code, description.detail, { origin, requestId }, description),
        description.headers,
      );
    return fail(description);
  }
  exchange.organizationId = call.caller.organization?.id ?? null;
  // Every message counts against the rate limit: what no procedure counts is counted here.
  const counted = request.method === "POST" ? messagesCountedAtTheEdge(message) : 1;
  const decision = await countRequests(call.caller, counted).catch(() => null);
  if (decision && !decision.allowed) {
    exchange.problem = "rate_limited";
    const refused = rateLimited(decision.resetSeconds, rateLimitHeaders(decision));
    const problem = problemOf("rate_limited", refused.detail, { origin, requestId });
    return request.method === "POST"
      ? jsonRpcFailure(message, problem, refused.extra.headers)
      : fail({ code: "rate_limited", detail: refused.detail, headers: refused.extra.headers });
  }
  // A call whose token lacks the scope is the client's cue to step up its authorization: 403.
  const lacking = request.method === "POST" ? missingScope(message, call.caller.scopes) : null;
  if (lacking) {
    exchange.problem = "insufficient_scope";
    return stepUpChallenge(message, lacking, origin, requestId);
  }
  const authInfo: AuthInfo = {
    token: bearerToken(request.headers) ?? "",
    clientId: call.caller.credentialId ?? "",
    scopes: [...call.caller.scopes],
    extra: call as unknown as Record<string, unknown>,
  };
  try {
    // The common tool call is answered without an MCP server built for it (fast-call.ts).
    const fast = fastCallOf(request.headers, message);
    if (fast) return fastResponse(fast, await runTool(fast.definition, fast.args, call));
    const forSdk =
      body === undefined
        ? request
        : new Request(request.url, { method: "POST", headers: request.headers, body, signal: request.signal });
    return await mcpHandler(Object.assign(forSdk, { auth: authInfo }));
  } catch (error) {
    // Tools answer their own errors; this is the SDK or transport failing: never a bare 500.
    exchange.error = error;
    const description = describeError(error);
    exchange.problem = description.code;
    return jsonRpcFailure(
      message,
      problemOf(description.code, description.detail, { origin, requestId }),
      description.headers,
    );
  }
}
