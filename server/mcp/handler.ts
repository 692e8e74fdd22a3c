/**
 * The MCP endpoint (/mcp, Streamable HTTP, stateless). The HTTP edge authenticates the bearer
 * token and answers failures as problem+json with a Bearer challenge; each tool then runs its tRPC
 * procedure through a server-side caller acting as that caller, so REST and MCP share every rule.
 */
import { randomUUID } from "node:crypto";
import { RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import { type AuthInfo, ProtocolError, ProtocolErrorCode, ResourceTemplate } from "@modelcontextprotocol/server";
import { TRPCError } from "@trpc/server";
import { createMcpHandler } from "mcp-handler";
import type { z } from "zod";
import type { Database } from "../../db/client";
import { bearerAuthenticator, presentsToken } from "../auth/bearer";
import { bearerToken, type Caller } from "../auth/caller";
import { MARKET_READ_SCOPE, priceSentence } from "../domain/operations";
import { bearerChallenge, unauthorized } from "../errors/api-error";
import type { ErrorCode } from "../errors/codes";
import { describeError, type ErrorDescription } from "../errors/describe";
import { publicOrigin } from "../http/origin";
import { MCP_PATH } from "../http/paths";
import { type Problem, problemOf, problemResponse } from "../http/problem";
import { protectedResourceMetadataUrl } from "../http/protected-resource";
import { withApiSecurityHeaders } from "../http/security-headers";
import { recordApiCall, UNKNOWN_OPERATION } from "../observability/calls";
import { serviceMetrics } from "../observability/metrics";
import { type ApiContext, createApiContext, reachDatabase } from "../procedures/context";
import { snapshot } from "../procedures/operations";
import { SNAPSHOT_RESOURCE_TEMPLATE } from "../procedures/operations/snapshot-html";
import { createCaller } from "../procedures/root";
import { toolNamer, withSeeAlso } from "../procedures/see-also";
import { SERIALIZED_JSON } from "../procedures/validated-once";
import type { Page } from "../readings/narrowing";
import { pageNote, withinBudget } from "./budget";
import { boundedBody, type McpMessage, mcpMessageOf, operationOfMessage, rpcOutcomeOf, whenSent } from "./exchange";
import { SERVER_INFO } from "./identity";
import { MCP_INSTRUCTIONS } from "./instructions";
import { compactInput, outlineSchema } from "./schema-outline";
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
  content: ({ type: "text"; text: string } | EmbeddedResource)[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

type ToolContent = ToolResult["content"];

/**
 * A reading validated once (server/procedures/validated-once.ts) is the same object on every call,
 * so what a tool makes of it — the payload as JSON gives it, its text and its embedded HTML — is
 * made once per reading too, not on every call (a CPU profile of snapshot tool calls spent more on
 * that than on the procedure). Kept by identity of the reading and the tool; never mutated.
 */
const madeOnce = new WeakMap<object, Map<ToolDefinition, { payload: Record<string, unknown>; content: ToolContent }>>();

/** A tool's content for a payload: its text (saying which part of a reading it holds) and embedded resources. */
function contentOf(definition: ToolDefinition, payload: Record<string, unknown>): ToolContent {
  const note = definition.narrowing
    ? pageNote(definition.name, payload.page as Page | undefined, definition.narrowing.columns !== undefined)
    : "";
  return [
    { type: "text", text: `${definition.render(payload as never)}${note}` },
    ...(definition.embed?.(payload as never) ?? []),
  ];
}

function resultOf(definition: ToolDefinition, output: Record<PropertyKey, unknown>) {
  const immutable = typeof output[SERIALIZED_JSON] === "string";
  const known = immutable ? madeOnce.get(output)?.get(definition) : undefined;
  if (known) return known;
  // Through JSON, as REST sends it: structuredContent is the REST body, value for value.
  const json = immutable ? (output[SERIALIZED_JSON] as string) : JSON.stringify(output);
  const parsed = markValidated(JSON.parse(json) as Record<string, unknown>);
  // A reading of every product answers the part of it that fits the token budget.
  const made = definition.narrowing
    ? (() => {
        const { payload, result } = withinBudget(parsed, definition.narrowing, (candidate) => ({
          structuredContent: candidate,
          content: contentOf(definition, candidate),
        }));
        return { payload: markValidated(payload), content: result.content };
      })()
    : { payload: parsed, content: contentOf(definition, parsed) };
  if (immutable) {
    const byTool = madeOnce.get(output) ?? new Map();
    byTool.set(definition, made);
    madeOnce.set(output, byTool);
  }
  return made;
}

/** Runs one tool as its caller: the same procedure, checks and credits as REST. */
export async function runTool(definition: ToolDefinition, input: unknown, call: McpCall): Promise<ToolResult> {
  const requestId = randomUUID();
  const ctx: ApiContext = createApiContext({
    db: call.db,
    headers: new Headers(),
    requestId,
    origin: call.origin,
    authenticate: async () => call.caller,
  });
  const meta = () => {
    const credits = ctx.facts.credits;
    return { requestId, ...(credits ? { credits: { cost: credits.cost, remaining: credits.balance } } : {}) };
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
    const { payload, content } = resultOf(definition, output);
    told(null);
    return { structuredContent: payload, content: [...content], _meta: meta() };
  } catch (error) {
    const trpcError =
      error instanceof TRPCError ? error : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error });
    const problem = withSeeAlso(describeError(trpcError), toolNamer);
    told(problem.code, error);
    const body = problemOf(problem.code, problem.detail, { origin: call.origin, requestId }, problem);
    return {
      isError: true,
      content: [{ type: "text", text: JSON.stringify(body) }],
      _meta: { ...meta(), problem: body },
    };
  }
}

