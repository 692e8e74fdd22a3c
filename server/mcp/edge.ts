/**
 * The HTTP edge of /mcp (Streamable HTTP, stateless), straight from Node's request to Node's
 * response in development as in production (server/routing/api-routes.ts): it reads a POST's
 * message once, authenticates the bearer token (failures are problem+json with a Bearer
 * challenge), counts what no procedure counts against the rate limit, checks the scope, and then
 * answers in one of two ways, decided here and nowhere else: a plain tool call (fast-call.ts) by
 * `runTool` (results.ts) framed as the SDK frames it, with no Fetch Request, MCP server or stream
 * built for it; every other message by the SDK's server (server.ts), whose tools run the same
 * `runTool`. record.ts writes the request's log line once the answer is sent.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { Database } from "../../db/client";
import { bearerAuthenticator, presentsToken } from "../auth/bearer";
import { bearerToken, type HeaderReader } from "../auth/caller";
import { MARKET_READ_SCOPE } from "../domain/operations";
import { bearerChallenge, insufficientScope, rateLimited, unauthorized } from "../errors/api-error";
import { describeError, type ErrorDescription } from "../errors/describe";
import { nodeHeaders } from "../http/node-headers";
import { publicOriginFrom, stampedOrigin } from "../http/origin";
import { MCP_PATH } from "../http/paths";
import { type Problem, problemOf, problemResponse } from "../http/problem";
import { protectedResourceMetadataUrl } from "../http/protected-resource";
import { apiSecurityHeaders, arrivedOverTls, withApiSecurityHeaders } from "../http/security-headers";
import { fetchRequestOf, sendDocument, sendFetchResponse } from "../http-server/fetch-bridge";
import { rateLimitHeaders } from "../limits/rate-limiter";
import { reachDatabase } from "../procedures/context";
import { countRequests } from "../procedures/trpc";
import type { McpCall, McpExchange } from "./call";
import { boundedBody, mcpMessageOf, messagesCountedAtTheEdge, NOT_JSON, parsedBody, whenSent } from "./exchange";
import { type FastAnswer, fastAnswer, fastCallOf } from "./fast-call";
import { recordExchange } from "./record";
import { runCheckedTool } from "./results";
import { missingScope } from "./scope-check";
import { mcpHandler } from "./server";

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
/** The largest MCP message read: tool calls and their arguments are a few hundred bytes. */
const MCP_BODY_LIMIT = 1024 * 1024;

/** What the edge reads of a request: Node's message seen through a small view, its POST body read once. */
interface McpRequest {
  method: string;
  /** The absolute URL, at the origin the server gave it (the public one comes from headers). */
  url: string;
  headers: HeaderReader;
  /** The public origin, when our server's door decided it already (server/http/origin.ts stampOrigin). */
  origin?: string;
  /** A POST's body; undefined when it was larger than MCP_BODY_LIMIT. */
  body?: Buffer;
  /** The message as Node gave it, and its response: the SDK's Fetch request is made of them only when the SDK answers. */
  incoming: IncomingMessage;
  outgoing: ServerResponse;
  /** The origin the server gave the request. */
  serverOrigin: string;
}

/** The request as the SDK takes it, with a signal for a client that leaves: built only when the SDK answers. */
function sdkRequestOf(request: McpRequest): Request {
  const { outgoing } = request;
  const abort = new AbortController();
  const left = () => {
    if (!outgoing.writableFinished) abort.abort();
  };
  // A client that left before now is told at once; one that leaves later, when it does.
  if (outgoing.closed) left();
  else outgoing.once("close", left);
  return fetchRequestOf(request.incoming, request.serverOrigin, abort.signal, request.body);
}

/** The security headers of a plain tool call's answer, by its framing and whether it came over TLS: made once each. */
const fastHeaders = new Map<Record<string, string>, [Record<string, string>, Record<string, string>]>();

function securedFastHeaders(headers: Record<string, string>, overTls: boolean): Record<string, string> {
  let made = fastHeaders.get(headers);
  if (!made && fastHeaders.size >= 8) return { ...headers, ...apiSecurityHeaders(overTls) };
  if (!made) {
    made = [
      { ...headers, ...apiSecurityHeaders(false) },
      { ...headers, ...apiSecurityHeaders(true) },
    ];
    fastHeaders.set(headers, made);
  }
  return made[overTls ? 1 : 0];
}

