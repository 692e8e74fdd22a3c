/**
 * Organizations and who belongs to them. The creator is the owner; a new organization gets the
 * starting grant as its first ledger row, in the same transaction as the organization itself.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { geographies, memberships, organizations, users } from "../../db/schema";
import { changeCredits } from "./credits";

export class OrganizationError extends Error {}

/** Credits a new organization starts with: STARTING_CREDITS, default 1,000. */
export function startingCredits(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.STARTING_CREDITS;
  if (raw === undefined || raw === "") return 1000;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`STARTING_CREDITS must be a whole number ≥ 0, not "${raw}"`);
  return value;
}

export interface NewOrganization {
  /** A fixed id (the demo organization); otherwise a random `org_…`. */
  id?: string;
  name: string;
  homeCountry: string;
  /** The owner; operators may create organizations with no member yet. */
  ownerUserId?: string | null;
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

export async function createOrganization(db: Database, input: NewOrganization): Promise<OrganizationSummary> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) throw new OrganizationError("the name must have 1 to 100 characters");
  const homeCountry = input.homeCountry.toUpperCase();
  const credits = input.credits ?? startingCredits();
  if (!Number.isSafeInteger(credits) || credits < 0) throw new OrganizationError("credits must be a whole number ≥ 0");
  return db.transaction(async (tx) => {
    const [geography] = await tx
      .select({ country: geographies.country })
      .from(geographies)
      .where(eq(geographies.country, homeCountry));
    if (!geography) throw new OrganizationError(`"${homeCountry}" is not a known geography`);
    const [organization] = await tx
      .insert(organizations)
      .values({ id: input.id, name, homeCountry, rateLimit: input.rateLimit ?? null })
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
  role: "owner" | "member";
  rateLimit: number | null;
}

export function organizationsOf(db: Database, userId: string): Promise<Membership[]> {
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      homeCountry: organizations.homeCountry,
      creditBalance: organizations.creditBalance,
      rateLimit: organizations.rateLimit,
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
