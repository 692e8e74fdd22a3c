/**
 * The HTTP edge of /v1. trpc-to-openapi routes a GET to its procedure; around it this owns what
 * is HTTP's: request ids, HEAD and OPTIONS, 405 with Allow, 304 for a current ETag, the call's
 * facts said as headers (ETag, caching, credits, rate limit), the security headers, and one error
 * format — RFC 9457 problem+json with a stable code — for every failure, including unknown paths.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database } from "../../db/client";
import type { Download } from "../1-domain/download";
import { describeError, type ErrorDescription } from "../1-errors/describe";
import {
  compressedHeaders,
  compressNamedBody,
  headerValue,
  isCompressible,
  negotiateEncoding,
} from "../2-http/compression";
import { nodeHeaders } from "../2-http/node-headers";
import { publicOriginFrom, stampedOrigin } from "../2-http/origin";
import { problemHeaders, problemOf } from "../2-http/problem";
import { apiSecurityHeaders, arrivedOverTls } from "../2-http/security-headers";
import { requestLimits } from "../3-limits/request-limits";
import { recordApiCall, UNKNOWN_OPERATION } from "../3-observability/calls";
import { errorMessage, log } from "../3-observability/logger";
import { addStage, endCall, timingStages } from "../3-observability/stages";
import { downloadHeaders, sendDownload } from "../5-http-server/download-stream";
import { bearerAuthenticator, presentsToken } from "../6-auth/bearer";
import type { HeaderReader } from "../6-auth/caller";
import { type CallFacts, createApiContext, reachDatabase } from "../7-procedures/context";
import { type OperationNamer, withSeeAlso } from "../7-procedures/see-also";
import { answerBytes } from "../7-procedures/validated-once";
import { dispatchFound, findRestRoute } from "./dispatch";
import { factHeaders } from "./fact-headers";
import { openApiJson } from "./openapi";
import { ALLOWED_METHODS, API_PREFIX, isApiPath, operationOfPath } from "./routes";

/** Every answer varies by who asks and, compressed or not, by the codings they accept. */
const COMMON_HEADERS = { Vary: "Authorization, Accept-Encoding" };

/** What every /v1 failure says besides its problem: never cached, varies by token, and its own headers. */
export const failureHeaders = (description: ErrorDescription): Record<string, string> => ({
  ...COMMON_HEADERS,
  "Cache-Control": "no-store",
  ...description.headers,
});

/** What the edge reads of a request: a small view of Node's message (no Fetch `Request` is built). */
export interface RestRequest {
  method: string;
  /** The absolute URL, at the origin the server gave it (the public one comes from headers). */
  url: string;
  headers: HeaderReader;
  /** The public origin, when our server's door decided it already (server/2-http/origin.ts stampOrigin). */
  origin?: string;
}

/** The edge's answer before any server writes it: a JSON or problem+json text, or no body, or a file to stream. */
export interface RestAnswer {
  status: number;
  headers: Record<string, string>;
  /** Text, or bytes (a kept answer's JSON, encoded once: server/7-procedures/validated-once.ts). */
  body: string | Buffer | null;
  /** A file answered instead of `body` (a release export), written as it is sent. */
  download?: Download;
}

/** What the edge learns of one call, for its log line and metrics. */
interface RestCall {
  requestId: string;
  /** The URL's path (set as soon as it is parsed). */
  path?: string;
  facts?: CallFacts;
  problem?: ErrorDescription["code"];
  error?: unknown;
}

