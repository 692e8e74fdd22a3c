/** The caller a signed-in person is in the dashboard (kept apart from next-auth, for tests and MCP). */
import type { Database } from "../../db/client";
import { MARKET_READ_SCOPE } from "../1-domain/operations";
import { activeOrganizationOf, type Membership } from "../4-organizations/organizations";
import type { Caller, CallerOrganization } from "./caller";

/** What a caller carries of the organization it acts in. */
export function callerOrganizationOf(membership: Membership | null): CallerOrganization | null {
  return (
    membership && {
      id: membership.id,
      role: membership.role,
      homeCountry: membership.homeCountry,
      creditBalance: membership.creditBalance,
      rateLimit: membership.rateLimit,
    }
  );
}

/** The caller a signed-in user is in the dashboard: every scope, never metered. */
export async function sessionCaller(db: Database, userId: string): Promise<Caller> {
  return {
    via: "session",
    credentialId: null,
    userId,
    organization: callerOrganizationOf(await activeOrganizationOf(db, userId)),
    scopes: [MARKET_READ_SCOPE],
    metered: false,
  };
}
