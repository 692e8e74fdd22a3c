/**
 * Organizations, tokens and dashboard sessions the HTTP suites use, created in the database
 * before the app starts (the embedded database cannot be opened while the app holds it).
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { JWK } from "jose";
import type { Database, DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { queryRows } from "@/db/rows";
import { authSessions, memberships, users } from "@/db/schema";
import type { Role } from "@/server/1-domain/roles";
import { createApiToken, revokeApiToken, TOKEN_SCOPES } from "@/server/4-api-access/tokens";
import { createOrganization } from "@/server/4-organizations/organizations";
import { seedDemoCatalogue } from "@/server/5-startup/seed";
import { signingKeys } from "@/server/6-auth/signing-keys";

export interface FixtureOrganization {
  id: string;
  /** A token with Market.Read.All. */
  token: string;
  /** The session cookie value of a user whose active organization this is. */
  session: string;
  /** That user. */
  userId: string;
}

export interface AccountFixtures {
  /** Plenty of credits, home DE: the general suite. */
  reader: FixtureOrganization;
  /** Home FR: readings without `country` engage France. */
  french: FixtureOrganization;
  /** Exactly 40 snapshots' worth (200 credits). */
  forty: FixtureOrganization;
  /** 100 credits for mixed costs. */
  mixed: FixtureOrganization;
  /** 100 credits: failures must not move them. */
  failures: FixtureOrganization;
  /** No credits at all. */
  broke: FixtureOrganization;
  /** A rate limit of 5 requests per window. */
  limited: FixtureOrganization;
  /** Tokens of `reader`'s organization that must not work, or not for readings. */
  tokens: { noScope: string; expired: string; revoked: string };
  /** A signed-in user with no organization yet. */
  newcomerSession: string;
  /** A session of `reader`'s organization whose time is up. */
  expiredSession: string;
  /** 1000 credits: the OAuth suite's connections are billed here. */
  oauth: FixtureOrganization;
  /** Home FR, 1000 credits: the release-changes suite's, so its credit counts are exact. */
  changes: FixtureOrganization;
  /** Home FR, 1000 credits: the product-breakdown and availability suite's, so its credit counts are exact. */
  explained: FixtureOrganization;
  /** Home FR, 1000 credits: the uncertainty and what-if suite's, so its credit counts are exact. */
  uncertain: FixtureOrganization;
  /** Home FR: follows markets in the browser suite (notifications, e-mails, unsubscribe). */
  follower: FixtureOrganization;
  /** 1000 credits: the Client ID Metadata Document suite's connections are billed here. */
  cimd: FixtureOrganization;
  /** A signed-in user with no organization, who connects an MCP client first and creates one later. */
  oauthNewcomer: { userId: string; session: string };
  /** Home FR, credits and rate limit to spare: the fuzz suite's own, so its ledger is exact. */
  fuzz: FixtureOrganization;
  /** 100 credits: the hostile suite's download flood (tests/app/owasp/api4), so its charges are exact. */
  flood: FixtureOrganization;
  /** 1,000 credits: the hostile suite's other attacks (tests/app/owasp/), billed apart from every other suite. */
  hostile: FixtureOrganization;
  /** Another organization the hostile suite attacks from `hostile` (object-level authorization). */
  victim: FixtureOrganization;
  /** Credits and rate limit to spare: the schema-derived fuzz (tests/app/schema-fuzz.test.ts), billed apart. */
  schemaFuzz: FixtureOrganization;
  /** Credits and rate limit to spare: the dashboard procedures' fuzz (tests/app/dashboard-fuzz.test.ts), billed apart. */
  dashboardFuzz: FixtureOrganization;
  /** Home FR, credits and rate limit to spare: the browser suite's walks over every view of every market. */
  walker: FixtureOrganization;
  /**
   * 110 credits at the default low-balance threshold (100), a name with markup: the browser suite
   * debits it across the threshold and reads the warning in the header and the e-mail.
   */
  lowBalance: FixtureOrganization;
  /** 1,000 credits: the audit trail's suites (tests/app/audit-events.test.ts, tests/browser/audit.test.ts). */
  audit: FixtureOrganization;
  /** Another organization, whose trail must never show `audit`'s events. */
  auditOther: FixtureOrganization;
  /** People signed in with no organization yet, each for one hostile test that creates organizations. */
  people: { tapper: string; racer: string; assigner: string; orgless: string };
  /** The app's OAuth signing key (private JWK), to forge tokens the app must refuse. */
  signingKey: JWK;
}

