/**
 * Dashboard sign-in through an organization's own OpenID Connect identity provider
 * (docs/enterprise.md): discovery, the authorization request (code, PKCE S256, state, nonce), the
 * ID token's validation (issuer, audience, nonce, expiry, signature against the IdP's keys) and the
 * refresh that tells whether a person is still there are all openid-client's, never ours. Every
 * request to the IdP — discovery, its keys, the token endpoint — goes through the outbound guard.
 * What is ours: who the person is here (the user by e-mail, in one of the organization's verified
 * domains), just-in-time membership with the IdP's default role, the identity link, the database
 * session, and de-provisioning when the IdP refuses the person's refresh token.
 */
import { randomBytes } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import * as oidc from "openid-client";
import type { Database } from "../../db/client";
import { authSessions, identityLinks, users } from "../../db/schema";
import { emailDomain } from "../1-domain/identity-providers";
import { seal, unseal } from "../3-keys/sealed";
import { errorMessage, log } from "../3-observability/logger";
import { guardedFetch } from "../3-outbound/fetch";
import { recordAuditEvent } from "../4-organizations/audit";
import {
  addMember,
  LastOwnerError,
  NotAMemberError,
  personByEmail,
  removeMember,
  roleOf,
} from "../4-organizations/members";
import {
  type IdentityProvider,
  identityProviderClientSecret,
  identityProviderForEmail,
  identityProviderOf,
  idpPrivateHostsAllowed,
  linkIdentity,
} from "./identity-providers";

/** How often (seconds) a signed-in SSO member is checked again at the IdP: SSO_RECHECK_SECONDS, default 900. */
export function ssoRecheckSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.SSO_RECHECK_SECONDS);
  return Number.isInteger(value) && value >= 0 && env.SSO_RECHECK_SECONDS?.trim() ? value : 900;
}

/** How long a started sign-in may take at the IdP before its return is refused. */
export const SSO_TRANSACTION_SECONDS = 10 * 60;

/** Every request to the IdP: through the guard, private hosts only when tests allow them. */
const idpFetch = guardedFetch(() => ({
  allowPrivate: idpPrivateHostsAllowed(),
  timeoutMs: 10_000,
  maxResponseBytes: 1024 * 1024,
  overflow: "refuse",
}));

/** The IdP as openid-client knows it: its discovery document, and this service as its client. */
async function clientOf(db: Database, provider: IdentityProvider): Promise<oidc.Configuration> {
  const secret = await identityProviderClientSecret(db, provider.organizationId);
  if (!provider.clientId || secret === null) throw new SsoRefusal("not_configured");
  const allowPrivate = idpPrivateHostsAllowed();
  return oidc.discovery(new URL(provider.issuer), provider.clientId, secret, oidc.ClientSecretPost(secret), {
    [oidc.customFetch]: idpFetch as oidc.CustomFetch,
    // openid-client trusts an ID token from the token endpoint on TLS alone unless asked: the
    // signature is checked against the IdP's published keys (jwks_uri, fetched through the guard).
    execute: [oidc.enableNonRepudiationChecks, ...(allowPrivate ? [oidc.allowInsecureRequests] : [])],
    timeout: 10,
  });
}

/** The same for a person waiting at the sign-in: an IdP that cannot be reached is a refusal ("unavailable"). */
async function reachableClientOf(db: Database, provider: IdentityProvider): Promise<oidc.Configuration> {
  try {
    return await clientOf(db, provider);
  } catch (error) {
    if (error instanceof SsoRefusal) throw error;
    log().warn({ issuer: provider.issuer, error: errorMessage(error) }, "sso: the identity provider is unreachable");
    throw new SsoRefusal("unavailable");
  }
}

/** Why a sign-in through the IdP was refused: a word the sign-in page explains (never IdP text). */
export const SSO_REFUSALS = [
  "not_configured",
  "expired",
  "denied",
  "invalid",
  "no_email",
  "domain",
  "subject",
  "unavailable",
] as const;
export type SsoRefusalReason = (typeof SSO_REFUSALS)[number];

