/**
 * An organization's identity provider and its domains, in storage (docs/enterprise.md). The client
 * secret is sealed (server/3-keys/sealed.ts) and opened only for the token request; `show` never
 * returns it. A domain is claimed with a fresh token and counts once its TXT record proves it.
 */
import { randomBytes } from "node:crypto";
import { and, eq, isNotNull, lt, ne, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import {
  assertionReplays,
  identityLinks,
  identityProviders,
  memberships,
  organizationDomains,
  users,
} from "../../db/schema";
import {
  domainVerificationName,
  domainVerificationValue,
  emailDomain,
  issuerKey,
  txtProves,
} from "../1-domain/identity-providers";
import type { Role } from "../1-domain/roles";
import { seal, unseal } from "../3-keys/sealed";
import { outboundUrlProblem } from "../3-outbound/guard";
import { resolveTxt } from "../3-outbound/resolver";

export class IdentityProviderError extends Error {}

/** Tests serve their IdP on loopback; anywhere else an issuer must be a public https URL. */
export const idpPrivateHostsAllowed = (env: NodeJS.ProcessEnv = process.env) => env.IDP_ALLOW_PRIVATE_HOSTS === "1";

/**
 * An issuer as stored, or why it may not be one: an https URL (http and private hosts only when
 * tests allow them, IDP_ALLOW_PRIVATE_HOSTS), no query, fragment or empty path segment. Issuers are
 * compared exactly (RFC 8414 §3.3, OpenID Connect Discovery §4.3), and IdPs differ on the trailing
 * slash (Okta: none; Auth0 and Azure AD v1: one), so it is kept as typed: only the slash the URL
 * parser adds to a bare host is not.
 */
export function normaliseIssuer(raw: string, allowPrivate: boolean): { issuer: string } | { problem: string } {
  const typed = raw.trim();
  const problem = outboundUrlProblem(typed, allowPrivate);
  if (problem) return { problem: `the issuer ${problem}` };
  const url = new URL(typed);
  if (url.search || url.hash) return { problem: "the issuer must not have a query or fragment" };
  if (url.pathname.includes("//")) return { problem: "the issuer's path must not have an empty segment" };
  return { issuer: typed.endsWith("/") ? url.href : url.href.replace(/\/$/, "") };
}

export interface IdentityProviderSettings {
  organizationId: string;
  issuer: string;
  /** OpenID Connect client of the dashboard at the IdP; both or neither. */
  clientId: string | null;
  clientSecret: string | null;
  /** A JSON Web Key Set given inline; null: the issuer's jwks_uri. */
  jwks: { keys: Record<string, unknown>[] } | null;
  defaultRole: Exclude<Role, "owner">;
  requireSso: boolean;
}

export interface DomainClaim {
  domain: string;
  /** The TXT record to publish: its name and value. */
  recordName: string;
  recordValue: string;
  verifiedAt: Date | null;
}

export interface IdentityProvider {
  organizationId: string;
  issuer: string;
  clientId: string | null;
  /** Whether a client secret is stored (it is never shown). */
  hasClientSecret: boolean;
  jwks: { keys: Record<string, unknown>[] } | null;
  defaultRole: Role;
  requireSso: boolean;
  domains: DomainClaim[];
  updatedAt: Date;
}

const claimOf = (row: { domain: string; verificationToken: string; verifiedAt: Date | null }): DomainClaim => ({
  domain: row.domain,
  recordName: domainVerificationName(row.domain),
  recordValue: domainVerificationValue(row.verificationToken),
  verifiedAt: row.verifiedAt,
});

/**
 * Sets (or replaces) the organization's IdP; an issuer another organization uses (in any
 * spelling: issuerKey) is refused. A new issuer is a new set of subjects: the links of
 * the old one's are dropped (a subject of one IdP is nobody at another), and the answer says how
 * many.
 */
export async function setIdentityProvider(
  db: Database,
  settings: IdentityProviderSettings,
): Promise<{ droppedLinks: number }> {
  if ((settings.clientId === null) !== (settings.clientSecret === null))
    throw new IdentityProviderError("give both the client id and the client secret, or neither");
  // Compared by what the issuer is (issuerKey), not as typed: every spelling of another
  // organization's IdP — trailing slash, case, default port, an empty query, an IPv6-mapped
  // address — is that IdP. One row per organization, so reading them all is small.
  const key = issuerKey(settings.issuer);
  const others = await db
    .select({ issuer: identityProviders.issuer })
    .from(identityProviders)
    .where(ne(identityProviders.organizationId, settings.organizationId));
  if (others.some((other) => issuerKey(other.issuer) === key))
    throw new IdentityProviderError("that issuer is the identity provider of another organization");
  const [before] = await db
    .select({ issuer: identityProviders.issuer })
    .from(identityProviders)
    .where(eq(identityProviders.organizationId, settings.organizationId));
  const values = {
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecretSealed: settings.clientSecret === null ? null : seal(settings.clientSecret),
    jwks: settings.jwks,
    defaultRole: settings.defaultRole,
    requireSso: settings.requireSso,
    updatedAt: new Date(),
  };
  await db
    .insert(identityProviders)
    .values({ organizationId: settings.organizationId, ...values })
    .onConflictDoUpdate({ target: identityProviders.organizationId, set: values });
  if (!before || before.issuer === settings.issuer) return { droppedLinks: 0 };
  const dropped = await db
    .delete(identityLinks)
    .where(eq(identityLinks.organizationId, settings.organizationId))
    .returning({ subject: identityLinks.subject });
  return { droppedLinks: dropped.length };
}

/** The organization's IdP and domain claims, or null; never the client secret. */
export async function identityProviderOf(db: Database, organizationId: string): Promise<IdentityProvider | null> {
  const [row] = await db.select().from(identityProviders).where(eq(identityProviders.organizationId, organizationId));
  if (!row) return null;
  const domains = await db
    .select()
    .from(organizationDomains)
    .where(eq(organizationDomains.organizationId, organizationId))
    .orderBy(organizationDomains.domain);
  return {
    organizationId,
    issuer: row.issuer,
    clientId: row.clientId,
    hasClientSecret: row.clientSecretSealed !== null,
    jwks: row.jwks,
    defaultRole: row.defaultRole,
    requireSso: row.requireSso,
    domains: domains.map(claimOf),
    updatedAt: row.updatedAt,
  };
}

/** The client secret, opened, for the token request at the IdP; null when none is stored. */
export async function identityProviderClientSecret(db: Database, organizationId: string): Promise<string | null> {
  const [row] = await db
    .select({ sealed: identityProviders.clientSecretSealed })
    .from(identityProviders)
    .where(eq(identityProviders.organizationId, organizationId));
  return row?.sealed ? unseal(row.sealed) : null;
}

/** Removes the IdP and every domain claim; true when there was one. */
export async function removeIdentityProvider(db: Database, organizationId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.delete(organizationDomains).where(eq(organizationDomains.organizationId, organizationId));
    const removed = await tx
      .delete(identityProviders)
      .where(eq(identityProviders.organizationId, organizationId))
      .returning({ id: identityProviders.organizationId });
    return removed.length > 0;
  });
}

