/**
 * Accepting our own OAuth access tokens on /mcp: a JWT signed with one of our keys, issued by
 * this origin for exactly the /mcp resource, unexpired, whose grant still exists (revoking a
 * connection takes effect on the next call, not when the token expires). The caller is the user
 * the grant belongs to, acting for the organization the grant was bound to at consent
 * (connection_organizations) while they belong to it; a connection made before any organization
 * existed acts in their active organization at the time of the call.
 */
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { createLocalJWKSet, type JWTPayload, errors as joseErrors, jwtVerify } from "jose";
import type { Database } from "../../db/client";
import { oauthRecords } from "../../db/schema";
import { connectionRefusal } from "../1-domain/roles";
import { mcpResource } from "../2-http/protected-resource";
import { connectionOrganizationOf } from "../4-organizations/connections";
import { activeOrganizationOf, organizationsOf } from "../4-organizations/organizations";
import type { Caller } from "./caller";
import { callerOrganizationOf } from "./session-caller";
import { publicJwk, signingKeys } from "./signing-keys";

export type AccessTokenCheck = { ok: true; caller: Caller } | { ok: false; reason: string };

/** Our tokens are JWTs; API tokens are `mps_…`. Cheap to tell apart before any work. */
export const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);

let verificationKeys: { keys: ReturnType<typeof createLocalJWKSet>; kids: Set<string> } | null = null;

async function keySet(db: Database, kid: string | undefined) {
  if (!verificationKeys || (kid && !verificationKeys.kids.has(kid))) {
    const keys = (await signingKeys(db)).map(publicJwk);
    verificationKeys = {
      keys: createLocalJWKSet({ keys: keys as never }),
      kids: new Set(keys.map((k) => k.kid as string)),
    };
  }
  return verificationKeys.keys;
}

function reasonOf(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return "The access token has expired; refresh it or connect again.";
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "The access token is for another resource; ask for one for this /mcp URL.";
    if (error.claim === "iss") return "The access token was issued by another authorization server.";
    return `The access token's ${error.claim} claim is not valid.`;
  }
  return "The access token is not valid.";
}

async function grantIsLive(db: Database, grantId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: oauthRecords.id })
    .from(oauthRecords)
    .where(
      and(
        eq(oauthRecords.model, "Grant"),
        eq(oauthRecords.id, grantId),
        or(isNull(oauthRecords.expiresAt), gt(oauthRecords.expiresAt, sql`now()`)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function authenticateAccessToken(db: Database, token: string, origin: string): Promise<AccessTokenCheck> {
  let claims: JWTPayload;
  try {
    const verified = await jwtVerify(token, (header, jws) => keySet(db, header.kid).then((keys) => keys(header, jws)), {
      issuer: origin,
      audience: mcpResource(origin),
      algorithms: ["RS256"],
      typ: "at+jwt",
      requiredClaims: ["exp", "sub", "gid"],
    });
    claims = verified.payload;
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
  const grantId = String(claims.gid);
  const userId = String(claims.sub);
  const [live, boundTo] = await Promise.all([grantIsLive(db, grantId), connectionOrganizationOf(db, grantId)]);
  if (!live) return { ok: false, reason: "This connection was revoked; connect the MCP client again." };
  // A connection acts for the organization it was bound to at consent, while its person belongs
  // to it; one made before they had any organization acts for their active one.
  const membership = boundTo
    ? ((await organizationsOf(db, userId)).find((m) => m.id === boundTo) ?? null)
    : await activeOrganizationOf(db, userId);
  if (boundTo && !membership)
    return { ok: false, reason: "This connection's organization no longer counts you as a member." };
  // A person demoted to a role that may not connect (billing) stops acting through their connections.
  const refusal = connectionRefusal(membership?.role);
  if (refusal) return { ok: false, reason: `Your ${refusal}.` };
  return {
    ok: true,
    caller: {
      via: "oauth",
      credentialId: grantId,
      userId,
      organization: callerOrganizationOf(membership),
      scopes: typeof claims.scope === "string" ? claims.scope.split(" ").filter(Boolean) : [],
      metered: true,
    },
  };
}
