/**
 * An organization's IdP as the ID-JAG suites need it: its signing key, set inline as the
 * organization's identity provider; people of the organization with a dashboard session and a
 * linked subject; a confidential client registered for the jwt-bearer grant; and the exchange of
 * an identity assertion the IdP would mint, at the app's token endpoint.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import type { Database } from "@/db/client";
import { authSessions, memberships, users } from "@/db/schema";
import type { Role } from "@/server/1-domain/roles";
import { linkIdentity, setIdentityProvider } from "@/server/4-identity/identity-providers";
import { register } from "./oauth";

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

export interface SessionPerson {
  userId: string;
  session: string;
}

/** A member of the organization with `role`, signed in (a session cookie value), active there. */
export async function memberWithSession(
  db: Database,
  organizationId: string,
  role: Role,
  domain = "example.com",
): Promise<SessionPerson> {
  const [user] = await db
    .insert(users)
    .values({
      email: `${role}-${randomBytes(5).toString("hex")}@${domain}`,
      emailVerified: new Date(),
      activeOrganizationId: organizationId,
    })
    .returning({ id: users.id });
  if (!user) throw new Error("no user");
  await db.insert(memberships).values({ organizationId, userId: user.id, role });
  const session = randomBytes(32).toString("hex");
  await db
    .insert(authSessions)
    .values({ sessionToken: session, userId: user.id, expires: new Date(Date.now() + 86_400_000) });
  return { userId: user.id, session };
}

export interface InlineIdp {
  issuer: string;
  kid: string;
  privateKey: CryptoKey;
  /** Sets it as the organization's IdP (keys inline: nothing is fetched). */
  setFor(db: Database, organizationId: string): Promise<void>;
  /** Links the IdP's subject to a member. */
  link(db: Database, organizationId: string, subject: string, userId: string): Promise<void>;
}

export async function inlineIdp(issuer: string, kid: string): Promise<InlineIdp> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  return {
    issuer,
    kid,
    privateKey,
    setFor: async (db, organizationId) => {
      await setIdentityProvider(db, {
        organizationId,
        issuer,
        clientId: null,
        clientSecret: null,
        jwks: { keys: [publicJwk] },
        defaultRole: "member",
        requireSso: false,
      });
    },
    link: (db, organizationId, subject, userId) =>
      linkIdentity(db, { organizationId, subject, userId, refreshToken: null }),
  };
}

export interface JwtBearerClient {
  id: string;
  secret: string;
}

/** A confidential client registered for the jwt-bearer grant alone. */
export async function jwtBearerClient(base: string, name: string): Promise<JwtBearerClient> {
  const { status, body } = await register({ registration_endpoint: `${base}/oauth/register` } as never, {
    client_name: name,
    grant_types: [JWT_BEARER],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: "client_secret_basic",
  });
  if (status !== 201) throw new Error(`registration answered ${status}: ${JSON.stringify(body)}`);
  return { id: body.client_id, secret: String(body.client_secret) };
}

/** The client presents an assertion the IdP minted for `subject` (Market.Read.All): the token endpoint's answer. */
export async function exchangeAssertion(
  base: string,
  idp: InlineIdp,
  client: JwtBearerClient,
  subject: string,
): Promise<{ status: number; body: Record<string, string> }> {
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ client_id: client.id, jti: randomUUID(), scope: "Market.Read.All" })
    .setProtectedHeader({ alg: "RS256", typ: "oauth-id-jag+jwt", kid: idp.kid })
    .setIssuer(idp.issuer)
    .setSubject(subject)
    .setAudience(base)
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(idp.privateKey);
  const response = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}
