/**
 * Enterprise-managed authorization for MCP clients (docs/enterprise-mcp.md): the token endpoint's
 * JWT bearer grant (RFC 7523) carrying an Identity Assertion JWT Authorization Grant (ID-JAG,
 * draft-ietf-oauth-identity-assertion-authz-grant; the MCP ext-auth "Enterprise-Managed
 * Authorization" profile). An organization's own identity provider vouches that a person may use
 * this client with /mcp; the client presents that assertion and gets the same access token a
 * consented client would, acting for that organization, without a consent page.
 *
 * Every check that fails answers `invalid_grant` with a description naming it; no refresh token
 * is issued (the client asks its IdP for a new assertion, so the IdP's policy is asked again).
 */
import {
  decodeJwt,
  decodeProtectedHeader,
  type JWTPayload,
  errors as joseErrors,
  jwtVerify,
  type ProtectedHeaderParameters,
} from "jose";
import type Provider from "oidc-provider";
import { errors, type ResourceServer, type TokenEndpointGrantContext } from "oidc-provider";
import type { Database } from "../../db/client";
import { JWT_BEARER_GRANT } from "../1-domain/identity-providers";
import { connectionRefusal } from "../1-domain/roles";
import { clientAddress } from "../2-http/client-address";
import { RESOURCE_SCOPES } from "../2-http/protected-resource";
import {
  type IdentityProvider,
  identityProviderByIssuer,
  idpPrivateHostsAllowed,
  memberBySubject,
  spendAssertion,
  subjectLinked,
} from "../4-identity/identity-providers";
import { releaseLapsedBinding } from "../4-organizations/connections";
import { createConnection } from "./connection";
import { IdpKeysUnavailable, idpKeys } from "./idp-keys";

export const ID_JAG_TYPE = "oauth-id-jag+jwt";
/** What authorization server metadata lists in `authorization_grant_profiles_supported`. */
export const ID_JAG_PROFILE = "urn:ietf:params:oauth:grant-profile:id-jag";
/** Clocks may differ this much between the IdP and us. */
export const CLOCK_SKEW_SECONDS = 30;
/** An assertion may live at most this long (exp − iat): they are meant to be minutes-short. */
export const MAX_ASSERTION_LIFETIME_SECONDS = 600;
/** What an IdP may sign with: asymmetric algorithms only (never `none`, never a shared secret). */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

const refuse = (description: string) => new errors.CustomOIDCProviderError("invalid_grant", description);

export interface IdJagSettings {
  db: Database;
  /** The /mcp resource: the only one an assertion may name, and the token's audience. */
  resource: string;
  resourceServer: ResourceServer;
  grantTtlSeconds: number;
}

function readAssertion(assertion: string): { header: ProtectedHeaderParameters; claims: JWTPayload } {
  try {
    return { header: decodeProtectedHeader(assertion), claims: decodeJwt(assertion) };
  } catch {
    throw refuse("the assertion is not a signed JWT");
  }
}

/** jose's refusal of a verified JWT, in the words of the check that failed. */
function verificationRefusal(error: unknown, audience: string): Error {
  if (error instanceof joseErrors.JWTExpired) return refuse("the assertion has expired");
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.reason === "missing") return refuse(`the assertion has no ${error.claim} claim`);
    if (error.claim === "aud") return refuse(`the assertion's audience is not this authorization server (${audience})`);
    if (error.claim === "iat") return refuse("the assertion was issued in the future");
    if (error.claim === "nbf") return refuse("the assertion is not valid yet");
    if (error.claim === "typ") return refuse(`the assertion's typ header must be ${ID_JAG_TYPE}`);
    return refuse(`the assertion's ${error.claim} claim is not valid`);
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return refuse("the assertion's signing algorithm is not accepted");
  if (error instanceof joseErrors.JWKSNoMatchingKey)
    return refuse("no key of the identity provider matches the assertion's key id");
  if (error instanceof joseErrors.JWSSignatureVerificationFailed)
    return refuse("the assertion's signature does not verify with the identity provider's keys");
  if (error instanceof IdpKeysUnavailable) return refuse(error.message);
  return refuse("the assertion could not be verified");
}

