/**
 * Server components read through the same procedures as REST and MCP, as the signed-in person:
 * the session caller, never metered (reading in the dashboard is free).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import { getDatabase } from "../../db";
import { createApiContext } from "../api/context";
import { createCaller } from "../api/root";
import { sessionAuthenticator } from "../auth/session";
import { publicOrigin } from "../rest/origin";

export async function dashboardCaller() {
  const { db } = await getDatabase();
  const requestHeaders = await headers();
  return createCaller(
    createApiContext({
      db,
      headers: requestHeaders,
      requestId: randomUUID(),
      origin: publicOrigin(new Request("http://localhost/", { headers: requestHeaders })),
      authenticate: sessionAuthenticator(db),
    }),
  );
}
