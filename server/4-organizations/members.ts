/**
 * Who belongs to an organization, with which role (server/1-domain/roles.ts), and the changes to
 * it. Every organization keeps at least one owner: a change that could leave none locks the
 * owners' membership rows first, so two demotions at once are decided one after the other and
 * the second sees the first (docs/accounts.md, "The last owner"). Removing a person revokes, in
 * the same transaction, the API tokens they created for the organization and their MCP
 * connections.
 */

import { and, asc, eq, isNull, notInArray, sql } from "drizzle-orm";
import { announceChange } from "../../db/change-feed";
import type { Database, Transaction } from "../../db/client";
import { apiTokens, invitations, memberships, users } from "../../db/schema";
import { mayAssign, ROLES, type Role } from "../1-domain/roles";
import { deleteGrants, grantsOfMember } from "./connections";

export class MemberError extends Error {}
/** The person does not belong to the organization. */
export class NotAMemberError extends MemberError {}
/** The change would leave the organization without an owner. */
export class LastOwnerError extends MemberError {
  constructor() {
    super("An organization keeps at least one owner: make someone else an owner first.");
  }
}
/** The person already belongs to the organization. */
export class AlreadyMemberError extends MemberError {}

export interface Member {
  userId: string;
  email: string | null;
  name: string | null;
  role: Role;
  joinedAt: Date;
}

export function listMembers(db: Database | Transaction, organizationId: string): Promise<Member[]> {
  return db
    .select({
      userId: memberships.userId,
      email: users.email,
      name: users.name,
      role: memberships.role,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(asc(memberships.createdAt), asc(memberships.userId));
}

/** The person's role in the organization; null when they do not belong to it. */
export async function roleOf(db: Database | Transaction, organizationId: string, userId: string): Promise<Role | null> {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row?.role ?? null;
}

/**
 * Locks the owners' rows and the person's own, and answers the person's role and how many owners
 * there are. A concurrent change waiting on these rows re-reads them after this one commits.
 */
async function lockForChange(tx: Transaction, organizationId: string, userId: string) {
  const owners = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "owner")))
    .orderBy(asc(memberships.userId))
    .for("update");
  const [target] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
    .for("update");
  if (!target) throw new NotAMemberError("That person does not belong to this organization.");
  return { role: target.role, owners: owners.length };
}

/** Adds a person with a role (an accepted invitation, the operator CLI). */
export async function addMember(
  db: Database | Transaction,
  input: { organizationId: string; userId: string; role: Role },
): Promise<void> {
  const inserted = await db
    .insert(memberships)
    .values(input)
    .onConflictDoNothing()
    .returning({ userId: memberships.userId });
  if (inserted.length === 0) throw new AlreadyMemberError("That person already belongs to this organization.");
}

/**
 * Revokes the open invitations a person sent that they could no longer send: with `role` null
 * (they are leaving) every one, else those inviting a role `role` may not hand out. An invitation
 * acts with its sender's authority when it is accepted, so it must not outlive that authority.
 * Answers how many it revoked.
 */
async function revokeInvitationsBeyond(
  tx: Transaction,
  input: { organizationId: string; userId: string },
  role: Role | null,
): Promise<number> {
  const mayStillSend = role ? ROLES.filter((invited) => mayAssign(role, null, invited)) : [];
  const revoked = await tx
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(invitations.organizationId, input.organizationId),
        eq(invitations.invitedByUserId, input.userId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        mayStillSend.length > 0 ? notInArray(invitations.role, mayStillSend) : undefined,
      ),
    )
    .returning({ id: invitations.id });
  return revoked.length;
}

/**
 * Gives a member another role; refused when it would take the last owner's. Revokes, in the same
 * transaction, the open invitations they sent that the new role could not send. Answers the old
 * role and how many invitations were revoked.
 */
