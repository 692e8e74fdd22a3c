/**
 * The active organization's people (docs/accounts.md, "Members" and "Invitations"): who belongs,
 * invitations, roles, removal, leaving, ownership. Each change names its audit action
 * (TEAM_AUDIT_ACTIONS, server/1-domain/roles.ts). Powers come from the roles table through
 * permittedProcedure; which roles one may hand out, from mayAssign.
 */
import { z } from "zod";
import { can, mayAssign, permissionsOf, ROLES, type Role, type TeamAuditAction } from "../1-domain/roles";
import { ApiError, conflict, forbidden, invalidRequest, notFound } from "../1-errors/api-error";
import { THROTTLES, throttle } from "../3-limits/throttles";
import {
  acceptInvitation,
  createInvitation,
  InvitationAddressError,
  InvitationError,
  invitationByToken,
  normalEmail,
  pendingInvitations,
  resendInvitation,
  revokeInvitation,
} from "../4-organizations/invitations";
import {
  AlreadyMemberError,
  changeRole,
  LastOwnerError,
  listMembers,
  MemberError,
  NotAMemberError,
  removeMember,
  roleOf,
  transferOwnership,
} from "../4-organizations/members";
import { organizationsOf } from "../4-organizations/organizations";
import { invitationMail } from "../6-mail/invitation-mail";
import { deliverMail } from "../6-mail/mail";
import type { ApiContext } from "../7-procedures/context";
import {
  createRouter,
  organizationProcedure,
  permittedProcedure,
  publicProcedure,
  userProcedure,
} from "../7-procedures/trpc";

const userIdInput = z.string().min(1).max(64);
const invitationIdInput = z.object({ invitationId: z.string().min(1).max(64) });
const tokenInput = z.object({ token: z.string().min(1).max(128) });

/** The audit action of each change: one per mutation below (the audit trail records it by this name). */
export const MEMBER_ACTIONS = {
  invite: "member.invite",
  changeRole: "member.role_change",
  remove: "member.remove",
  leave: "member.leave",
  transferOwnership: "ownership.transfer",
  revokeInvitation: "invitation.revoke",
  resendInvitation: "invitation.resend",
  acceptInvitation: "invitation.accept",
} as const satisfies Record<string, TeamAuditAction>;

/** What the audit trail names as the target of a change to one person or one invitation. */
const personTarget = (input: { userId: string }) => ({ type: "user", id: input.userId });
const invitationTarget = (input: { invitationId: string }) => ({ type: "invitation", id: input.invitationId });

type Removed = { role: Role; revokedTokens: number; revokedConnections: number; revokedInvitations: number };
const removedDetails = (out: Removed) => ({
  role: out.role,
  revokedTokens: out.revokedTokens,
  revokedConnections: out.revokedConnections,
  revokedInvitations: out.revokedInvitations,
});

/** The dashboard's words for a refused change. */
function refusal(error: unknown): never {
  if (error instanceof LastOwnerError || error instanceof AlreadyMemberError) throw conflict(error.message);
  if (error instanceof NotAMemberError) throw notFound(error.message);
  if (error instanceof InvitationAddressError) throw forbidden(error.message, "invitation.email");
  if (error instanceof InvitationError) throw notFound(error.message);
  if (error instanceof MemberError) throw invalidRequest(error.message, []);
  throw error;
}

function mayHandOut(actor: Role, from: Role | null, to: Role): void {
  if (!mayAssign(actor, from, to))
    throw forbidden(
      `Your role in this organization (${actor}) may not make or unmake owners: it needs ownership.transfer.`,
      "ownership.transfer",
    );
}

/**
 * Counts one invitation mail against its inviter, organization and address, before anything is
 * written: a refused invitation leaves any earlier link of it working.
 */
async function countInvitation(ctx: ApiContext & { userId: string }, organizationId: string, email: string) {
  const verdict = await throttle(ctx.db, [
    [THROTTLES.invitationsPerInviter, ctx.userId],
    [THROTTLES.invitationsPerOrganization, organizationId],
    [THROTTLES.invitationsPerAddress, normalEmail(email)],
  ]);
  if (!verdict.allowed)
    throw new ApiError("rate_limited", `Too many invitations for now; try again in ${verdict.retryAfterSeconds} s.`, {
      headers: { "Retry-After": String(verdict.retryAfterSeconds) },
    });
}