export class SsoRefusal extends Error {
  constructor(readonly reason: SsoRefusalReason) {
    super(`SSO sign-in refused: ${reason}`);
  }
}

/** What the service keeps (sealed, in a short-lived cookie) between sending a person away and their return. */
export interface SsoTransaction {
  organizationId: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** A path of this site to land on. */
  returnTo: string;
  /** The address the person typed (a hint for the IdP; the ID token's address is what counts). */
  email: string;
  startedAt: number;
}

/** The IdP that signs this address in (a verified domain of an organization with a client), or null. */
export async function ssoProviderForEmail(db: Database, email: string): Promise<IdentityProvider | null> {
  const provider = await identityProviderForEmail(db, email.trim().toLowerCase());
  return provider?.clientId && provider.hasClientSecret ? provider : null;
}

/** Whether this address must sign in through its organization's IdP (no e-mail link, no GitHub/Google). */
export async function ssoRequiredFor(db: Database, email: string | null | undefined): Promise<boolean> {
  if (!email) return false;
  return (await ssoProviderForEmail(db, email))?.requireSso === true;
}

/**
 * The organization whose IdP this person's address must sign in through, when they never have
 * (no link there); null when none requires it or they have.
 */
export async function unlinkedUnderRequiredSso(db: Database, userId: string): Promise<string | null> {
  const [person] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!person?.email) return null;
  const provider = await ssoProviderForEmail(db, person.email);
  if (!provider?.requireSso) return null;
  const [linked] = await db
    .select({ subject: identityLinks.subject })
    .from(identityLinks)
    .where(and(eq(identityLinks.organizationId, provider.organizationId), eq(identityLinks.userId, userId)));
  return linked ? null : provider.organizationId;
}

/**
 * Ends the sessions of a person whose address must sign in through its organization's IdP and who
 * never has: sessions made before SSO was required, by an e-mail link, GitHub or Google, stop
 * counting at their next request. Answers whether it ended them.
 */
export async function endSessionsOutsideRequiredSso(db: Database, userId: string): Promise<boolean> {
  const organizationId = await unlinkedUnderRequiredSso(db, userId);
  if (!organizationId) return false;
  await db.delete(authSessions).where(eq(authSessions.userId, userId));
  log().info({ organizationId }, "sso: a session made outside a required IdP was ended");
  return true;
}

/** The authorization request for this address: where to send the person, and what to keep until they return. */
export async function beginSsoSignIn(
  db: Database,
  input: { email: string; redirectUri: string; returnTo: string },
): Promise<{ url: URL; transaction: SsoTransaction } | null> {
  const provider = await ssoProviderForEmail(db, input.email);
  if (!provider) return null;
  const client = await reachableClientOf(db, provider);
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const offered = client.serverMetadata().scopes_supported ?? [];
  const scope = ["openid", "email", ...(offered.includes("offline_access") ? ["offline_access"] : [])].join(" ");
  const url = oidc.buildAuthorizationUrl(client, {
    redirect_uri: input.redirectUri,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
    login_hint: input.email.trim(),
  });
  return {
    url,
    transaction: {
      organizationId: provider.organizationId,
      state,
      nonce,
      codeVerifier,
      returnTo: input.returnTo,
      email: input.email.trim().toLowerCase(),
      startedAt: Date.now(),
    },
  };
}

export interface SsoSignedIn {
  userId: string;
  organizationId: string;
  sessionToken: string;
  expires: Date;
  /** Whether the person joined the organization now (just-in-time membership). */
  joined: boolean;
}

/**
 * The person's return from the IdP (`callbackUrl`: the whole URL it was sent to): the code
 * exchanged and the ID token validated by openid-client against what `transaction` kept; then the
 * person found or made, joined, linked, and given a database session of `sessionMaxAge` seconds.
 * Throws SsoRefusal with the reason.
 */