/** One /v1 call answered, its security headers set, its log line and metrics recorded. */
export async function answerRestRequest(request: RestRequest, database: () => Promise<Database>): Promise<RestAnswer> {
  const started = performance.now();
  const requestUrl = new URL(request.url);
  if (requestUrl.pathname === OPENAPI_PATH) return answerOpenApiRequest(request);
  const call: RestCall = { requestId: randomUUID() };
  const answered = await answer(request, requestUrl, database, call);
  Object.assign(
    answered.headers,
    apiSecurityHeaders(arrivedOverTls(request.url, request.headers.get("x-forwarded-proto"))),
  );
  const path = call.path ?? "";
  const logging = performance.now();
  const operation = call.facts?.operation ?? operationOfPath(path.slice(API_PREFIX.length)) ?? UNKNOWN_OPERATION;
  recordApiCall({
    surface: "rest",
    requestId: call.requestId,
    method: request.method,
    path,
    operation,
    organizationId: call.facts?.organizationId ?? null,
    status: answered.status,
    problem: call.problem ?? null,
    durationMs: logging - started,
    credits: call.facts?.credits ?? null,
    error: call.error,
  });
  if (timingStages)
    endCall(call.facts ?? call, `${operation} ${answered.status}`, logging - started, performance.now() - logging);
  return answered;
}

/**
 * /v1 straight from Node's request to Node's response, in development as in production
 * (server/9-routing/api-routes.ts): no Fetch `Request`, `Headers` or `Response` is built for a call.
 */
export async function serveRestRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  origin: string,
  database: () => Promise<Database>,
): Promise<void> {
  const method = incoming.method ?? "GET";
  const { status, headers, body, download } = await answerRestRequest(
    { method, url: `${origin}${incoming.url ?? "/"}`, headers: nodeHeaders(incoming), origin: stampedOrigin(incoming) },
    database,
  );
  const coding = negotiateEncoding(incoming.headers["accept-encoding"]);
  // A HEAD sends no file: its download place is free at once.
  if (method === "HEAD") download?.done?.();
  if (download && method !== "HEAD") {
    await sendDownload(outgoing, status, headers, download, coding, requestLimits().exportStallMs).catch(
      (error: unknown) =>
        // The answer was under way: the call is logged as answered; this says it did not arrive whole.
        log().warn({ requestId: headers["X-Request-Id"], error: errorMessage(error) }, "rest: a download was cut off"),
    );
    return;
  }
  const length = body === null ? 0 : typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  if (body === null || method === "HEAD") {
    // A HEAD answers with the headers its GET would have (a 304 too: the validator the client holds).
    const compressed = coding && (status === 304 || isCompressible(headerValue(headers, "content-type"), length));
    outgoing.writeHead(status, compressed ? compressedHeaders(headers, coding) : headers).end();
    return;
  }
  if (coding && isCompressible(headerValue(headers, "content-type"), length)) {
    const bytes = await compressNamedBody(body, coding, headerValue(headers, "etag"));
    outgoing.writeHead(status, { ...compressedHeaders(headers, coding), "Content-Length": String(bytes.byteLength) });
    outgoing.end(bytes);
    return;
  }
  headers["Content-Length"] = String(length);
  outgoing.writeHead(status, headers).end(body);
}

/** REST names an operation an error points to by its path: "GET /v1/geographies". */
const restNamer: OperationNamer = (declaration) => `GET ${API_PREFIX}${declaration.path}`;