export const SESSION_COOKIE = "authjs.session-token";

/**
 * A person, in one line: a user (an e-mail of their own unless `email` names one), a member of
 * `organizationId` with `role` (owner unless said) when one is given, that organization active when
 * `active`.
 */
export async function addPerson(
  db: Database,
  options: {
    organizationId?: string | null;
    role?: Role;
    email?: string;
    name?: string;
    active?: boolean;
    /** Whether the e-mail is verified (it is, unless said): a person who never signed in by link is not. */
    verified?: boolean;
  } = {},
): Promise<{ id: string; email: string }> {
  const email = options.email ?? `fixture-${randomBytes(6).toString("hex")}@example.com`;
  const organizationId = options.organizationId ?? null;
  const [user] = await db
    .insert(users)
    .values({
      email,
      name: options.name ?? null,
      emailVerified: options.verified === false ? null : new Date(),
      activeOrganizationId: options.active ? organizationId : null,
    })
    .returning({ id: users.id });
  if (!user) throw new Error("no user");
  if (organizationId)
    await db.insert(memberships).values({ organizationId, userId: user.id, role: options.role ?? "owner" });
  return { id: user.id, email };
}

/** A person with a dashboard session, in `organizationId` with `role` when given. */
export async function signedInUser(
  db: Database,
  organizationId: string | null,
  expires = new Date(Date.now() + 86_400_000),
  role: Role = "owner",
): Promise<{ userId: string; session: string }> {
  const { id } = await addPerson(db, { organizationId, role });
  const session = randomBytes(32).toString("hex");
  await db.insert(authSessions).values({ sessionToken: session, userId: id, expires });
  return { userId: id, session };
}

export async function organization(
  db: Database,
  name: string,
  options: { homeCountry?: string; credits: number; rateLimit?: number },
): Promise<FixtureOrganization> {
  const org = await createOrganization(db, {
    name,
    homeCountry: options.homeCountry ?? "DE",
    credits: options.credits,
    rateLimit: options.rateLimit ?? null,
  });
  const { secret } = await createApiToken(db, { organizationId: org.id, name: `${name} reader`, scopes: TOKEN_SCOPES });
  const { session, userId } = await signedInUser(db, org.id);
  return { id: org.id, token: secret, session, userId };
}

/**
 * A database ready for load: migrated (again is harmless), the demo catalogue, and one
 * organization, home FR, with a token and `credits` to spend.
 */
export async function demoCatalogueWithOrganization(
  handle: DatabaseHandle,
  name: string,
  credits: number,
): Promise<FixtureOrganization> {
  await migrateDatabase(handle);
  await seedDemoCatalogue(handle.db);
  return organization(handle.db, name, { homeCountry: "FR", credits });
}