/** The IdP whose issuer is exactly this (the ID-JAG grant trusts only these), or null. */
export async function identityProviderByIssuer(db: Database, issuer: string): Promise<IdentityProvider | null> {
  const [row] = await db
    .select({ organizationId: identityProviders.organizationId })
    .from(identityProviders)
    .where(eq(identityProviders.issuer, issuer));
  return row ? identityProviderOf(db, row.organizationId) : null;
}

/** The IdP that speaks for an e-mail address: its domain verified by an organization with one. */
export async function identityProviderForEmail(db: Database, email: string): Promise<IdentityProvider | null> {
  const domain = emailDomain(email);
  if (!domain) return null;
  const [row] = await db
    .select({ organizationId: organizationDomains.organizationId })
    .from(organizationDomains)
    .innerJoin(identityProviders, eq(identityProviders.organizationId, organizationDomains.organizationId))
    .where(and(eq(organizationDomains.domain, domain), isNotNull(organizationDomains.verifiedAt)));
  return row ? identityProviderOf(db, row.organizationId) : null;
}

/** Claims a domain for the organization (a fresh token each claim); the TXT record to publish. */
export async function claimDomain(db: Database, organizationId: string, domain: string): Promise<DomainClaim> {
  const [verified] = await db
    .select({ organizationId: organizationDomains.organizationId })
    .from(organizationDomains)
    .where(and(eq(organizationDomains.domain, domain), isNotNull(organizationDomains.verifiedAt)));
  if (verified && verified.organizationId !== organizationId)
    throw new IdentityProviderError(`${domain} is verified by another organization`);
  if (verified) {
    const [mine] = await db
      .select()
      .from(organizationDomains)
      .where(and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.domain, domain)));
    return claimOf(mine as typeof organizationDomains.$inferSelect);
  }
  const verificationToken = randomBytes(18).toString("base64url");
  const [row] = await db
    .insert(organizationDomains)
    .values({ organizationId, domain, verificationToken })
    .onConflictDoUpdate({
      target: [organizationDomains.organizationId, organizationDomains.domain],
      set: { verificationToken },
    })
    .returning();
  return claimOf(row as typeof organizationDomains.$inferSelect);
}