/** The token's resource scopes: the resource's, narrowed by the assertion's and by the request's. */
function tokenScopes(assertionScope: unknown, requested: string | undefined): string[] {
  const words = (value: string) => new Set(value.split(" ").filter(Boolean));
  let scopes: string[] = [...RESOURCE_SCOPES];
  if (typeof assertionScope === "string") scopes = scopes.filter((s) => words(assertionScope).has(s));
  if (requested) scopes = scopes.filter((s) => words(requested).has(s));
  return scopes;
}

async function verifiedAssertion(
  ctx: TokenEndpointGrantContext,
  settings: IdJagSettings,
): Promise<{ idp: IdentityProvider; claims: JWTPayload & { sub: string; jti: string; exp: number; iat: number } }> {
  const assertion = ctx.oidc.params.assertion;
  if (typeof assertion !== "string" || assertion === "")
    throw new errors.InvalidRequest("missing required parameter 'assertion'");
  const { header, claims } = readAssertion(assertion);
  if (header.typ !== ID_JAG_TYPE)
    throw refuse(`the assertion's typ header is ${JSON.stringify(header.typ ?? null)}, not ${ID_JAG_TYPE}`);
  if (typeof claims.iss !== "string") throw refuse("the assertion has no iss claim");
  const idp = await identityProviderByIssuer(settings.db, claims.iss);
  if (!idp) throw refuse(`the assertion's issuer ${claims.iss} is not the identity provider of any organization here`);
  const audience = ctx.oidc.provider.issuer;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(assertion, idpKeys(idp, { allowPrivate: idpPrivateHostsAllowed() }), {
      issuer: idp.issuer,
      audience,
      typ: ID_JAG_TYPE,
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_SKEW_SECONDS,
      requiredClaims: ["exp", "iat", "jti", "sub", "client_id"],
    }));
  } catch (error) {
    throw verificationRefusal(error, audience);
  }
  // The audience is this authorization server alone (jose accepts any list that includes it).
  if (Array.isArray(payload.aud) && payload.aud.length !== 1)
    throw refuse(`the assertion's audience must be this authorization server (${audience}) alone`);
  const { exp, iat, jti, sub } = payload as { exp: number; iat: number; jti: unknown; sub: unknown };
  if (iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS) throw refuse("the assertion was issued in the future");
  if (exp - iat > MAX_ASSERTION_LIFETIME_SECONDS)
    throw refuse(`the assertion lives longer than ${MAX_ASSERTION_LIFETIME_SECONDS} s (exp − iat)`);
  if (typeof jti !== "string" || jti === "" || jti.length > 255) throw refuse("the assertion's jti claim is not valid");
  if (typeof sub !== "string" || sub === "") throw refuse("the assertion's sub claim is not valid");
  return { idp, claims: { ...payload, exp, iat, jti, sub } };
}

