/**
 * API tokens of the active organization: list, create (the secret is returned once), revoke.
 * `tokens.manage_all` (owners, admins) reaches every token; `tokens.own` (members) only the ones
 * the person created.
 */
import { z } from "zod";
import { can } from "../1-domain/roles";
import { notFound } from "../1-errors/api-error";
import { createApiToken, listApiTokens, revokeApiToken, TOKEN_SCOPES } from "../4-api-access/tokens";
import { createRouter, permittedProcedure } from "../7-procedures/trpc";

const DAY_MS = 86_400_000;

export const tokensRouter = createRouter({
  list: permittedProcedure("tokens.own").query(({ ctx }) =>
    listApiTokens(ctx.db, ctx.organization.id, can(ctx.role, "tokens.manage_all") ? undefined : ctx.userId),
  ),

  create: permittedProcedure("tokens.own")
    .meta({
      audit: {
        action: "token.create",
        target: (_: unknown, out: { token: { id: string } }) => ({ type: "token", id: out.token.id }),
        // Never the secret: its name, scopes and expiry, as stored.
        details: (_: unknown, out: { token: { name: string; scopes: string[]; expiresAt: Date | null } }) => ({
          name: out.token.name,
          scopes: out.token.scopes,
          expiresAt: out.token.expiresAt?.toISOString() ?? null,
        }),
      },
    })
    .input(
      z.object({
        name: z.string().trim().min(1, "Name the token").max(100, "At most 100 characters"),
        scopes: z.array(z.enum(TOKEN_SCOPES)).max(TOKEN_SCOPES.length),
        /** Days until it stops working; omitted: it never expires. */
        expiresInDays: z.number().int().min(1).max(3650).optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      createApiToken(ctx.db, {
        organizationId: ctx.organization.id,
        name: input.name,
        scopes: input.scopes,
        expiresAt: input.expiresInDays ? new Date(Date.now() + input.expiresInDays * DAY_MS) : null,
        createdByUserId: ctx.userId,
      }),
    ),

  revoke: permittedProcedure("tokens.own")
    .meta({
      audit: { action: "token.revoke", target: (input: { tokenId: string }) => ({ type: "token", id: input.tokenId }) },
    })
    .input(z.object({ tokenId: z.string().max(64) }))
    .mutation(async ({ ctx, input }) => {
      const mine = can(ctx.role, "tokens.manage_all") ? undefined : ctx.userId;
      // Another organization's token (or another member's, for a member) is "not found" too: its existence is not for us to confirm.
      if (!(await revokeApiToken(ctx.db, ctx.organization.id, input.tokenId, mine)))
        throw notFound("No such active token in this organization.");
      return { revoked: input.tokenId };
    }),
});
