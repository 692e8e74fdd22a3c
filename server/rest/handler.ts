/**
 * The HTTP edge of /v1. trpc-to-openapi routes a GET to its procedure; around it this owns what
 * is HTTP's: request ids, HEAD and OPTIONS, 405 with Allow, 304 for a current ETag, the call's
 * facts said as headers (ETag, caching, credits, rate limit), the security headers, and one error
 * format — RFC 9457 problem+json with a stable code — for every failure, including unknown paths.
 */
import { randomUUID } from "node:crypto";
import type { Database } from "../../db/client";
import { bearerAuthenticator } from "../auth/bearer";
import { describeError, type ErrorDescription } from "../errors/describe";
import { publicOrigin } from "../http/origin";
import { problemOf, problemResponse } from "../http/problem";
import { withApiSecurityHeaders } from "../http/security-headers";
import { recordApiCall, UNKNOWN_OPERATION } from "../observability/calls";
import { type CallFacts, createApiContext, reachDatabase } from "../procedures/context";
import { factHeaders } from "./fact-headers";
import { openApiJson } from "./openapi";
import { dispatchOpenApi, type OpenApiRun } from "./openapi-dispatch";
import { ALLOWED_METHODS, API_PREFIX, isApiPath, operationOfPath, withoutInheritedNames } from "./routes";

const COMMON_HEADERS = { Vary: "Authorization" };

/** What every /v1 failure says besides its problem: never cached, varies by token, and its own headers. */
export const failureHeaders = (description: ErrorDescription): Record<string, string> => ({
  ...COMMON_HEADERS,
  "Cache-Control": "no-store",
  ...description.headers,
});

/** What the edge learns of one call, for its log line and metrics. */
interface RestCall {
  requestId: string;
  /** The URL's path (set as soon as it is parsed). */
  path?: string;
  facts?: CallFacts;
  problem?: ErrorDescription["code"];
  error?: unknown;
}

export async function handleRestRequest(request: Request, database: () => Promise<Database>): Promise<Response> {
  const started = performance.now();
  const call: RestCall = { requestId: randomUUID() };
  const response = withApiSecurityHeaders(request, await answer(request, database, call));
  const path = call.path ?? "";
  recordApiCall({
    surface: "rest",
    requestId: call.requestId,
    method: request.method,
    path,
    operation: call.facts?.operation ?? operationOfPath(path.slice(API_PREFIX.length)) ?? UNKNOWN_OPERATION,
    organizationId: call.facts?.organizationId ?? null,
    status: response.status,
    problem: call.problem ?? null,
    durationMs: performance.now() - started,
    credits: call.facts?.credits ?? null,
    error: call.error,
  });
  return response;
}

async function answer(request: Request, database: () => Promise<Database>, call: RestCall): Promise<Response> {
  const { requestId } = call;
  const origin = publicOrigin(request);
  const requestUrl = new URL(request.url);
  call.path = requestUrl.pathname;
  const path = requestUrl.pathname.slice(API_PREFIX.length) || "/";
  const fail = (description: ErrorDescription, headers: Record<string, string> = {}) => {
    call.problem = description.code;
    return problemResponse(problemOf(description.code, description.detail, { origin, requestId }, description), {
      ...failureHeaders(description),
      ...headers,
    });
  };

  const known = isApiPath(path);
  if (request.method === "OPTIONS" && known)
    return new Response(null, { status: 204, headers: { Allow: ALLOWED_METHODS, "X-Request-Id": requestId } });
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

  const context = createApiContext({
    db,
    headers: request.headers,
    requestId,
    origin,
    authenticate: bearerAuthenticator(db, request.headers),
  });
  call.facts = context.facts;
  const cleaned = withoutInheritedNames(requestUrl);
  const get =
    request.method === "HEAD" || cleaned ? new Request(cleaned ?? request.url, { headers: request.headers }) : request;
  const target = cleaned ? new URL(cleaned) : requestUrl;
  const run: OpenApiRun = { context };
  const response = await dispatchOpenApi(
    get,
    `${target.origin}${target.pathname.slice(API_PREFIX.length)}${target.search}`,
    run,
  );
  const failure = run.error ? describeError(run.error) : undefined;
  if (run.error) call.error = run.error.cause ?? run.error;

  if (response.status >= 400)
    return fail(
      failure ??
        (response.status === 404
          ? { code: "not_found", detail: `No such path: ${API_PREFIX}${path}.` }
          : { code: "internal_error", detail: "The service failed unexpectedly." }),
      factHeaders(context.facts, false),
    );

  const headers = new Headers(response.headers);
  headers.set("X-Request-Id", requestId);
  for (const [name, value] of Object.entries(COMMON_HEADERS)) headers.set(name, value);
  if (context.facts.notModified) {
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }
  return new Response(request.method === "HEAD" ? null : response.body, { status: response.status, headers });
}

/** The OpenAPI document's operation name in logs and metrics (it is no procedure). */
export const OPENAPI_OPERATION = "openapi.document";

/** GET /v1/openapi.json: the document, public and free; any other method the 405 of the rest of /v1. */
export function handleOpenApiRequest(request: Request): Response {
  const started = performance.now();
  const origin = publicOrigin(request);
  const requestId = randomUUID();
  const allowed = request.method === "GET" || request.method === "HEAD";
  const response = allowed
    ? new Response(request.method === "HEAD" ? null : openApiJson(origin), {
        headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" },
      })
    : problemResponse(
        problemOf("method_not_allowed", `${request.method} is not allowed on ${API_PREFIX}/openapi.json; use GET.`, {
          origin,
          requestId,
        }),
        { Allow: ALLOWED_METHODS, "Cache-Control": "no-store" },
      );
  recordApiCall({
    surface: "rest",
    requestId,
    method: request.method,
    path: `${API_PREFIX}/openapi.json`,
    operation: OPENAPI_OPERATION,
    organizationId: null,
    status: response.status,
    problem: allowed ? null : "method_not_allowed",
    durationMs: performance.now() - started,
    credits: null,
  });
  return response;
}