export async function changeRole(
  db: Database,
  input: { organizationId: string; userId: string; role: Role },
): Promise<{ from: Role; revokedInvitations: number }> {
  return db.transaction(async (tx) => {
    const { role, owners } = await lockForChange(tx, input.organizationId, input.userId);
    if (role === "owner" && input.role !== "owner" && owners <= 1) throw new LastOwnerError();
    await tx
      .update(memberships)
      .set({ role: input.role })
      .where(and(eq(memberships.organizationId, input.organizationId), eq(memberships.userId, input.userId)));
    return { from: role, revokedInvitations: await revokeInvitationsBeyond(tx, input, input.role) };
  });
}

/**
 * Takes a person out of the organization (removed, or leaving), with what acted for them in it:
 * the API tokens they created for it are revoked, the MCP connections that act for it (bound to
 * it at consent: connections.ts) deleted, and the invitations they sent that are still open
 * revoked (one sent on the way out must not bring them, or anyone, back in); their connections
 * to other organizations stay.
 */
export async function removeMember(
  db: Database,
  input: { organizationId: string; userId: string },
): Promise<{ role: Role; revokedTokens: number; revokedConnections: number; revokedInvitations: number }> {
  const result = await db.transaction(async (tx) => {
    const { role, owners } = await lockForChange(tx, input.organizationId, input.userId);
    if (role === "owner" && owners <= 1) throw new LastOwnerError();
    await tx
      .delete(memberships)
      .where(and(eq(memberships.organizationId, input.organizationId), eq(memberships.userId, input.userId)));
    const tokens = await tx
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(apiTokens.organizationId, input.organizationId),
          eq(apiTokens.createdByUserId, input.userId),
          isNull(apiTokens.revokedAt),
        ),
      )
      .returning({ id: apiTokens.id });
    const grants = await grantsOfMember(tx, input.organizationId, input.userId);
    await deleteGrants(tx, grants);
    const revokedInvitations = await revokeInvitationsBeyond(tx, input, null);
    await tx
      .update(users)
      .set({ activeOrganizationId: null })
      .where(and(eq(users.id, input.userId), eq(users.activeOrganizationId, input.organizationId)));
    return {
      role,
      revokedTokens: tokens.length,
      revokedConnections: grants.length,
      revokedInvitations,
    };
  });
  // Cached token holders on this instance forget at once; other instances on the trigger's NOTIFY.
  announceChange("credentials");
  return result;
}

/**
 * Hands ownership from one owner to another member: the new owner is made one, the old becomes
 * an admin, in one transaction (there are never zero owners in between); the owner invitations
 * the old owner sent, which an admin could not send, are revoked with it. Answers how many.
 */
export async function transferOwnership(
  db: Database,
  input: { organizationId: string; fromUserId: string; toUserId: string },
): Promise<{ revokedInvitations: number }> {
  if (input.fromUserId === input.toUserId) throw new MemberError("You already own this organization.");
  return db.transaction(async (tx) => {
    const from = await lockForChange(tx, input.organizationId, input.fromUserId);
    if (from.role !== "owner") throw new MemberError("Only an owner can transfer ownership.");
    await lockForChange(tx, input.organizationId, input.toUserId);
    const where = (userId: string) =>
      and(eq(memberships.organizationId, input.organizationId), eq(memberships.userId, userId));
    await tx.update(memberships).set({ role: "owner" }).where(where(input.toUserId));
    await tx.update(memberships).set({ role: "admin" }).where(where(input.fromUserId));
    return {
      revokedInvitations: await revokeInvitationsBeyond(
        tx,
        { organizationId: input.organizationId, userId: input.fromUserId },
        "admin",
      ),
    };
  });
}

/**
 * The person with this address (compared in lower case); with `create`, a new one when there is
 * none (the operator adding someone who has never signed in: they sign in with that address).
 */
export async function personByEmail(
  db: Database,
  email: string,
  options: { create?: boolean } = {},
): Promise<{ id: string; email: string; created: boolean }> {
  const address = email.trim().toLowerCase();
  const [found] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`lower(${users.email}) = ${address}`);
  if (found) return { id: found.id, email: found.email ?? address, created: false };
  if (!options.create) throw new NotAMemberError(`nobody has the address ${address}`);
  const [made] = await db.insert(users).values({ email: address }).returning({ id: users.id });
  if (!made) throw new Error("user insert returned nothing");
  return { id: made.id, email: address, created: true };
}
