/**
 * Server components read through the same procedures as REST and MCP, as the signed-in person:
 * the session caller, never metered (reading in the dashboard is free).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import { publicOriginOf } from "../2-http/origin";
import { getDatabase } from "../5-database/app-database";
import { sessionAuthenticator } from "../6-auth/session";
import { createApiContext } from "../7-procedures/context";
import { createCaller } from "../7-routers/root";

export async function dashboardCaller() {
  const { db } = await getDatabase();
  const requestHeaders = await headers();
  return createCaller(
    createApiContext({
      db,
      headers: requestHeaders,
      requestId: randomUUID(),
      origin: publicOriginOf(requestHeaders),
      authenticate: sessionAuthenticator(db),
    }),
  );
}
