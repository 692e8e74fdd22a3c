/**
 * The organization as its API tokens read it (GET /v1/organization, MCP service_account_organization):
 * its name, settings, balance now and members, in one statement.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { memberships, organizations, users } from "../../db/schema";
import { sharedRead } from "../../db/shared-read";
import type { Role } from "../1-domain/roles";

/** The organization's name, settings, balance now and members (GET /v1/organization). */
export function organizationAccount(db: Database, organizationId: string) {
  // Identical reads in one turn share a statement (db/shared-read.ts); the row is not mutated.
  return sharedRead(db, `organization ${organizationId}`, () => readOrganizationAccount(db, organizationId));
}

async function readOrganizationAccount(db: Database, organizationId: string) {
  const [row] = await db
    .select({
      name: organizations.name,
      homeCountry: organizations.homeCountry,
      balance: organizations.creditBalance,
      rateLimit: organizations.rateLimit,
      createdAt: organizations.createdAt,
      // Its members in the same statement (as listMembers orders them): one round trip per read.
      members: sql<MemberRow[] | string>`(
        select coalesce(json_agg(json_build_object(
                 'userId', m.user_id, 'email', u.email, 'name', u.name, 'role', m.role, 'joinedAt', m.created_at
               ) order by m.created_at, m.user_id), '[]'::json)
          from ${memberships} m join ${users} u on u.id = m.user_id
         where m.organization_id = ${organizationId})`,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!row) return undefined;
  const members = typeof row.members === "string" ? (JSON.parse(row.members) as MemberRow[]) : row.members;
  return { ...row, members: members.map((m) => ({ ...m, joinedAt: new Date(m.joinedAt) })) };
}

interface MemberRow {
  userId: string;
  email: string | null;
  name: string | null;
  role: Role;
  joinedAt: string;
}