/** Sends an invitation's mail, its link at the app's public origin. */
async function sendInvitation(
  ctx: ApiContext & { userId: string },
  organizationId: string,
  invitation: { email: string; role: Role; token: string; expiresAt: Date },
): Promise<void> {
  const organization = (await organizationsOf(ctx.db, ctx.userId)).find((m) => m.id === organizationId);
  const inviter = (await listMembers(ctx.db, organizationId)).find((m) => m.userId === ctx.userId);
  await deliverMail(
    ctx.db,
    invitationMail({
      origin: ctx.origin,
      to: invitation.email,
      token: invitation.token,
      organizationName: organization?.name ?? "",
      inviterName: inviter?.name ?? inviter?.email ?? null,
      role: invitation.role,
      expiresAt: invitation.expiresAt,
    }),
  );
}

export const membersRouter = createRouter({
  /** Who belongs; pending invitations for those who manage members; what the caller may do. */
  list: permittedProcedure("members.read").query(async ({ ctx }) => ({
    members: await listMembers(ctx.db, ctx.organization.id),
    invitations: can(ctx.role, "members.manage") ? await pendingInvitations(ctx.db, ctx.organization.id) : [],
    me: { userId: ctx.userId, role: ctx.role, permissions: permissionsOf(ctx.role) },
    roles: ROLES,
  })),

  // member.invite
  invite: permittedProcedure("members.manage")
    .meta({
      audit: {
        action: MEMBER_ACTIONS.invite,
        target: (_: unknown, out: { invitationId: string }) => ({ type: "invitation", id: out.invitationId }),
        details: (_: unknown, out: { email: string; role: Role }) => ({ email: out.email, role: out.role }),
      },
    })
    .input(z.object({ email: z.email("An e-mail address").max(254), role: z.enum(ROLES) }))
    .mutation(async ({ ctx, input }) => {
      mayHandOut(ctx.role, null, input.role);
      await countInvitation(ctx, ctx.organization.id, input.email);
      const invitation = await createInvitation(ctx.db, {
        organizationId: ctx.organization.id,
        email: input.email,
        role: input.role,
        invitedByUserId: ctx.userId,
      }).catch(refusal);
      await sendInvitation(ctx, ctx.organization.id, invitation);
      return {
        action: MEMBER_ACTIONS.invite,
        invitationId: invitation.id,
        email: invitation.email,
        role: invitation.role,
      };
    }),

  // invitation.resend
  resendInvitation: permittedProcedure("members.manage")
    .meta({ audit: { action: MEMBER_ACTIONS.resendInvitation, target: invitationTarget } })
    .input(invitationIdInput)
    .mutation(async ({ ctx, input }) => {
      const pending = (await pendingInvitations(ctx.db, ctx.organization.id)).find((i) => i.id === input.invitationId);
      if (!pending) throw notFound("No such pending invitation in this organization.");
      await countInvitation(ctx, ctx.organization.id, pending.email);
      const invitation = await resendInvitation(ctx.db, ctx.organization.id, input.invitationId);
      if (!invitation) throw notFound("No such pending invitation in this organization.");
      await sendInvitation(ctx, ctx.organization.id, invitation);
      return { action: MEMBER_ACTIONS.resendInvitation, invitationId: invitation.id };
    }),

  // invitation.revoke
  revokeInvitation: permittedProcedure("members.manage")
    .meta({ audit: { action: MEMBER_ACTIONS.revokeInvitation, target: invitationTarget } })
    .input(invitationIdInput)
    .mutation(async ({ ctx, input }) => {
      if (!(await revokeInvitation(ctx.db, ctx.organization.id, input.invitationId)))
        throw notFound("No such pending invitation in this organization.");
      return { action: MEMBER_ACTIONS.revokeInvitation, invitationId: input.invitationId };
    }),

  // member.role_change
  changeRole: permittedProcedure("members.manage")
    .meta({
      audit: {
        action: MEMBER_ACTIONS.changeRole,
        target: personTarget,
        details: (_: unknown, out: { from: Role; to: Role; revokedInvitations: number }) => ({
          from: out.from,
          to: out.to,
          revokedInvitations: out.revokedInvitations,
        }),
      },
    })
    .input(z.object({ userId: userIdInput, role: z.enum(ROLES) }))
    .mutation(async ({ ctx, input }) => {
      const current = await roleOf(ctx.db, ctx.organization.id, input.userId);
      if (!current) throw notFound("That person does not belong to this organization.");
      mayHandOut(ctx.role, current, input.role);
      const changed = await changeRole(ctx.db, { organizationId: ctx.organization.id, ...input }).catch(refusal);
      return { action: MEMBER_ACTIONS.changeRole, userId: input.userId, ...changed, to: input.role };
    }),

  // member.remove
  remove: permittedProcedure("members.manage")
    .meta({
      audit: {
        action: MEMBER_ACTIONS.remove,
        target: personTarget,
        details: (_: unknown, out: Removed) => removedDetails(out),
      },
    })
    .input(z.object({ userId: userIdInput }))
    .mutation(async ({ ctx, input }) => {
      const current = await roleOf(ctx.db, ctx.organization.id, input.userId);
      if (!current) throw notFound("That person does not belong to this organization.");
      mayHandOut(ctx.role, current, current);
      const removed = await removeMember(ctx.db, { organizationId: ctx.organization.id, userId: input.userId }).catch(
        refusal,
      );
      return { action: MEMBER_ACTIONS.remove, userId: input.userId, ...removed };
    }),

  // member.leave: anyone may leave, except the last owner.
  leave: organizationProcedure
    .meta({ audit: { action: MEMBER_ACTIONS.leave, details: (_: unknown, out: Removed) => removedDetails(out) } })
    .mutation(async ({ ctx }) => {
      const removed = await removeMember(ctx.db, { organizationId: ctx.organization.id, userId: ctx.userId }).catch(
        refusal,
      );
      return { action: MEMBER_ACTIONS.leave, organizationId: ctx.organization.id, ...removed };
    }),

  // ownership.transfer
  transferOwnership: permittedProcedure("ownership.transfer")
    .meta({
      audit: {
        action: MEMBER_ACTIONS.transferOwnership,
        target: personTarget,
        details: (_: unknown, out: { revokedInvitations: number }) => ({ revokedInvitations: out.revokedInvitations }),
      },
    })
    .input(z.object({ userId: userIdInput }))
    .mutation(async ({ ctx, input }) => {
      const transferred = await transferOwnership(ctx.db, {
        organizationId: ctx.organization.id,
        fromUserId: ctx.userId,
        toUserId: input.userId,
      }).catch(refusal);
      return { action: MEMBER_ACTIONS.transferOwnership, userId: input.userId, ...transferred };
    }),

  /**
   * What a link invites to, for the acceptance page, signed in or not: whoever holds the link was
   * mailed it, and the mail says as much. An unknown, used, revoked or expired link is one answer,
   * naming nothing.
   */
  invitation: publicProcedure.input(tokenInput).query(async ({ ctx, input }) => {
    const view = await invitationByToken(ctx.db, input.token);
    if (!view) throw notFound("This invitation link is not valid: it was used, revoked, replaced or has expired.");
    return view;
  }),

  // invitation.accept
  accept: userProcedure
    .meta({
      audit: {
        action: MEMBER_ACTIONS.acceptInvitation,
        // The organization joined, not the one active before.
        organization: (_: unknown, out: { organizationId: string }) => out.organizationId,
        details: (_: unknown, out: { role: Role }) => ({ role: out.role }),
      },
    })
    .input(tokenInput)
    .mutation(async ({ ctx, input }) => {
      const joined = await acceptInvitation(ctx.db, { token: input.token, userId: ctx.userId }).catch(refusal);
      return { action: MEMBER_ACTIONS.acceptInvitation, ...joined };
    }),
});