export async function completeSsoSignIn(
  db: Database,
  input: { transaction: SsoTransaction; callbackUrl: URL; sessionMaxAge: number; now?: Date },
): Promise<SsoSignedIn> {
  const { transaction } = input;
  const now = input.now ?? new Date();
  if (now.getTime() - transaction.startedAt > SSO_TRANSACTION_SECONDS * 1000) throw new SsoRefusal("expired");
  const provider = await identityProviderOf(db, transaction.organizationId);
  if (!provider?.clientId || !provider.hasClientSecret) throw new SsoRefusal("not_configured");
  const client = await reachableClientOf(db, provider);
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(client, input.callbackUrl, {
      pkceCodeVerifier: transaction.codeVerifier,
      expectedState: transaction.state,
      expectedNonce: transaction.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    if (error instanceof oidc.AuthorizationResponseError && error.error === "access_denied") {
      // The IdP would not sign them in: if this address is someone linked here and their link is
      // due, ask the IdP whether that person is still there. Only when due: anyone can start a
      // sign-in for any address and bring back `access_denied`, and a forced recheck on each
      // would let them spend the person's refresh token at will (a rotating IdP then refuses it
      // as reused, and the person would be removed).
      await recheckLinkedAddress(db, provider.organizationId, transaction.email);
      throw new SsoRefusal("denied");
    }
    log().warn({ issuer: provider.issuer, error: errorMessage(error) }, "sso: the IdP's answer was refused");
    throw new SsoRefusal("invalid");
  }
  const claims = tokens.claims();
  if (!claims) throw new SsoRefusal("invalid");
  let email = typeof claims.email === "string" ? claims.email : null;
  let emailVerified = claims.email_verified;
  if (email === null && tokens.access_token) {
    const info = await oidc.fetchUserInfo(client, tokens.access_token, claims.sub).catch(() => null);
    email = typeof info?.email === "string" ? info.email : null;
    emailVerified = info?.email_verified;
  }
  // Only the boolean true says the IdP verified the address: "False", 0, a missing claim or any
  // other spelling is not a verification (a truthiness test took "False" for one).
  if (email === null || emailVerified !== true) throw new SsoRefusal("no_email");
  const address = email.trim().toLowerCase();
  if (!isPlainAddress(address)) throw new SsoRefusal("no_email");
  const domain = emailDomain(address);
  const verified = provider.domains.filter((d) => d.verifiedAt !== null).map((d) => d.domain);
  if (!domain || !verified.includes(domain)) throw new SsoRefusal("domain");
  return admit(db, {
    verifiedDomains: verified,
    provider,
    subject: claims.sub,
    email: address,
    refreshToken: tokens.refresh_token ?? null,
    sessionMaxAge: input.sessionMaxAge,
    now,
  });
}

/**
 * An address as mail and the audit trail can carry it: one `@`, no spaces or control characters,
 * at most 254 characters (RFC 5321's path limit). The IdP's claim is text from outside.
 */
function isPlainAddress(address: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  return address.length <= 254 && /^[^\s\u0000-\u001f\u007f@]+@[^\s\u0000-\u001f\u007f@]+$/u.test(address);
}

/** The person of a validated ID token, joined (if new), linked and given a session. */
async function admit(
  db: Database,
  input: {
    /** The domains the organization has proved: a linked person's own address must be of one. */
    verifiedDomains: string[];
    provider: IdentityProvider;
    subject: string;
    email: string;
    refreshToken: string | null;
    sessionMaxAge: number;
    now: Date;
  },
): Promise<SsoSignedIn> {
  const organizationId = input.provider.organizationId;
  return db.transaction(async (tx) => {
    // The IdP's subject is who the person is (OpenID Connect Core §5.7): someone linked already
    // stays that person when the IdP changes their address; anyone else is found by address.
    const [linked] = await tx
      .select({ userId: identityLinks.userId })
      .from(identityLinks)
      .where(and(eq(identityLinks.organizationId, organizationId), eq(identityLinks.subject, input.subject)));
    const person = linked
      ? { id: linked.userId }
      : await personByEmail(tx as unknown as Database, input.email, { create: true });
    if (linked) {
      // A link may have been made for ID-JAGs alone (`ops org idp link`), to a member of any
      // domain: the IdP speaks only for its organization's proved domains, so it signs in a
      // linked person only when their own address is of one of them (a session reaches every
      // organization of theirs, and another's required SSO for their domain).
      const [holder] = await tx.select({ email: users.email }).from(users).where(eq(users.id, linked.userId));
      const own = holder?.email ? emailDomain(holder.email.toLowerCase()) : null;
      if (!own || !input.verifiedDomains.includes(own)) {
        log().warn({ organizationId }, "sso: a linked person whose address is outside the proved domains; refused");
        throw new SsoRefusal("domain");
      }
    }
    const [earlier] = await tx
      .select({ subject: identityLinks.subject })
      .from(identityLinks)
      .where(and(eq(identityLinks.organizationId, organizationId), eq(identityLinks.userId, person.id)));
    let role = await roleOf(tx, organizationId, person.id);
    // The same address, another account at the IdP while the old one still holds the membership:
    // an address handed on to someone new must not inherit what the old holder had here.
    if (earlier && earlier.subject !== input.subject && role !== null) {
      log().warn({ organizationId }, "sso: a second IdP account for an address linked to another one; refused");
      throw new SsoRefusal("subject");
    }
    let joined = false;
    if (role === null) {
      role = input.provider.defaultRole;
      await addMember(tx, { organizationId, userId: person.id, role });
      await recordAuditEvent(
        tx,
        organizationId,
        { kind: "user", userId: person.id, label: input.email },
        {
          action: "member.sso_join",
          targetType: "user",
          targetId: person.id,
          details: { role, issuer: input.provider.issuer },
        },
      );
      joined = true;
    }
    await linkIdentity(tx as unknown as Database, {
      organizationId,
      subject: input.subject,
      userId: person.id,
      refreshToken: input.refreshToken,
    });
    await tx
      .update(users)
      .set({ activeOrganizationId: organizationId, emailVerified: sql`coalesce(${users.emailVerified}, now())` })
      .where(eq(users.id, person.id));
    const sessionToken = randomBytes(32).toString("hex");
    const expires = new Date(input.now.getTime() + input.sessionMaxAge * 1000);
    await tx.insert(authSessions).values({ sessionToken, userId: person.id, expires });
    return { userId: person.id, organizationId, sessionToken, expires, joined };
  });
}

/** Rechecks the link, if due, of the person with this address in this organization (its link alone). */
async function recheckLinkedAddress(db: Database, organizationId: string, email: string): Promise<void> {
  const [row] = await db
    .select({ userId: identityLinks.userId })
    .from(identityLinks)
    .innerJoin(users, eq(users.id, identityLinks.userId))
    .where(and(eq(identityLinks.organizationId, organizationId), sql`lower(${users.email}) = ${email}`));
  if (row) await recheckIdentityLinks(db, row.userId, { organizationId });
}

export type RecheckOutcome = "confirmed" | "deprovisioned" | "unreachable" | "skipped";

/**
 * Asks the IdP again about a signed-in person's links that are due (checked longer than
 * SSO_RECHECK_SECONDS ago; with `organizationId`, that organization's alone): they are claimed by moving their `checked_at`
 * in one statement (one request per due link, whichever instance wins), then each refresh token is
 * refreshed at the IdP. `invalid_grant` means the person is gone there: they are removed from the organization
 * (their tokens and MCP connections with them), it is audited as the system's act, and their
 * dashboard sessions end. An IdP that cannot be reached removes nobody. Answers whether the
 * person's sessions were ended.
 */
export async function recheckIdentityLinks(
  db: Database,
  userId: string,
  options: { organizationId?: string; now?: Date } = {},
): Promise<{ ended: boolean; outcomes: RecheckOutcome[] }> {
  const now = options.now ?? new Date();
  const due = new Date(now.getTime() - ssoRecheckSeconds() * 1000);
  // One UPDATE claims every due link: a request that arrives while another holds a row waits for
  // it, then finds the row no longer due (READ COMMITTED re-reads it), so each is asked once.
  const links = await db
    .update(identityLinks)
    .set({ checkedAt: now })
    .where(
      and(
        eq(identityLinks.userId, userId),
        lt(identityLinks.checkedAt, due),
        options.organizationId ? eq(identityLinks.organizationId, options.organizationId) : undefined,
      ),
    )
    .returning();
  const outcomes: RecheckOutcome[] = [];
  let ended = false;
  for (const link of links) {
    const outcome = await recheckLink(db, link, now);
    outcomes.push(outcome);
    if (outcome === "deprovisioned") ended = true;
  }
  return { ended, outcomes };
}

async function recheckLink(db: Database, link: typeof identityLinks.$inferSelect, now: Date): Promise<RecheckOutcome> {
  if (!link.refreshTokenSealed) return "skipped";
  const provider = await identityProviderOf(db, link.organizationId);
  if (!provider?.clientId || !provider.hasClientSecret) return "skipped";
  try {
    const client = await clientOf(db, provider);
    const tokens = await oidc.refreshTokenGrant(client, unseal(link.refreshTokenSealed));
    // A rotated refresh token replaces the old one (the old may no longer work).
    if (tokens.refresh_token)
      await db
        .update(identityLinks)
        .set({ refreshTokenSealed: seal(tokens.refresh_token) })
        .where(and(eq(identityLinks.organizationId, link.organizationId), eq(identityLinks.subject, link.subject)));
    return "confirmed";
  } catch (error) {
    if (error instanceof oidc.ResponseBodyError && error.error === "invalid_grant") {
      await deprovision(db, link, provider.issuer, now);
      return "deprovisioned";
    }
    log().warn(
      { organizationId: link.organizationId, issuer: provider.issuer, error: errorMessage(error) },
      "sso: could not recheck a member at the identity provider; nobody removed",
    );
    return "unreachable";
  }
}

/** The IdP says the person is gone: out of the organization, audited, and signed out. */
async function deprovision(db: Database, link: typeof identityLinks.$inferSelect, issuer: string, now: Date) {
  const { organizationId, userId } = link;
  let removed: Awaited<ReturnType<typeof removeMember>> | null = null;
  try {
    removed = await removeMember(db, { organizationId, userId });
  } catch (error) {
    if (error instanceof LastOwnerError) {
      // The last owner stays (an organization always has one); they lose their sessions all the same.
      log().warn({ organizationId }, "sso: the IdP refused the last owner; kept as owner, signed out");
    } else if (!(error instanceof NotAMemberError)) throw error;
  }
  await db.transaction(async (tx) => {
    if (removed)
      await recordAuditEvent(
        tx,
        organizationId,
        { kind: "system", label: `identity provider ${issuer}` },
        {
          action: "member.sso_deprovision",
          targetType: "user",
          targetId: userId,
          details: {
            role: removed.role,
            revokedTokens: removed.revokedTokens,
            revokedConnections: removed.revokedConnections,
            revokedInvitations: removed.revokedInvitations,
            issuer,
          },
        },
      );
    if (removed)
      await tx
        .delete(identityLinks)
        .where(and(eq(identityLinks.organizationId, organizationId), eq(identityLinks.subject, link.subject)));
    await tx.delete(authSessions).where(eq(authSessions.userId, userId));
  });
  log().info({ organizationId, at: now.toISOString() }, "sso: a member the IdP no longer knows was removed");
}
