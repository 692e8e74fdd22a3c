/** The signed-in person's MCP client connections (OAuth grants): list and revoke. Not org-bound. */
import { z } from "zod";
import { connectionsOf, revokeConnection } from "../../accounts/connections";
import { notFound } from "../../errors/api-error";
import { createRouter, userProcedure } from "../trpc";

export const connectionsRouter = createRouter({
  list: userProcedure.query(({ ctx }) => connectionsOf(ctx.db, ctx.userId)),

  // Recorded in the person's active organization, the one their connections act for.
  revoke: userProcedure
    .meta({
      audit: {
        action: "connection.revoke",
        target: (input: { grantId: string }) => ({ type: "connection", id: input.grantId }),
      },
    })
    .input(z.object({ grantId: z.string().min(1).max(128) }))
    .mutation(async ({ ctx, input }) => {
      // Someone else's connection is "not found" too: its existence is not ours to confirm.
      if (!(await revokeConnection(ctx.db, ctx.userId, input.grantId))) throw notFound("No such connection of yours.");
      return { revoked: input.grantId };
    }),
});
