/**
 * The dashboard's tRPC endpoint (/api/trpc), authenticated by the next-auth session cookie.
 * Cookies ride along on cross-site requests, so a mutation must come from our own origin (CSRF):
 * its Origin header (or, failing that, Sec-Fetch-Site) must say so.
 */
import { randomUUID } from "node:crypto";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { Database } from "../../db/client";
import { createApiContext } from "../api/context";
import { appRouter } from "../api/root";
import { describeError } from "../api/trpc";
import { sessionAuthenticator } from "../auth/session";
import { problemOf, problemResponse } from "../errors/problem";
import { publicOrigin } from "../rest/origin";

export const DASHBOARD_TRPC_ENDPOINT = "/api/trpc";

/** Whether a state-changing request was sent by a page of this origin. */
export function isSameOriginRequest(request: Request, origin: string): boolean {
  const sent = request.headers.get("origin");
  if (sent !== null) return sent === origin;
  return request.headers.get("sec-fetch-site") === "same-origin";
}

export async function handleDashboardTrpc(request: Request, database: () => Promise<Database>): Promise<Response> {
  const requestId = randomUUID();
  const origin = publicOrigin(request);
  if (request.method !== "GET" && !isSameOriginRequest(request, origin))
    return problemResponse(
      problemOf("forbidden_origin", "Dashboard changes must come from the dashboard's own pages.", {
        origin,
        requestId,
      }),
      { "Cache-Control": "no-store" },
    );
  const db = await database();
  return fetchRequestHandler({
    endpoint: DASHBOARD_TRPC_ENDPOINT,
    router: appRouter,
    req: request,
    createContext: () =>
      createApiContext({ db, headers: request.headers, requestId, origin, authenticate: sessionAuthenticator(db) }),
    onError: ({ error, path }) => {
      if (describeError(error).code === "internal_error")
        console.error(`[dashboard] ${requestId} ${path ?? "?"} failed:`, error.cause ?? error);
    },
    responseMeta: () => ({ headers: { "Cache-Control": "no-store", "X-Request-Id": requestId } }),
  });
}
