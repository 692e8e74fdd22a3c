/**
 * The HTTP face of the authorization server, as Fetch handlers for the app's routes: the
 * provider's endpoints under /oauth, its metadata at the RFC 8414 and OpenID locations, the
 * protected-resource metadata of /mcp, and the consent page's decision. OAuth endpoints answer
 * OAuth's own error format (RFC 6749 §5.2), which clients expect, not problem+json.
 */

import type { Database } from "../../db/client";
import { JWT_BEARER_GRANT } from "../1-domain/identity-providers";
import { connectionRefusal } from "../1-domain/roles";
import { clientNetworkOf } from "../2-http/client-address";
import { publicOrigin } from "../2-http/origin";
import { SIGN_IN_PATH } from "../2-http/paths";
import { protectedResourceMetadata, RESOURCE_SCOPES } from "../2-http/protected-resource";
import { isSameOriginRequest } from "../2-http/same-origin";
import { THROTTLES, throttle } from "../3-limits/throttles";
import { activeOrganizationOf } from "../4-organizations/organizations";
import { signedInPerson } from "../6-auth/session";
import type { Decision } from "./decision";
import { inOAuthFormat, oauthError } from "./failure";
import { forwardToProvider } from "./host";
import { interactionPath, OAUTH_ROUTES } from "./provider";
import { normalizeRegistration, REGISTRATION_LIMITS, registrationOverLimits } from "./registration";

const OPENID_CONFIGURATION_PATH = "/.well-known/openid-configuration";
type DatabaseOf = () => Promise<Database>;

/** The methods of each endpoint the metadata names (oidc-provider answers a bare 404 to the others). */
const ENDPOINT_METHODS = new Map<string, string[]>([
  [OAUTH_ROUTES.authorization, ["GET"]],
  [OAUTH_ROUTES.token, ["POST"]],
  [OAUTH_ROUTES.registration, ["POST"]],
  [OAUTH_ROUTES.revocation, ["POST"]],
  [OAUTH_ROUTES.jwks, ["GET"]],
  [OAUTH_ROUTES.end_session, ["GET"]],
  [OAUTH_ROUTES.pushed_authorization_request, ["POST"]],
]);

/** Any provider endpoint: authorize, token, register, revoke, jwks, end session, PAR. */
async function handleOAuthRequestUnguarded(request: Request, database: DatabaseOf): Promise<Response> {
  const methods = ENDPOINT_METHODS.get(new URL(request.url).pathname);
  if (methods && !methods.includes(request.method) && !(request.method === "HEAD" && methods.includes("GET"))) {
    const refused = oauthError(405, "invalid_request", `This endpoint answers ${methods.join(" and ")} only.`);
    refused.headers.set("Allow", methods.join(", "));
    return refused;
  }
  const db = await database();
  const origin = publicOrigin(request);
  if (request.method === "POST" && new URL(request.url).pathname === OAUTH_ROUTES.registration) {
    const client = clientNetworkOf(request.headers);
    const verdict = await throttle(db, [
      [THROTTLES.registrationBurstPerClient, client],
      [THROTTLES.registrationDailyPerClient, client],
    ]);
    if (!verdict.allowed) return tooMany("client registrations", verdict.retryAfterSeconds);
    const text = await request.text();
    if (Buffer.byteLength(text) > REGISTRATION_LIMITS.bodyBytes)
      return oauthError(
        400,
        "invalid_client_metadata",
        `A registration may be at most ${REGISTRATION_LIMITS.bodyBytes} bytes.`,
      );
    let metadata: unknown;
    try {
      metadata = JSON.parse(text);
    } catch {
      return oauthError(400, "invalid_client_metadata", "The registration must be a JSON object.");
    }
    const overLimits = registrationOverLimits(metadata);
    if (overLimits) return oauthError(400, "invalid_client_metadata", `The registration is too large: ${overLimits}.`);
    return forwardToProvider(db, origin, request, { body: JSON.stringify(normalizeRegistration(metadata)) });
  }
  if (request.method === "POST" && new URL(request.url).pathname === OAUTH_ROUTES.token) {
    const body = await request.arrayBuffer();
    if (grantTypeOf(request, body) === JWT_BEARER_GRANT) {
      const verdict = await throttle(db, [[THROTTLES.idJagExchangesPerClient, clientNetworkOf(request.headers)]]);
      if (!verdict.allowed) return tooMany("ID-JAG exchanges", verdict.retryAfterSeconds);
    }
    return forwardToProvider(db, origin, request, { body });
  }
  return forwardToProvider(db, origin, request);
}

