/**
 * Server components read through the same procedures as REST and MCP, as the signed-in person:
 * the session caller, never metered (reading in the dashboard is free).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import { sessionAuthenticator } from "../auth/session";
import { getDatabase } from "../database/app-database";
import { publicOriginOf } from "../http/origin";
import { createApiContext } from "../procedures/context";
import { createCaller } from "../routers/root";

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
