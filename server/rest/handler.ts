/**
 * The HTTP edge of /v1. trpc-to-openapi routes a GET to its procedure; around it this owns what
 * is HTTP's: request ids, HEAD and OPTIONS, 405 with Allow, 304 for a current ETag, and one error
 * format — RFC 9457 problem+json with a stable code — for every failure, including unknown paths.
 */
import { randomUUID } from "node:crypto";
import { createOpenApiFetchHandler } from "trpc-to-openapi";
import type { Database } from "../../db/client";
import { createApiContext } from "../api/context";
import { appRouter } from "../api/root";
import { describeError, type ErrorDescription } from "../api/trpc";
import { apiTokenAuthenticator } from "../auth/api-token";
import { problemOf, problemResponse } from "../errors/problem";
import { publicOrigin } from "./origin";
import { ALLOWED_METHODS, API_PREFIX, isApiPath, withoutInheritedNames } from "./routes";

const COMMON_HEADERS = { Vary: "Authorization" };

export async function handleRestRequest(request: Request, database: () => Promise<Database>): Promise<Response> {
  const requestId = randomUUID();
  const origin = publicOrigin(request);
  const requestUrl = new URL(request.url);
  const path = requestUrl.pathname.slice(API_PREFIX.length) || "/";
  const fail = (description: ErrorDescription, headers: Record<string, string> = {}) =>
    problemResponse(problemOf(description.code, description.detail, { origin, requestId }, description), {
      ...COMMON_HEADERS,
      "Cache-Control": "no-store",
      ...description.headers,
      ...headers,
    });

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
    db = await database();
  } catch (error) {
    console.error(`[api] ${requestId} database unavailable:`, error);
    return fail({ code: "unavailable", detail: "The database is unreachable; retry shortly." }, { "Retry-After": "5" });
  }

  const context = createApiContext({
    db,
    headers: request.headers,
    requestId,
    origin,
    authenticate: apiTokenAuthenticator(db, request.headers),
  });
  let failure: ErrorDescription | undefined;
  const cleaned = withoutInheritedNames(requestUrl);
  const get =
    request.method === "HEAD" || cleaned ? new Request(cleaned ?? request.url, { headers: request.headers }) : request;
  const response = await createOpenApiFetchHandler({
    endpoint: API_PREFIX,
    router: appRouter,
    req: get,
    createContext: () => context,
    responseMeta: ({ errors }) => ({ headers: errors.length === 0 ? context.response.headers : {} }),
    onError: ({ error, path: procedure }) => {
      failure = describeError(error);
      if (failure.code === "internal_error")
        console.error(`[api] ${requestId} ${procedure ?? path} failed:`, error.cause ?? error);
    },
  });

  if (response.status >= 400)
    return fail(
      failure ??
        (response.status === 404
          ? { code: "not_found", detail: `No such path: ${API_PREFIX}${path}.` }
          : { code: "internal_error", detail: "The service failed unexpectedly." }),
      context.response.commonHeaders,
    );

  const headers = new Headers(response.headers);
  headers.set("X-Request-Id", requestId);
  for (const [name, value] of Object.entries(context.response.commonHeaders)) headers.set(name, value);
  for (const [name, value] of Object.entries(COMMON_HEADERS)) headers.set(name, value);
  if (context.response.notModified) {
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }
  return new Response(request.method === "HEAD" ? null : response.body, { status: response.status, headers });
}
