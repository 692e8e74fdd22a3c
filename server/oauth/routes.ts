/**
 * The HTTP face of the authorization server, as Fetch handlers for the app's routes: the
 * provider's endpoints under /oauth, its metadata at the RFC 8414 and OpenID locations, the
 * protected-resource metadata of /mcp, and the consent page's decision. OAuth endpoints answer
 * OAuth's own error format (RFC 6749 §5.2), which clients expect, not problem+json.
 */

import type { Database } from "../../db/client";
import { auth } from "../auth/config";
import { isSameOriginRequest } from "../dashboard/trpc-handler";
import { SIGN_IN_PATH } from "../paths";
import { publicOrigin } from "../rest/origin";
import { forwardToProvider } from "./host";
import { interactionPath, OAUTH_ROUTES } from "./provider";
import { normalizeRegistration } from "./registration";
import { protectedResourceMetadata, RESOURCE_SCOPES } from "./resource";

const OPENID_CONFIGURATION_PATH = "/.well-known/openid-configuration";
type DatabaseOf = () => Promise<Database>;

const oauthError = (status: number, error: string, description: string) =>
  Response.json({ error, error_description: description }, { status, headers: { "Cache-Control": "no-store" } });

/** Any provider endpoint: authorize, token, register, revoke, jwks, end session. */
export async function handleOAuthRequest(request: Request, database: DatabaseOf): Promise<Response> {
  const db = await database();
  const origin = publicOrigin(request);
  if (request.method === "POST" && new URL(request.url).pathname === OAUTH_ROUTES.registration) {
    const text = await request.text();
    let metadata: unknown;
    try {
      metadata = JSON.parse(text);
    } catch {
      return oauthError(400, "invalid_client_metadata", "The registration must be a JSON object.");
    }
    return forwardToProvider(db, origin, request, { body: JSON.stringify(normalizeRegistration(metadata)) });
  }
  return forwardToProvider(db, origin, request);
}

/** RFC 8414 and OpenID discovery: the same document, issuer = the bare origin. */
export async function authorizationServerMetadata(request: Request, database: DatabaseOf): Promise<Response> {
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
 * The consent form's POST: only from our own pages, only by the signed-in person, who becomes
 * the account the client acts for. The provider checks the browser holds the interaction.
 */
export async function handleDecisionRequest(request: Request, uid: string, database: DatabaseOf): Promise<Response> {
  const origin = publicOrigin(request);
  if (!isSameOriginRequest(request, origin))
    return oauthError(403, "access_denied", "The decision must come from this site's consent page.");
  const session = await auth();
  const accountId = session?.user?.id;
  if (!accountId)
    return Response.redirect(`${origin}${SIGN_IN_PATH}?callbackUrl=${encodeURIComponent(interactionPath(uid))}`, 303);
  const form = await request.formData().catch(() => new FormData());
  const allow = form.get("decision") === "allow";
  return forwardToProvider(await database(), origin, request, {
    path: `${interactionPath(uid)}/decision`,
    body: JSON.stringify({ accountId, allow }),
    internal: { "content-type": "application/json" },
  });
}