/** Each tool's schemas, converted to JSON Schema once for every server built (tool-schemas.ts), outputs outlined (schema-outline.ts). */
const TOOL_SCHEMAS = new Map(
  TOOLS.map((definition) => [
    definition,
    { input: convertedOnce(definition.input, compactInput), output: convertedOnce(definition.output, outlineSchema) },
  ]),
);

const mcpHandler = createMcpHandler(
  (server) => {
    for (const definition of TOOLS) {
      const schemas = TOOL_SCHEMAS.get(definition) as { input: z.ZodObject; output: z.ZodType };
      const config = {
        title: definition.title,
        description: definition.description,
        inputSchema: schemas.input,
        outputSchema: schemas.output,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
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
      async () => ({ contents: [{ uri: CHARTS_RESOURCE_URI, mimeType: RESOURCE_MIME_TYPE, text: chartsViewHtml() }] }),
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

/** JSON-RPC's code for a server error outside the protocol's own (the SDK uses it for transport errors). */
const SERVER_ERROR = -32000;

/**
 * A failure before the message reached the MCP server (the database unreachable while checking
 * the token, say), as the JSON-RPC error of the message's id: clients read it like any error, and
 * `data` is the problem with its stable code. The HTTP status stays the problem's (503 + Retry-After).
 */
async function jsonRpcFailure(request: Request, problem: Problem, headers: Record<string, string> = {}) {
  let id: unknown = null;
  try {
    const message = JSON.parse(await request.text()) as unknown;
    const first = Array.isArray(message) ? message[0] : message;
    if (first && typeof first === "object" && "id" in first) id = (first as { id: unknown }).id ?? null;
  } catch {
    // not JSON: the error has no id
  }
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
    recordExchange(request, response.status, exchange, body, performance.now() - started),
  );
}

/** One log line and the metrics of one request, once its answer is sent. */
function recordExchange(
  request: Request,
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
    method: request.method,
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
  let request = received;
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
    const body = await boundedBody(request, MCP_BODY_LIMIT);
    // The rest of the body is drained, not cut off: closing on a client still sending would reset
    // the connection before it could read this answer.
    if (body === null)
      return fail({
        code: "request_too_large",
        detail: `The MCP message is larger than ${MCP_BODY_LIMIT / 1024 / 1024} MiB.`,
      });
    request = new Request(request.url, { method: "POST", headers: request.headers, body, signal: request.signal });
  }
  exchange.message = await mcpMessageOf(request);
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
        request,
        problemOf(description.code, description.detail, { origin, requestId }, description),
        description.headers,
      );
    return fail(description);
  }
  exchange.organizationId = call.caller.organization?.id ?? null;
  const authInfo: AuthInfo = {
    token: bearerToken(request.headers) ?? "",
    clientId: call.caller.credentialId ?? "",
    scopes: [...call.caller.scopes],
    extra: call as unknown as Record<string, unknown>,
  };
  try {
    return await mcpHandler(Object.assign(request, { auth: authInfo }));
  } catch (error) {
    // Tools answer their own errors; this is the SDK or transport failing: never a bare 500.
    exchange.error = error;
    const description = describeError(error);
    exchange.problem = description.code;
    return jsonRpcFailure(
      request,
      problemOf(description.code, description.detail, { origin, requestId }),
      description.headers,
    );
  }
}