export async function createAccountFixtures(db: Database): Promise<AccountFixtures> {
  const reader = await organization(db, "Reader", { credits: 1_000_000 });
  const noScope = await createApiToken(db, { organizationId: reader.id, name: "no scope", scopes: [] });
  const expired = await createApiToken(db, {
    organizationId: reader.id,
    name: "expired",
    scopes: TOKEN_SCOPES,
    expiresAt: new Date(Date.now() - 1000),
  });
  const revoked = await createApiToken(db, { organizationId: reader.id, name: "revoked", scopes: TOKEN_SCOPES });
  await revokeApiToken(db, reader.id, revoked.token.id);
  return {
    reader,
    french: await organization(db, "French", { homeCountry: "FR", credits: 1_000_000 }),
    forty: await organization(db, "Forty", { credits: 200 }),
    mixed: await organization(db, "Mixed", { credits: 100 }),
    failures: await organization(db, "Failures", { credits: 100 }),
    broke: await organization(db, "Broke", { credits: 0 }),
    limited: await organization(db, "Limited", { credits: 1_000_000, rateLimit: 5 }),
    tokens: { noScope: noScope.secret, expired: expired.secret, revoked: revoked.secret },
    newcomerSession: (await signedInUser(db, null)).session,
    expiredSession: (await signedInUser(db, reader.id, new Date(Date.now() - 1000))).session,
    oauth: await organization(db, "OAuth", { credits: 1000 }),
    cimd: await organization(db, "CIMD", { credits: 1000 }),
    changes: await organization(db, "Changes", { homeCountry: "FR", credits: 1000 }),
    explained: await organization(db, "Explained", { homeCountry: "FR", credits: 1000 }),
    uncertain: await organization(db, "Uncertain", { homeCountry: "FR", credits: 1000 }),
    follower: await organization(db, "Follower", { homeCountry: "FR", credits: 1000 }),
    oauthNewcomer: await signedInUser(db, null),
    fuzz: await organization(db, "Fuzz", { homeCountry: "FR", credits: 100_000_000, rateLimit: 1_000_000_000 }),
    flood: await organization(db, "Flood", { credits: 100 }),
    hostile: await organization(db, "Hostile", { credits: 1000 }),
    victim: await organization(db, "Victim", { homeCountry: "FR", credits: 1000 }),
    schemaFuzz: await organization(db, "Schema fuzz", { credits: 100_000_000, rateLimit: 1_000_000_000 }),
    dashboardFuzz: await organization(db, "Dashboard fuzz", { credits: 100_000_000, rateLimit: 1_000_000_000 }),
    walker: await organization(db, "Walker", {
      homeCountry: "FR",
      credits: 100_000_000,
      rateLimit: 1_000_000_000,
    }),
    lowBalance: await organization(db, "Low <b>balance</b> & Co", { credits: 110 }),
    audit: await organization(db, "Audit =cmd|' /C calc'!A0", { credits: 1000 }),
    auditOther: await organization(db, "Audit other", { credits: 1000 }),
    people: {
      tapper: (await signedInUser(db, null)).session,
      racer: (await signedInUser(db, null)).session,
      assigner: (await signedInUser(db, null)).session,
      orgless: (await signedInUser(db, null)).session,
    },
    signingKey: (await signingKeys(db))[0] as JWK,
  };
}

/** Every secret the fixtures hold: token secrets and session values (none may ever be logged). */
export function fixtureSecrets(fixtures: AccountFixtures): string[] {
  const organizations = Object.values(fixtures).filter(
    (value): value is FixtureOrganization => typeof value === "object" && value !== null && "token" in value,
  );
  return [
    ...organizations.flatMap((org) => [org.token, org.session]),
    ...Object.values(fixtures.tokens),
    fixtures.newcomerSession,
    fixtures.expiredSession,
    fixtures.oauthNewcomer.session,
    ...Object.values(fixtures.people),
  ];
}

/**
 * An organization's books read straight from the tables: its balance, the sum of its ledger (the
 * two agree when nothing was lost), its debit rows and the credits they charged.
 */
export async function creditBooks(handle: DatabaseHandle, organizationId: string) {
  const [row] = await queryRows<{ balance: number; ledger: number; debits: number; charged: number }>(
    handle.db,
    sql`select credit_balance as balance,
          (select coalesce(sum(amount), 0)::int from credit_ledger where organization_id = ${organizationId}) as ledger,
          (select count(*)::int from credit_ledger where organization_id = ${organizationId} and kind = 'debit') as debits,
          (select coalesce(-sum(amount), 0)::int from credit_ledger where organization_id = ${organizationId} and kind = 'debit') as charged
        from organizations where id = ${organizationId}`,
  );
  return {
    balance: Number(row?.balance),
    ledger: Number(row?.ledger),
    debits: Number(row?.debits),
    charged: Number(row?.charged),
  };
}