export type Verification = { verified: true; claim: DomainClaim } | { verified: false; reason: string };

/** What a TXT lookup showed: the claim's token was published (for this token only), or why not. */
export type DomainProof = { proved: true; domain: string; token: string } | { proved: false; reason: string };

/**
 * Looks up the domain's TXT record through the service's resolver (DNS_SERVERS when set): does it
 * prove the organization's claim? Reads only; it waits on DNS, so never call it inside a
 * transaction (the dashboard runs it as its mutation's `audit.prepare`).
 */
export async function proveDomain(
  db: Database,
  organizationId: string,
  domain: string,
  lookup: (name: string) => Promise<string[]> = resolveTxt,
): Promise<DomainProof> {
  const [claim] = await db
    .select()
    .from(organizationDomains)
    .where(and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.domain, domain)));
  if (!claim) return { proved: false, reason: `${domain} is not claimed by this organization` };
  if (claim.verifiedAt) return { proved: true, domain, token: claim.verificationToken };
  let records: string[];
  try {
    records = await lookup(domainVerificationName(domain));
  } catch {
    return { proved: false, reason: `no TXT record found at ${domainVerificationName(domain)}` };
  }
  if (!txtProves(records, claim.verificationToken))
    return { proved: false, reason: `the TXT record at ${domainVerificationName(domain)} does not hold the token` };
  return { proved: true, domain, token: claim.verificationToken };
}

/**
 * Marks a claim verified on a proof: only while the claim still has the token that was proved (a
 * claim made again since has a new one). Another organization's verified claim wins the race (the
 * unique index): then this one stays unverified.
 */
export async function markDomainVerified(
  db: Database,
  organizationId: string,
  proof: DomainProof,
): Promise<Verification> {
  if (!proof.proved) return { verified: false, reason: proof.reason };
  const { domain, token } = proof;
  const mine = and(
    eq(organizationDomains.organizationId, organizationId),
    eq(organizationDomains.domain, domain),
    eq(organizationDomains.verificationToken, token),
  );
  try {
    const [row] = await db
      .update(organizationDomains)
      .set({ verifiedAt: sql`coalesce(${organizationDomains.verifiedAt}, now())` })
      .where(mine)
      .returning();
    if (!row) return { verified: false, reason: `${domain} was claimed again or released since its record was read` };
    return { verified: true, claim: claimOf(row) };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return { verified: false, reason: `${domain} is verified by another organization` };
  }
}

/** Proves and marks a claim in turn, outside any transaction (tests, scripts). */
export async function verifyDomain(
  db: Database,
  organizationId: string,
  domain: string,
  lookup: (name: string) => Promise<string[]> = resolveTxt,
): Promise<Verification> {
  return markDomainVerified(db, organizationId, await proveDomain(db, organizationId, domain, lookup));
}

/** PostgreSQL's unique_violation (23505), through postgres.js or PGlite, wrapped by drizzle or not. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === "23505") return true;
  return false;
}

/** Drops a domain claim; true when there was one. */
export async function releaseDomain(db: Database, organizationId: string, domain: string): Promise<boolean> {
  const removed = await db
    .delete(organizationDomains)
    .where(and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.domain, domain)))
    .returning({ domain: organizationDomains.domain });
  return removed.length > 0;
}

