/**
 * Invitations to join an organization with a role (docs/accounts.md, "Invitations"). A link's
 * token is 32 random bytes; only its SHA-256 is stored, so the table does not hand out
 * memberships. A link works once, for INVITATION_DAYS; resending makes a new token (the old link
 * stops working), revoking ends it. Accepting needs the signed-in person's e-mail to be the one
 * invited (compared in lower case), joins with the role and makes the organization the active one.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { invitations, memberships, organizations, users } from "../../db/schema";
import type { Role } from "../1-domain/roles";
import { AlreadyMemberError, addMember } from "./members";

/** How long an invitation's link works. */
export const INVITATION_DAYS = 7;
const DAY_MS = 86_400_000;

export class InvitationError extends Error {}
/** The link is unknown, used, revoked or expired: the same answer for each, nothing to probe. */
export class InvitationUnusableError extends InvitationError {}
/** The signed-in address is not the invited one. */
export class InvitationAddressError extends InvitationError {}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");
export const normalEmail = (email: string) => email.trim().toLowerCase();

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  sentAt: Date;
  expiresAt: Date;
}

const pending = (organizationId: string) =>
  and(
    eq(invitations.organizationId, organizationId),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
    gt(invitations.expiresAt, sql`now()`),
  );

/** The organization's invitations not yet accepted, revoked or expired. */
export function pendingInvitations(db: Database, organizationId: string): Promise<PendingInvitation[]> {
  return db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      invitedBy: sql<string | null>`coalesce(${users.name}, ${users.email})`,
      sentAt: invitations.sentAt,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedByUserId))
    .where(pending(organizationId))
    .orderBy(asc(invitations.createdAt), asc(invitations.id));
}

export interface IssuedInvitation {
  id: string;
  email: string;
  role: Role;
  /** The link's secret: mailed, never stored. */
  token: string;
  expiresAt: Date;
}

/**
 * Invites an address. A pending invitation of the same address is renewed with the new role and
 * a new token (one live link per address and organization).
 */
export async function createInvitation(
  db: Database,
  input: { organizationId: string; email: string; role: Role; invitedByUserId: string | null },
): Promise<IssuedInvitation> {
  const email = normalEmail(input.email);
  return db.transaction(async (tx) => {
    const [member] = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.organizationId, input.organizationId), sql`lower(${users.email}) = ${email}`));
    if (member) throw new AlreadyMemberError(`${email} already belongs to this organization.`);
    const token = newToken();
    const expiresAt = new Date(Date.now() + INVITATION_DAYS * DAY_MS);
    const [renewed] = await tx
      .update(invitations)
      .set({
        role: input.role,
        tokenHash: hashToken(token),
        sentAt: new Date(),
        expiresAt,
        invitedByUserId: input.invitedByUserId,
      })
      .where(and(pending(input.organizationId), eq(invitations.email, email)))
      .returning({ id: invitations.id });
    const id =
      renewed?.id ??
      (
        await tx
          .insert(invitations)
          .values({
            organizationId: input.organizationId,
            email,
            role: input.role,
            tokenHash: hashToken(token),
            invitedByUserId: input.invitedByUserId,
            expiresAt,
          })
          .returning({ id: invitations.id })
      )[0]?.id;
    if (!id) throw new Error("invitation insert returned nothing");
    return { id, email, role: input.role, token, expiresAt };
  });
}

/** A new token and a new expiry for a pending invitation; the old link stops working. Null: no such pending one. */
export async function resendInvitation(
  db: Database,
  organizationId: string,
  invitationId: string,
): Promise<IssuedInvitation | null> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * DAY_MS);
  const [row] = await db
    .update(invitations)
    .set({ tokenHash: hashToken(token), sentAt: new Date(), expiresAt })
    .where(and(pending(organizationId), eq(invitations.id, invitationId)))
    .returning({ id: invitations.id, email: invitations.email, role: invitations.role });
  return row ? { ...row, token, expiresAt } : null;
}

/** Ends a pending invitation; false when there is no such pending one. */
export async function revokeInvitation(db: Database, organizationId: string, invitationId: string): Promise<boolean> {
  const rows = await db
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(and(pending(organizationId), eq(invitations.id, invitationId)))
    .returning({ id: invitations.id });
  return rows.length > 0;
}

export interface InvitationView {
  organizationId: string;
  organizationName: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  expiresAt: Date;
}

/** What a usable link invites to (for the acceptance page); null when it is not usable. */
export async function invitationByToken(db: Database, token: string): Promise<InvitationView | null> {
  const [row] = await db
    .select({
      organizationId: invitations.organizationId,
      organizationName: organizations.name,
      email: invitations.email,
      role: invitations.role,
      invitedBy: sql<string | null>`coalesce(${users.name}, ${users.email})`,
      expiresAt: invitations.expiresAt,
      acceptedAt: invitations.acceptedAt,
      revokedAt: invitations.revokedAt,
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .leftJoin(users, eq(users.id, invitations.invitedByUserId))
    .where(eq(invitations.tokenHash, hashToken(token)));
  if (!row || row.acceptedAt || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
  const { acceptedAt, revokedAt, ...view } = row;
  return view;
}

/**
 * Accepts an invitation as the signed-in person: once (the row is claimed by a conditional
 * update, so two acceptances of one link cannot both succeed), with their address matching.
 */
export async function acceptInvitation(
  db: Database,
  input: { token: string; userId: string },
): Promise<{ organizationId: string; role: Role }> {
  return db.transaction(async (tx) => {
    const [person] = await tx.select({ email: users.email }).from(users).where(eq(users.id, input.userId));
    const [claimed] = await tx
      .update(invitations)
      .set({ acceptedAt: new Date(), acceptedByUserId: input.userId })
      .where(
        and(
          eq(invitations.tokenHash, hashToken(input.token)),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, sql`now()`),
        ),
      )
      .returning({ organizationId: invitations.organizationId, email: invitations.email, role: invitations.role });
    if (!claimed)
      throw new InvitationUnusableError(
        "This invitation link is not valid: it was used, revoked, replaced or has expired.",
      );
    if (!person?.email || normalEmail(person.email) !== claimed.email)
      // Thrown inside the transaction: the claim above is rolled back and the link still works for its address.
      throw new InvitationAddressError(
        `This invitation is for ${claimed.email}; you are signed in as ${person?.email ?? "someone without an address"}. Sign in with the invited address.`,
      );
    await addMember(tx, { organizationId: claimed.organizationId, userId: input.userId, role: claimed.role });
    await tx.update(users).set({ activeOrganizationId: claimed.organizationId }).where(eq(users.id, input.userId));
    return { organizationId: claimed.organizationId, role: claimed.role };
  });
}
