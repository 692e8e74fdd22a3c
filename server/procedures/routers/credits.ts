/** The active organization's credits: balance and prices, the ledger page by page, daily usage. */
import { z } from "zod";
import { creditBalance, ledgerPage } from "../../accounts/credits";
import { usageByDay } from "../../accounts/usage";
import { rateLimiterConfigFromEnv } from "../../limits/rate-limiter";
import { defaultRateLimit } from "../../limits/shared-rate-limit";
import { operationOf } from "../declaration";
import { DECLARATIONS } from "../operations";
import { createRouter, organizationProcedure } from "../trpc";

export const creditsRouter = createRouter({
  summary: organizationProcedure.query(async ({ ctx }) => ({
    balance: await creditBalance(ctx.db, ctx.organization.id),
    rateLimit: ctx.organization.rateLimit ?? defaultRateLimit(),
    rateLimitWindowSeconds: rateLimiterConfigFromEnv().windowSeconds,
    prices: DECLARATIONS.map((declaration) => {
      const { name, credits, scope, path } = operationOf(declaration);
      return { operation: name, credits, scope, path: `/v1${path}`, tool: declaration.tool?.name ?? null };
    }),
  })),

  ledger: organizationProcedure
    .input(
      z.object({
        /** The `nextBefore` of the previous page (newest first); omitted: the newest entries. */
        cursor: z.number().int().positive().nullish(),
        limit: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(({ ctx, input }) =>
      ledgerPage(ctx.db, ctx.organization.id, { before: input.cursor ?? undefined, limit: input.limit }),
    ),

  usage: organizationProcedure
    .input(z.object({ days: z.number().int().min(1).max(90).default(30) }))
    .query(({ ctx, input }) => usageByDay(ctx.db, ctx.organization.id, input.days)),
});
