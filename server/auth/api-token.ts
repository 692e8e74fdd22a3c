/** Authenticates a request by its `Authorization: Bearer mps_…` API token. */
import type { Database } from "../../db/client";
import { authenticateSecret, type TokenHolder } from "../accounts/tokens";
import { unauthorized } from "../errors/api-error";
import { type Authenticate, bearerToken, type Caller } from "./caller";

export function callerOfHolder(holder: TokenHolder): Caller {
  return {
    via: "api-token",
    credentialId: holder.tokenId,
    userId: null,
    organization: {
      id: holder.organizationId,
      homeCountry: holder.homeCountry,
      creditBalance: holder.creditBalance,
      rateLimit: holder.rateLimit,
    },
    scopes: holder.scopes,
    metered: true,
  };
}

export function apiTokenAuthenticator(db: Database, headers: Headers): Authenticate {
  return async () => {
    const token = bearerToken(headers);
    if (token === null) throw unauthorized("Send Authorization: Bearer <token> with an API token from the dashboard.");
    if (token === "") throw unauthorized("The Authorization header must be: Bearer <token>.");
    const check = await authenticateSecret(db, token);
    if (!check.ok) throw unauthorized(check.reason);
    return callerOfHolder(check.holder);
  };
}
