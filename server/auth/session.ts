/** Authenticates a dashboard request by its next-auth session cookie. */
import type { Database } from "../../db/client";
import { activeOrganizationOf } from "../accounts/organizations";
import { MARKET_READ_SCOPE } from "../api/operations";
import { unauthorized } from "../errors/api-error";
import type { Authenticate, Caller } from "./caller";
import { auth } from "./config";

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

export function sessionAuthenticator(db: Database): Authenticate {
  return async () => {
    const session = await auth();
    const userId = session?.user?.id;
    if (!userId) throw unauthorized("Sign in to use the dashboard.");
    return sessionCaller(db, userId);
  };
}
