/** The caller a signed-in person is in the dashboard (kept apart from next-auth, for tests and MCP). */
import type { Database } from "../../db/client";
import { activeOrganizationOf } from "../accounts/organizations";
import { MARKET_READ_SCOPE } from "../api/operations";
import type { Caller } from "./caller";

/** The caller a signed-in user is in the dashboard: every scope, never metered. */
export async function sessionCaller(db: Database, userId: string): Promise<Caller> {
  const organization = await activeOrganizationOf(db, userId);
  return {
    via: "session",
    credentialId: null,
    userId,
    organization: organization && {
      id: organization.id,
      homeCountry: organization.homeCountry,
      creditBalance: organization.creditBalance,
      rateLimit: organization.rateLimit,
    },
    scopes: [MARKET_READ_SCOPE],
    metered: false,
  };
}
