/**
 * Organizations and who belongs to them. The creator is the owner. Credits are money, so a person
 * creating organizations from the dashboard gets the starting grant once, with their first, and
 * may create at most MAX_ORGANIZATIONS_PER_PERSON (docs/accounts.md, "Starting credits"); the
 * operator grants more. The grant is the organization's first ledger row, in the same transaction
 * as the organization itself, under a lock of the person's row, so concurrent creations cannot
 * both take it.
 */
import { and, asc, count, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { geographies, memberships, organizations, users } from "../../db/schema";
import type { Role } from "../1-domain/roles";
import { changeCredits } from "../4-credits/credits";

export class OrganizationError extends Error {}

/** A person asked for more organizations than they may create. */
export class OrganizationLimitError extends OrganizationError {
  constructor(readonly limit: number) {
    super(
      `you have created ${limit} organization${limit === 1 ? "" : "s"}, as many as one person may; ask the operator for another`,
    );
  }
}

function wholeSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min)
    throw new Error(`${name} must be a whole number ≥ ${min}, not "${raw}"`);
  return value;
}

/** Credits a person's first organization starts with: STARTING_CREDITS, default 1,000. */
export const startingCredits = (env: NodeJS.ProcessEnv = process.env) => wholeSetting(env, "STARTING_CREDITS", 1000, 0);

/** How many organizations one person may create from the dashboard: MAX_ORGANIZATIONS_PER_PERSON, default 5. */
export const maxOrganizationsPerPerson = (env: NodeJS.ProcessEnv = process.env) =>
  wholeSetting(env, "MAX_ORGANIZATIONS_PER_PERSON", 5, 1);

export interface NewOrganization {
  /** A fixed id (the demo organization); otherwise a random `org_…`. */
  id?: string;
  name: string;
  homeCountry: string;
  /** The owner; operators may create organizations with no member yet. */
  ownerUserId?: string | null;
  /**
   * The person creating it for themselves (the dashboard): they become its owner, the creation
   * counts against their limit, and the starting grant is theirs only once. Without it (the
   * operator CLI, the demo seed) `credits` or STARTING_CREDITS is granted and nothing is counted.
   */
  selfServe?: boolean;
  /** The operator's grant; not with `selfServe`. */
  credits?: number;
  /** Requests per rate-limit window; unset: the service default. */
  rateLimit?: number | null;
}

export interface OrganizationSummary {
  id: string;
  name: string;
  homeCountry: string;
  creditBalance: number;
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * For a person creating an organization for themselves: refuses past their limit, and says what
 * the new one is granted (the starting credits with their first, nothing after). Holds their row
 * until the transaction ends, so two creations at once are counted one after the other.
 */
async function selfServeGrant(tx: Transaction, userId: string): Promise<number> {
  const [person] = await tx
    .select({ startingGrantAt: users.startingGrantAt })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  if (!person) throw new OrganizationError("no such person");
  const [created] = await tx
    .select({ count: count() })
    .from(organizations)
    .where(eq(organizations.createdByUserId, userId));
  const limit = maxOrganizationsPerPerson();
  if ((created?.count ?? 0) >= limit) throw new OrganizationLimitError(limit);
  if (person.startingGrantAt) return 0;
  await tx.update(users).set({ startingGrantAt: new Date() }).where(eq(users.id, userId));
  return startingCredits();
}

/** What creating one more organization would give this person: its starting credits, and how many more they may create. */
export async function newOrganizationTerms(
  db: Database,
  userId: string,
): Promise<{ credits: number; remaining: number }> {
  const [person] = await db.select({ startingGrantAt: users.startingGrantAt }).from(users).where(eq(users.id, userId));
  const [created] = await db
    .select({ count: count() })
    .from(organizations)
    .where(eq(organizations.createdByUserId, userId));
  return {
    credits: person?.startingGrantAt ? 0 : startingCredits(),
    remaining: Math.max(0, maxOrganizationsPerPerson() - (created?.count ?? 0)),
  };
}

export async function createOrganization(db: Database, input: NewOrganization): Promise<OrganizationSummary> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) throw new OrganizationError("the name must have 1 to 100 characters");
  const homeCountry = input.homeCountry.toUpperCase();
  if (input.selfServe && (!input.ownerUserId || input.credits !== undefined))
    throw new Error("a self-serve organization has its creator as owner and no operator grant");
  const operatorCredits = input.credits ?? startingCredits();
  if (!Number.isSafeInteger(operatorCredits) || operatorCredits < 0)
    throw new OrganizationError("credits must be a whole number ≥ 0");
  return db.transaction(async (tx) => {
    const [geography] = await tx
      .select({ country: geographies.country })
      .from(geographies)
      .where(eq(geographies.country, homeCountry));
    if (!geography) throw new OrganizationError(`"${homeCountry}" is not a known geography`);
    const credits = input.selfServe ? await selfServeGrant(tx, input.ownerUserId as string) : operatorCredits;
    const [organization] = await tx
      .insert(organizations)
      .values({
        id: input.id,
        name,
        homeCountry,
        rateLimit: input.rateLimit ?? null,
        createdByUserId: input.selfServe ? input.ownerUserId : null,
      })
      .returning();
    if (!organization) throw new Error("organization insert returned nothing");
    const balance =
      credits > 0
        ? await changeCredits(tx, {
            organizationId: organization.id,
            kind: "grant",
            amount: credits,
            note: "starting grant",
          })
        : 0;
    if (input.ownerUserId) {
      await tx
        .insert(memberships)
        .values({ organizationId: organization.id, userId: input.ownerUserId, role: "owner" });
      // The new organization becomes the one the user acts for.
      await tx.update(users).set({ activeOrganizationId: organization.id }).where(eq(users.id, input.ownerUserId));
    }
    return { id: organization.id, name, homeCountry, creditBalance: balance };
  });
}

export interface Membership extends OrganizationSummary {
  role: Role;
  rateLimit: number | null;
  /** At or below it the header warns (server/1-domain/low-balance.ts); 0: off. */
  lowBalanceThreshold: number;
}

export function organizationsOf(db: Database, userId: string): Promise<Membership[]> {
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      homeCountry: organizations.homeCountry,
      creditBalance: organizations.creditBalance,
      rateLimit: organizations.rateLimit,
      lowBalanceThreshold: organizations.lowBalanceThreshold,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.name), asc(organizations.id));
}

/**
 * The organization a user acts for: the active one if they still belong to it, else their first
 * (by name), else null — a user with no organization yet.
 */
export async function activeOrganizationOf(db: Database, userId: string): Promise<Membership | null> {
  const [user] = await db.select({ active: users.activeOrganizationId }).from(users).where(eq(users.id, userId));
  const mine = await organizationsOf(db, userId);
  return mine.find((m) => m.id === user?.active) ?? mine[0] ?? null;
}

/** Makes one of the user's organizations the active one; false when they do not belong to it. */
export async function switchOrganization(db: Database, userId: string, organizationId: string): Promise<boolean> {
  const [membership] = await db
    .select({ organizationId: memberships.organizationId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, organizationId)));
  if (!membership) return false;
  await db.update(users).set({ activeOrganizationId: organizationId }).where(eq(users.id, userId));
  return true;
}

/** Refuses, with a clear message, an organization id that does not exist (operator commands). */
export async function requireOrganization(db: Database, organizationId: string): Promise<void> {
  const [row] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!row) throw new OrganizationError(`no organization "${organizationId}"`);
}