export interface LinkedMember {
  userId: string;
  email: string | null;
  role: Role;
}

/**
 * Records that an IdP subject is this person in the organization (at SSO sign-in), with the IdP's
 * refresh token when it gave one (sealed), and when the IdP last confirmed them.
 */
export async function linkIdentity(
  db: Database,
  link: { organizationId: string; subject: string; userId: string; refreshToken: string | null },
): Promise<void> {
  const values = {
    userId: link.userId,
    refreshTokenSealed: link.refreshToken === null ? null : seal(link.refreshToken),
    checkedAt: new Date(),
  };
  await db.transaction(async (tx) => {
    // One subject per person per organization: a new subject for the same person replaces the old.
    await tx
      .delete(identityLinks)
      .where(and(eq(identityLinks.organizationId, link.organizationId), eq(identityLinks.userId, link.userId)));
    await tx
      .insert(identityLinks)
      .values({ organizationId: link.organizationId, subject: link.subject, ...values })
      .onConflictDoUpdate({ target: [identityLinks.organizationId, identityLinks.subject], set: values });
  });
}

/**
 * The member an IdP subject is in the organization, with their role now; null when the subject
 * was never linked or the person is no longer a member (removed, or de-provisioned).
 */
export async function memberBySubject(
  db: Database,
  organizationId: string,
  subject: string,
): Promise<LinkedMember | null> {
  const [row] = await db
    .select({ userId: identityLinks.userId, email: users.email, role: memberships.role })
    .from(identityLinks)
    .innerJoin(
      memberships,
      and(eq(memberships.organizationId, identityLinks.organizationId), eq(memberships.userId, identityLinks.userId)),
    )
    .innerJoin(users, eq(users.id, identityLinks.userId))
    .where(and(eq(identityLinks.organizationId, organizationId), eq(identityLinks.subject, subject)));
  return row ?? null;
}

/**
 * Spends an assertion's `jti` (ID-JAG single use): true the first time, false for a replay, on
 * every instance at once (the primary key decides). Expired entries are swept as it goes.
 */
export async function spendAssertion(db: Database, issuer: string, jti: string, expiresAt: Date): Promise<boolean> {
  await db.delete(assertionReplays).where(lt(assertionReplays.expiresAt, new Date()));
  const inserted = await db
    .insert(assertionReplays)
    .values({ issuer, jti, expiresAt })
    .onConflictDoNothing()
    .returning({ jti: assertionReplays.jti });
  return inserted.length === 1;
}

/** Whether an IdP subject is linked to anyone in the organization (member or not any more). */
export async function subjectLinked(db: Database, organizationId: string, subject: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: identityLinks.userId })
    .from(identityLinks)
    .where(and(eq(identityLinks.organizationId, organizationId), eq(identityLinks.subject, subject)));
  return row !== undefined;
}

/** Forgets which IdP subject a person is in the organization; true when there was a link. */
export async function unlinkIdentity(db: Database, organizationId: string, userId: string): Promise<boolean> {
  const removed = await db
    .delete(identityLinks)
    .where(and(eq(identityLinks.organizationId, organizationId), eq(identityLinks.userId, userId)))
    .returning({ subject: identityLinks.subject });
  return removed.length > 0;
}

export interface LinkedPerson {
  userId: string;
  email: string | null;
  subject: string;
  /** When the IdP last confirmed them (SSO sign-in or a recheck; the link itself when the operator made it). */
  checkedAt: Date;
}

/** The organization's members an IdP subject is linked to (whose ID-JAGs count), by address. */
export function identityLinksOf(db: Database, organizationId: string): Promise<LinkedPerson[]> {
  return db
    .select({
      userId: identityLinks.userId,
      email: users.email,
      subject: identityLinks.subject,
      checkedAt: identityLinks.checkedAt,
    })
    .from(identityLinks)
    .innerJoin(
      memberships,
      and(eq(memberships.organizationId, identityLinks.organizationId), eq(memberships.userId, identityLinks.userId)),
    )
    .innerJoin(users, eq(users.id, identityLinks.userId))
    .where(eq(identityLinks.organizationId, organizationId))
    .orderBy(users.email);
}