/** The grant type's handler: the checks in the order docs/enterprise-mcp.md lists them. */
export function idJagGrant(settings: IdJagSettings) {
  return async (ctx: TokenEndpointGrantContext): Promise<void> => {
    const { client, params, provider } = ctx.oidc;
    if (client.clientAuthMethod === "none")
      throw new errors.InvalidClient(
        "the jwt-bearer grant needs an authenticated client (client_secret_basic, client_secret_post or private_key_jwt); this client is public",
      );
    const requestedResources = [params.resource ?? []].flat();
    if (requestedResources.some((r) => r !== settings.resource))
      throw new errors.InvalidTarget(`the only resource here is ${settings.resource}`);

    const { idp, claims } = await verifiedAssertion(ctx, settings);
    if (claims.client_id !== client.clientId)
      throw refuse(`the assertion was issued to client ${String(claims.client_id)}, not to the client presenting it`);
    const resources = [claims.resource ?? []].flat();
    if (resources.some((r) => r !== settings.resource))
      throw refuse(`the assertion is for the resource ${resources.join(" ")}, not ${settings.resource}`);
    // Kept until jose would refuse it as expired (exp + the clock skew it allows): swept sooner,
    // the same assertion would be accepted again within the skew.
    const refusedAfter = new Date((claims.exp + CLOCK_SKEW_SECONDS) * 1000);
    if (!(await spendAssertion(settings.db, idp.issuer, claims.jti, refusedAfter)))
      throw refuse("the assertion was already used (its jti was seen before); ask the identity provider for a new one");
    const member = await memberBySubject(settings.db, idp.organizationId, claims.sub);
    if (!member) {
      if (await subjectLinked(settings.db, idp.organizationId, claims.sub))
        throw refuse("the person the assertion names is no longer a member of the organization");
      throw refuse(`the assertion's subject is not linked to a member of the organization (sub ${claims.sub})`);
    }
    // An IdP vouches for who the person is, not for what their role here lets them do.
    const refusal = connectionRefusal(member.role);
    if (refusal) throw refuse(`the person's ${refusal}`);

    const scopes = tokenScopes(claims.scope, params.scope);
    const grantId = await connectionFor(ctx, provider, settings, { idp, userId: member.userId, scopes });
    const token = new provider.AccessToken({
      accountId: member.userId,
      client,
      grantId,
      gty: JWT_BEARER_GRANT,
      scope: scopes.join(" ") || undefined,
    });
    token.resourceServer = new provider.ResourceServer(settings.resource, settings.resourceServer);
    const accessToken = await token.save();
    ctx.body = {
      access_token: accessToken,
      token_type: token.tokenType,
      expires_in: token.expiration,
      ...(token.scope ? { scope: token.scope } : {}),
    };
  };
}

/** How many times an exchange races again after the connection it met had lapsed. */
const LAPSED_RETRIES = 2;

/**
 * The connection the token belongs to: the one this client has as this person for the IdP's
 * organization, made now by the first of the exchanges that arrive (the database's unique index
 * decides, server/4-organizations/connections.ts), and recorded in its audit trail once. A grant is saved
 * before each race, so the binding that wins names one that exists; a losing exchange's is withdrawn.
 */
async function connectionFor(
  ctx: TokenEndpointGrantContext,
  provider: Provider,
  settings: IdJagSettings,
  who: { idp: IdentityProvider; userId: string; scopes: string[] },
): Promise<string> {
  const clientId = ctx.oidc.client.clientId;
  const headers = { get: (name: string) => ctx.get(name) || null };
  for (let attempt = 0; ; attempt++) {
    const grantId = await createConnection(settings.db, provider, {
      accountId: who.userId,
      clientId,
      resource: settings.resource,
      scopes: { oidc: [], resource: who.scopes },
      organizationId: who.idp.organizationId,
      via: "id-jag",
      details: { via: "id-jag", issuer: who.idp.issuer },
      where: { clientAddress: clientAddress(headers), userAgent: headers.get("user-agent") },
      grantTtlSeconds: settings.grantTtlSeconds,
    });
    if (!grantId) break;
    const grant = await provider.Grant.find(grantId);
    if (grant) {
      // The connection may be older than this assertion's scopes: it holds them from now on.
      if (who.scopes.length > 0) {
        grant.addResourceScope(settings.resource, who.scopes.join(" "));
        await grant.save();
      }
      return grantId;
    }
    // The binding that stood names a grant that has lapsed: release it and race again.
    if (attempt >= LAPSED_RETRIES) break;
    await releaseLapsedBinding(settings.db, grantId);
  }
  const unavailable = new errors.CustomOIDCProviderError(
    "temporarily_unavailable",
    "the connection could not be saved; try again",
  );
  unavailable.status = 503;
  throw unavailable;
}
