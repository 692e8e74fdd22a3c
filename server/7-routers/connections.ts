/**
 * MCP client connections (OAuth grants), each acting for the organization it was bound to at
 * consent: the signed-in person's own (list, revoke), and every connection of the active
 * organization for those who manage them all (roles.ts: connections.manage_all).
 */
import { z } from "zod";
import { notFound } from "../1-errors/api-error";
import {
  connectionsOf,
  organizationConnections,
  revokeConnection,
  revokeOrganizationConnection,
} from "../4-organizations/connections";
import { createRouter, permittedProcedure, userProcedure } from "../7-procedures/trpc";

const grantInput = z.object({ grantId: z.string().min(1).max(128) });
const connectionTarget = (input: { grantId: string }) => ({ type: "connection", id: input.grantId });

export const connectionsRouter = createRouter({
  list: userProcedure.query(({ ctx }) => connectionsOf(ctx.db, ctx.userId)),

  // Recorded in the organization the connection acted for (none for one bound to none).
  revoke: userProcedure
    .meta({
      audit: {
        action: "connection.revoke",
        target: connectionTarget,
        organization: (_: unknown, out: { organizationId: string | null }) => out.organizationId,
      },
    })
    .input(grantInput)
    .mutation(async ({ ctx, input }) => {
      const revoked = await revokeConnection(ctx.db, ctx.userId, input.grantId);
      // Someone else's connection is "not found" too: its existence is not ours to confirm.
      if (!revoked) throw notFound("No such connection of yours.");
      return { revoked: input.grantId, organizationId: revoked.organizationId };
    }),

  /** Every connection that acts for the active organization, with the person it acts as. */
  organizationList: permittedProcedure("connections.manage_all").query(({ ctx }) =>
    organizationConnections(ctx.db, ctx.organization.id),
  ),

  revokeInOrganization: permittedProcedure("connections.manage_all")
    .meta({ audit: { action: "connection.revoke", target: connectionTarget } })
    .input(grantInput)
    .mutation(async ({ ctx, input }) => {
      // Another organization's connection is "not found": its existence is not ours to confirm.
      if (!(await revokeOrganizationConnection(ctx.db, ctx.organization.id, input.grantId)))
        throw notFound("No such connection in this organization.");
      return { revoked: input.grantId };
    }),
});
