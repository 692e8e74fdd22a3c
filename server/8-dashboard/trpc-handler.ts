/**
 * The dashboard's tRPC endpoint (/api/trpc), authenticated by the next-auth session cookie.
 * A mutation must come from our own origin (CSRF, server/2-http/same-origin.ts).
 */
import { randomUUID } from "node:crypto";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { Database } from "../../db/client";
import { describeError } from "../1-errors/describe";
import { publicOrigin } from "../2-http/origin";
import { problemOf, problemResponse } from "../2-http/problem";
import { isSameOriginRequest } from "../2-http/same-origin";
import { log } from "../3-observability/logger";
import { jobSender } from "../3-queue/queue";
import { getDatabase } from "../5-database/app-database";
import { sessionAuthenticator } from "../6-auth/session";
import { createApiContext, reachDatabase } from "../7-procedures/context";
import { appRouter } from "../7-routers/root";

export const DASHBOARD_TRPC_ENDPOINT = "/api/trpc";

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
  return fetchRequestHandler({
    endpoint: DASHBOARD_TRPC_ENDPOINT,
    router: appRouter,
    req: request,
    // An unreachable database fails here as `unavailable` (503), in tRPC's own error format.
    createContext: async () => {
      const db = await reachDatabase(database, requestId);
      return createApiContext({
        db,
        headers: request.headers,
        requestId,
        origin,
        authenticate: sessionAuthenticator(db),
        queue: jobSender(await getDatabase()),
      });
    },
    onError: ({ error, path }) => {
      if (describeError(error).code === "internal_error")
        log().error(
          { surface: "dashboard", requestId, procedure: path ?? null, err: error.cause ?? error },
          "dashboard call failed",
        );
    },
    responseMeta: ({ errors }) => ({
      headers: {
        ...Object.assign({}, ...errors.map((error) => describeError(error).headers)),
        "Cache-Control": "no-store",
        "X-Request-Id": requestId,
      },
    }),
  });
}
