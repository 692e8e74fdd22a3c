/**
 * The HTTP edge of /mcp (Streamable HTTP, stateless), the MCP room's one entry, straight from
 * Node's request to Node's response in development as in production (server/9-routing/api-routes.ts).
 * A line, each step in its own file, entered once per request:
 *
 * 1. read the request once (exchange.ts: its body bounded, its message parsed, what it asks for);
 * 2. refuse here what is refused before any message runs: a method MCP does not use, a body too
 *    large, a token that does not authenticate (problem+json with a Bearer challenge), the rate
 *    limit (what no procedure counts is counted here), a scope the message needs;
 * 3. answer the message (answer.ts: a plain tool call by the edge's own path, else the SDK server);
 * 4. send the answer and, once it is sent, write the request's log line (record.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database } from "../../db/client";
import { MARKET_READ_SCOPE } from "../1-domain/operations";
import { bearerChallenge, insufficientScope, rateLimited, unauthorized } from "../1-errors/api-error";
import { describeError, type ErrorDescription } from "../1-errors/describe";
import { publicOriginFrom } from "../2-http/origin";
import { MCP_PATH } from "../2-http/paths";
import { type Problem, problemOf, problemResponse } from "../2-http/problem";
import { protectedResourceMetadataUrl } from "../2-http/protected-resource";
import { apiSecurityHeaders, arrivedOverTls, withApiSecurityHeaders } from "../2-http/security-headers";
import { rateLimitHeaders } from "../3-limits/rate-limiter";
import { sendDocument, sendFetchResponse } from "../5-http-server/fetch-bridge";
import { bearerAuthenticator, presentsToken } from "../6-auth/bearer";
import { reachDatabase } from "../7-procedures/context";
import { countRequests } from "../7-procedures/trpc";
import { answerMcpMessage } from "./answer";
import type { McpCall, McpExchange } from "./call";
import { MCP_BODY_LIMIT, type McpRequest, readMcpRequest } from "./exchange";
import type { FastAnswer } from "./fast-call";
import { recordExchange, whenSent } from "./record";
import { missingScope } from "./scope-check";

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

/** /mcp from Node's request to Node's response: read, refused or answered, sent, recorded. */
export async function serveMcpRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  origin: string,
  database: () => Promise<Database>,
): Promise<void> {
  const request = await readMcpRequest(incoming, outgoing, origin);
  await sendAnswer(request, await answerMcpRequest(request, database));
}

/** Writes the answer, with the API's security headers, and the request's log line once it is sent. */
async function sendAnswer(request: McpRequest, answer: Response | FastAnswer): Promise<void> {
  const { method, exchange, incoming, outgoing, started } = request;
  const acceptEncoding = incoming.headers["accept-encoding"];
  if (answer instanceof Response) {
    const secured = withApiSecurityHeaders(request, answer);
    const response = whenSent(secured, (sent) =>
      recordExchange(method, secured.status, exchange, sent, performance.now() - started),
    );
    await sendFetchResponse(response, outgoing, method, acceptEncoding);
    return;
  }
  outgoing.once("close", () => recordExchange(method, 200, exchange, null, performance.now() - started));
  const overTls = arrivedOverTls(request.url, request.headers.get("x-forwarded-proto"));
  await sendDocument(outgoing, 200, securedFastHeaders(answer.headers, overTls), answer.parts, acceptEncoding);
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
): Promise<Response | FastAnswer> {
  const { exchange, message } = request;
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
  if (request.tooLarge)
    return refusal(exchange, origin, {
      code: "request_too_large",
      detail: `The MCP message is larger than ${MCP_BODY_LIMIT / 1024 / 1024} MiB.`,
    });
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
  const counted = request.countedAtTheEdge;
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
    return await answerMcpMessage(request, call);
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