/** /mcp from Node's request to Node's response: the edge's answer written, the request's log line recorded once it is sent. */
export async function serveMcpRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  origin: string,
  database: () => Promise<Database>,
): Promise<void> {
  const started = performance.now();
  const method = incoming.method ?? "GET";
  const exchange: McpExchange = {
    requestId: randomUUID(),
    organizationId: null,
    message: null,
    problem: null,
    tools: [],
  };
  const request: McpRequest = {
    method,
    url: `${origin}${incoming.url ?? "/"}`,
    headers: nodeHeaders(incoming),
    origin: stampedOrigin(incoming),
    body: method === "POST" ? ((await boundedBody(incoming, MCP_BODY_LIMIT)) ?? undefined) : undefined,
    incoming,
    outgoing,
    serverOrigin: origin,
  };
  const answered = await answerMcpRequest(request, database, exchange);
  const acceptEncoding = incoming.headers["accept-encoding"];
  if (answered instanceof Response) {
    const secured = withApiSecurityHeaders(request, answered);
    const response = whenSent(secured, (sent) =>
      recordExchange(method, secured.status, exchange, sent, performance.now() - started),
    );
    await sendFetchResponse(response, outgoing, method, acceptEncoding);
    return;
  }
  outgoing.once("close", () => recordExchange(method, 200, exchange, null, performance.now() - started));
  const overTls = arrivedOverTls(request.url, request.headers.get("x-forwarded-proto"));
  await sendDocument(outgoing, 200, securedFastHeaders(answered.headers, overTls), answered.parts, acceptEncoding);
}

/** A refusal of the edge's own as problem+json, its code told to the exchange. */
function refusal(
  exchange: McpExchange,
  origin: string,
  description: ErrorDescription,
  headers: Record<string, string> = {},
): Response {
  exchange.problem = description.code;
  const { requestId } = exchange;
  return problemResponse(problemOf(description.code, description.detail, { origin, requestId }, description), {
    "Cache-Control": "no-store",
    ...description.headers,
    ...headers,
  });
}

/** The edge's answer to one request: a plain tool call's answer in parts, or a Response (the SDK's, or a refusal). */
async function answerMcpRequest(
  request: McpRequest,
  database: () => Promise<Database>,
  exchange: McpExchange,
): Promise<Response | FastAnswer> {
  let message: unknown = NOT_JSON;
  const origin = request.origin ?? publicOriginFrom((name) => request.headers.get(name) ?? undefined);
  const { requestId } = exchange;
  if (request.method === "OPTIONS")
    return new Response(null, { status: 204, headers: { Allow: MCP_METHODS.join(", "), "X-Request-Id": requestId } });
  if (!MCP_METHODS.includes(request.method))
    return refusal(
      exchange,
      origin,
      {
        code: "method_not_allowed",
        detail: `${request.method} is not allowed on ${MCP_PATH}; MCP clients POST JSON-RPC messages.`,
      },
      { Allow: MCP_METHODS.join(", ") },
    );
  if (request.method === "POST") {
    if (request.body === undefined)
      return refusal(exchange, origin, {
        code: "request_too_large",
        detail: `The MCP message is larger than ${MCP_BODY_LIMIT / 1024 / 1024} MiB.`,
      });
    message = parsedBody(request.body.toString("utf8"));
    exchange.message = mcpMessageOf(message);
  }
  let call: McpCall;
  try {
    const db = await reachDatabase(database, requestId);
    const caller = await bearerAuthenticator(db, request.headers, { accessTokensFor: origin })();
    call = { db, caller, authenticated: () => Promise.resolve(caller), origin, exchange };
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
    return refusal(exchange, origin, description);
  }
  exchange.organizationId = call.caller.organization?.id ?? null;
  // Every message counts against the rate limit: what no procedure counts is counted here (a
  // tool call is counted by its procedure).
  const counted = request.method === "POST" ? messagesCountedAtTheEdge(message) : 1;
  const decision = counted > 0 ? await countRequests(call.caller, counted).catch(() => null) : null;
  if (decision && !decision.allowed) {
    exchange.problem = "rate_limited";
    const refused = rateLimited(decision.resetSeconds, rateLimitHeaders(decision));
    const problem = problemOf("rate_limited", refused.detail, { origin, requestId });
    return request.method === "POST"
      ? jsonRpcFailure(message, problem, refused.extra.headers)
      : refusal(exchange, origin, { code: "rate_limited", detail: refused.detail, headers: refused.extra.headers });
  }
  // A call whose token lacks the scope is the client's cue to step up its authorization: 403.
  const lacking = request.method === "POST" ? missingScope(message, call.caller.scopes) : null;
  if (lacking) {
    exchange.problem = "insufficient_scope";
    return stepUpChallenge(message, lacking, origin, requestId);
  }
  try {
    // A plain tool call is answered without an MCP server built for it (fast-call.ts).
    const fast = fastCallOf(request.headers, message);
    if (fast) return fastAnswer(fast, await runCheckedTool(fast.definition, fast.args, call));
    const authInfo: AuthInfo = {
      token: bearerToken(request.headers) ?? "",
      clientId: call.caller.credentialId ?? "",
      scopes: [...call.caller.scopes],
      extra: call as unknown as Record<string, unknown>,
    };
    return await mcpHandler(Object.assign(sdkRequestOf(request), { auth: authInfo }));
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