async function answer(
  request: RestRequest,
  requestUrl: URL,
  database: () => Promise<Database>,
  call: RestCall,
): Promise<RestAnswer> {
  const { requestId } = call;
  const origin = request.origin ?? publicOriginFrom((name) => request.headers.get(name) ?? undefined);
  call.path = requestUrl.pathname;
  const path = requestUrl.pathname.slice(API_PREFIX.length) || "/";
  const fail = (description: ErrorDescription, headers: Record<string, string> = {}): RestAnswer => {
    call.problem = description.code;
    const problem = problemOf(description.code, description.detail, { origin, requestId }, description);
    return {
      status: problem.status,
      headers: problemHeaders(problem, { ...failureHeaders(description), ...headers }),
      body: JSON.stringify(problem),
    };
  };

  // The route is found once, here, and used for the 405, the early 401 and the dispatch.
  const found = findRestRoute(path);
  const known = found !== undefined || isApiPath(path);
  if (request.method === "OPTIONS" && known)
    return { status: 204, headers: { Allow: ALLOWED_METHODS, "X-Request-Id": requestId }, body: null };
  if (request.method !== "GET" && request.method !== "HEAD")
    return known
      ? fail(
          { code: "method_not_allowed", detail: `${request.method} is not allowed on ${API_PREFIX}${path}; use GET.` },
          { Allow: ALLOWED_METHODS },
        )
      : fail({ code: "not_found", detail: `No such path: ${API_PREFIX}${path}.` });

  let db: Database;
  try {
    db = await reachDatabase(database, requestId);
  } catch (error) {
    return fail(describeError(error));
  }

  // No token at all on an operation's path: every procedure's first answer is this 401 (before
  // its input, its scope or anything else), so it is given here, before the routing and the
  // procedure run — with the same problem, headers and log line.
  const operation = presentsToken(request.headers) ? undefined : found?.route.operation;
  if (operation) {
    call.facts = { notModified: false, operation: operation.name };
    const authenticating = performance.now();
    const refusal = await bearerAuthenticator(db, request.headers)().then(
      () => undefined,
      (error: unknown) => error,
    );
    addStage(call.facts, "authentication", performance.now() - authenticating);
    if (refusal) {
      call.error = refusal;
      return fail(withSeeAlso(describeError(refusal), restNamer), factHeaders(call.facts, false));
    }
  }

  const context = createApiContext({
    db,
    headers: request.headers,
    requestId,
    origin,
    authenticate: bearerAuthenticator(db, request.headers),
    sendsFiles: true,
  });
  call.facts = context.facts;
  const dispatched = await dispatchFound(found, requestUrl.searchParams, context);

  if (dispatched.kind !== "answered") {
    context.facts.download?.done?.();
    if (dispatched.kind === "no-route")
      return fail({ code: "not_found", detail: `No such path: ${API_PREFIX}${path}.` });
    call.error = dispatched.error.cause ?? dispatched.error;
    return fail(withSeeAlso(describeError(dispatched.error), restNamer), factHeaders(context.facts, false));
  }

  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    ...factHeaders(context.facts, true),
    "X-Request-Id": requestId,
    ...COMMON_HEADERS,
  };
  if (context.facts.notModified) {
    delete headers["Content-Type"];
    return { status: 304, headers, body: null };
  }
  const { download } = context.facts;
  if (download) return { status: 200, headers: { ...headers, ...downloadHeaders(download) }, body: null, download };
  // A HEAD's body is its GET's, for the headers it implies (length, coding); it is never sent.
  return { status: 200, headers, body: answerBytes(dispatched.data) };
}

/** The OpenAPI document's operation name in logs and metrics (it is no procedure). */
export const OPENAPI_OPERATION = "openapi.document";

const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/** GET /v1/openapi.json: the document, public and free; any other method the 405 of the rest of /v1. */
function answerOpenApiRequest(request: RestRequest): RestAnswer {
  const started = performance.now();
  const origin = request.origin ?? publicOriginFrom((name) => request.headers.get(name) ?? undefined);
  const requestId = randomUUID();
  const allowed = request.method === "GET" || request.method === "HEAD";
  const problem = allowed
    ? undefined
    : problemOf("method_not_allowed", `${request.method} is not allowed on ${OPENAPI_PATH}; use GET.`, {
        origin,
        requestId,
      });
  recordApiCall({
    surface: "rest",
    requestId,
    method: request.method,
    path: OPENAPI_PATH,
    operation: OPENAPI_OPERATION,
    organizationId: null,
    status: problem?.status ?? 200,
    problem: problem ? "method_not_allowed" : null,
    durationMs: performance.now() - started,
    credits: null,
  });
  if (problem)
    return {
      status: problem.status,
      headers: problemHeaders(problem, { Allow: ALLOWED_METHODS, "Cache-Control": "no-store" }),
      body: JSON.stringify(problem),
    };
  return {
    status: 200,
    headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" },
    body: request.method === "HEAD" ? null : openApiJson(origin),
  };
}