/** The grant_type of a form-encoded token request, or null. */
function grantTypeOf(request: Request, body: ArrayBuffer): string | null {
  if (!request.headers.get("content-type")?.toLowerCase().startsWith("application/x-www-form-urlencoded")) return null;
  return new URLSearchParams(new TextDecoder().decode(body)).get("grant_type");
}

/** RFC 6749's answer for a client over an abuse throttle, with when to try again. */
function tooMany(what: string, retryAfterSeconds: number): Response {
  const refused = oauthError(
    429,
    "temporarily_unavailable",
    `Too many ${what} from this address; retry in ${retryAfterSeconds} s.`,
  );
  refused.headers.set("Retry-After", String(retryAfterSeconds));
  return refused;
}

/** RFC 8414 and OpenID discovery: the same document, issuer = the bare origin. */
async function authorizationServerMetadataUnguarded(request: Request, database: DatabaseOf): Promise<Response> {
  const response = await forwardToProvider(await database(), publicOrigin(request), request, {
    path: OPENID_CONFIGURATION_PATH,
  });
  if (!response.ok) return response;
  // oidc-provider lists its OpenID scopes; clients also need the resource's (RFC 8414 §2).
  const metadata = (await response.json()) as { scopes_supported?: string[] };
  metadata.scopes_supported = [...new Set([...(metadata.scopes_supported ?? []), ...RESOURCE_SCOPES])];
  return Response.json(metadata, {
    headers: { "Cache-Control": "public, max-age=3600", "Access-Control-Allow-Origin": "*" },
  });
}

/** RFC 9728: what /mcp is and who issues tokens for it. Public; browsers may read it cross-origin. */
export function protectedResourceMetadataResponse(request: Request): Response {
  return Response.json(protectedResourceMetadata(publicOrigin(request)), {
    headers: { "Cache-Control": "public, max-age=3600", "Access-Control-Allow-Origin": "*" },
  });
}

/**
 * The consent form's POST: only from our own pages, only by a person the session check of every
 * dashboard request still counts as signed in (server/6-auth/session.ts), who becomes the account
 * the client acts for, and only when their role in their active organization may connect
 * (connections.own); the connection is bound to that organization. The provider checks the
 * browser holds the interaction.
 */
async function handleDecisionRequestUnguarded(request: Request, uid: string, database: DatabaseOf): Promise<Response> {
  const origin = publicOrigin(request);
  if (!isSameOriginRequest(request, origin))
    return oauthError(403, "access_denied", "The decision must come from this site's consent page.");
  const db = await database();
  const person = await signedInPerson(db);
  if (!person)
    return Response.redirect(`${origin}${SIGN_IN_PATH}?callbackUrl=${encodeURIComponent(interactionPath(uid))}`, 303);
  const organization = await activeOrganizationOf(db, person.id);
  const refusal = connectionRefusal(organization?.role);
  if (refusal) return oauthError(403, "access_denied", `Your ${refusal}.`);
  const form = await request.formData().catch(() => new FormData());
  const decision: Decision = {
    accountId: person.id,
    allow: form.get("decision") === "allow",
    organizationId: organization?.id ?? null,
  };
  return forwardToProvider(db, origin, request, {
    path: `${interactionPath(uid)}/decision`,
    body: JSON.stringify(decision),
    internal: { "content-type": "application/json" },
  });
}

export const handleOAuthRequest = inOAuthFormat(handleOAuthRequestUnguarded);
export const authorizationServerMetadata = inOAuthFormat(authorizationServerMetadataUnguarded);
export const handleDecisionRequest = inOAuthFormat(handleDecisionRequestUnguarded);
