/**
 * Authenticates a request by its `Authorization: Bearer <token>` header, the one way for every
 * surface: an API token (`mps_…`) everywhere, and on /mcp also one of our OAuth access tokens.
 * A refusal is an ApiError `unauthorized` whose detail says why; a database fault propagates.
 */
import type { Database } from "../../db/client";
import { unauthorized } from "../1-errors/api-error";
import { authenticateSecret, type TokenHolder } from "../4-api-access/tokens";
import { authenticateAccessToken, looksLikeJwt } from "./access-token";
import { type Authenticate, bearerToken, type Caller, type HeaderReader } from "./caller";

export function callerOfHolder(holder: TokenHolder): Caller {
  return {
    via: "api-token",
    credentialId: holder.tokenId,
    userId: null,
    organization: {
      role: null,
      id: holder.organizationId,
      homeCountry: holder.homeCountry,
      creditBalance: holder.creditBalance,
      rateLimit: holder.rateLimit,
    },
    scopes: holder.scopes,
    metered: true,
  };
}

export interface BearerOptions {
  /** Accept our OAuth access tokens whose audience is this origin's /mcp (MCP only). */
  accessTokensFor?: string;
}

/** Whether the request presented a token at all (a malformed header counts as presented). */
export const presentsToken = (headers: HeaderReader) => bearerToken(headers) !== null;

export function bearerAuthenticator(db: Database, headers: HeaderReader, options: BearerOptions = {}): Authenticate {
  return async () => {
    const token = bearerToken(headers);
    if (token === null)
      throw unauthorized(
        options.accessTokensFor
          ? "Send Authorization: Bearer <token> with an API token or an OAuth access token."
          : "Send Authorization: Bearer <token> with an API token from the dashboard.",
      );
    if (token === "") throw unauthorized("The Authorization header must be: Bearer <token>.");
    if (options.accessTokensFor && looksLikeJwt(token)) {
      const check = await authenticateAccessToken(db, token, options.accessTokensFor);
      if (!check.ok) throw unauthorized(check.reason);
      return check.caller;
    }
    const check = await authenticateSecret(db, token);
    if (!check.ok) throw unauthorized(check.reason);
    return callerOfHolder(check.holder);
  };
}
