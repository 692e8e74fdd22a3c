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
import type { Database } from "../../db/client";
import { authenticateSecret } from "../accounts/tokens";
import { type ApiContext, createApiContext } from "../api/context";
import { MARKET_READ_SCOPE } from "../api/operations";
import { createCaller } from "../api/root";
import { describeError } from "../api/trpc";
import { callerOfHolder } from "../auth/api-token";
import { bearerToken, type Caller } from "../auth/caller";
import { bearerChallenge, unauthorized } from "../errors/api-error";
import { problemOf, problemResponse } from "../errors/problem";
import { authenticateAccessToken, looksLikeJwt } from "../oauth/access-token";
import { protectedResourceMetadataUrl } from "../oauth/resource";
import { publicOrigin } from "../rest/origin";
import { SNAPSHOT_RESOURCE_TEMPLATE } from "./snapshot-html";
import { type EmbeddedResource, TOOLS, type ToolDefinition } from "./tools";
import { CHARTS_RESOURCE_URI, chartsViewHtml } from "./views";

const SERVER_INFO = { name: "market-positioning", version: "1.0.0" };

/** What the edge hands each tool call (through the SDK's AuthInfo.extra). */
interface McpCall {
  db: Database;
  caller: Caller;
  origin: string;
}

export interface ToolResult {
  [key: string]: unknown;
  content: ({ type: "text"; text: string } | EmbeddedResource)[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
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
    const cost = ctx.response.headers["X-Credits-Cost"];
    const remaining = ctx.response.headers["X-Credits-Remaining"];
    return {
      requestId,
      ...(cost !== undefined ? { credits: { cost: Number(cost), remaining: Number(remaining) } } : {}),
    };
  };
  try {
    // Through JSON, as REST sends it: structuredContent is the REST body, value for value.
    const payload = JSON.parse(JSON.stringify(await definition.call(createCaller(ctx), input as never)));
    return {
      structuredContent: payload,
      content: [
        { type: "text", text: definition.render(payload as never) },
        ...(definition.embed?.(payload as never) ?? []),
      ],
      _meta: meta(),
    };
  } catch (error) {
    const trpcError =
      error instanceof TRPCError ? error : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error });
    const problem = describeError(trpcError);
    if (problem.code === "internal_error") console.error(`[mcp] ${requestId} ${definition.name} failed:`, error);
    const body = problemOf(problem.code, problem.detail, { origin: call.origin, requestId }, problem);
    return {
      isError: true,
      content: [{ type: "text", text: JSON.stringify(body) }],
      _meta: { ...meta(), problem: body },
    };
  }
}

const mcpHandler = createMcpHandler(
  (server) => {
    for (const definition of TOOLS) {
      const config = {
        title: definition.title,
        description: definition.description,
        inputSchema: definition.input,
        outputSchema: definition.output,
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
        description: "The snapshot of one market as a readable HTML table with bands and methodology. Costs 5 credits.",
        mimeType: "text/html",
      },
      async (uri, variables, ctx) => {
        const snapshot = TOOLS.find((t) => t.name === "service_market_get_snapshot") as ToolDefinition;
        const result = await runTool(
          snapshot,
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
  { serverInfo: SERVER_INFO },
);

/**
 * 401 for /mcp: problem+json, with the Bearer challenge MCP clients start OAuth from (RFC 9728
 * §5.1): where the resource's metadata is and which scope to ask for.
 */
function challenge(detail: string, origin: string, tokenPresented: boolean): Response {
  const error = unauthorized(detail);
  const params: Record<string, string> = {
    resource_metadata: protectedResourceMetadataUrl(origin),
    scope: MARKET_READ_SCOPE,
    ...(tokenPresented ? { error: "invalid_token", error_description: detail } : {}),
  };
  return problemResponse(problemOf(error.problemCode, error.detail, { origin, requestId: randomUUID() }), {
    "Cache-Control": "no-store",
    "WWW-Authenticate": bearerChallenge(params),
  });
}

/** The caller behind a bearer token: an API token from the dashboard or one of our OAuth access tokens. */
async function authenticateBearer(
  db: Database,
  token: string,
  origin: string,
): Promise<{ ok: true; caller: Caller } | { ok: false; reason: string }> {
  if (looksLikeJwt(token)) return authenticateAccessToken(db, token, origin);
  const check = await authenticateSecret(db, token);
  return check.ok ? { ok: true, caller: callerOfHolder(check.holder) } : check;
}

export async function handleMcpRequest(request: Request, database: () => Promise<Database>): Promise<Response> {
  const origin = publicOrigin(request);
  let db: Database;
  try {
    db = await database();
  } catch (error) {
    console.error("[mcp] database unavailable:", error);
    return problemResponse(
      problemOf("unavailable", "The database is unreachable; retry shortly.", { origin, requestId: randomUUID() }),
      { "Retry-After": "5", "Cache-Control": "no-store" },
    );
  }
  const token = bearerToken(request.headers);
  if (!token)
    return challenge(
      token === null
        ? "Send Authorization: Bearer <token> with an API token or an OAuth access token."
        : "The Authorization header must be: Bearer <token>.",
      origin,
      token === "",
    );
  const check = await authenticateBearer(db, token, origin);
  if (!check.ok) return challenge(check.reason, origin, true);
  const caller = check.caller;
  const call: McpCall = { db, caller, origin };
  const authInfo: AuthInfo = {
    token,
    clientId: caller.credentialId ?? "",
    scopes: [...caller.scopes],
    extra: call as unknown as Record<string, unknown>,
  };
  return mcpHandler(Object.assign(request, { auth: authInfo }));
}
