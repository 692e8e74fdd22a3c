/**
 * The active organization's credits: balance and prices, the ledger page by page, daily usage,
 * and the low-balance warning's threshold (read with credits.read, set with credits.manage: owners
 * and billing). Dashboard only:
 * no operation metadata, so never on REST or MCP.
 */
import { z } from "zod";
import { isLowBalance, LOW_BALANCE_THRESHOLD_MAX } from "../1-domain/low-balance";
import { can } from "../1-domain/roles";
import { notFound } from "../1-errors/api-error";
import { rateLimiterConfigFromEnv } from "../3-limits/rate-limiter";
import { defaultRateLimit } from "../3-limits/shared-rate-limit";
import { creditBalance, ledgerPage, lowBalanceThreshold, setLowBalanceThreshold } from "../4-credits/credits";
import { usageByDay } from "../4-credits/usage";
import { operationOf } from "../7-procedures/declaration";
import { DECLARATIONS } from "../7-procedures/operations";
import { createRouter, permittedProcedure } from "../7-procedures/trpc";

/** Reading the balance, ledger and usage (owners, admins, billing). */
const creditsProcedure = permittedProcedure("credits.read");

const thresholdMessage = `A whole number of credits from 0 (off) to ${LOW_BALANCE_THRESHOLD_MAX.toLocaleString("en")}`;

/** Only the threshold: the organization is always the caller's active one, never named in the input. */
const thresholdInput = z
  .object({
    threshold: z
      .number({ error: thresholdMessage })
      .int({ error: thresholdMessage })
      .min(0, { error: thresholdMessage })
      .max(LOW_BALANCE_THRESHOLD_MAX, { error: thresholdMessage }),
  })
  .strict();

export const creditsRouter = createRouter({
  summary: creditsProcedure.query(async ({ ctx }) => ({
    balance: await creditBalance(ctx.db, ctx.organization.id),
    rateLimit: ctx.organization.rateLimit ?? defaultRateLimit(),
    rateLimitWindowSeconds: rateLimiterConfigFromEnv().windowSeconds,
    prices: DECLARATIONS.map((declaration) => {
      const { name, credits, scope, path } = operationOf(declaration);
      return { operation: name, credits, scope, path: `/v1${path}`, tool: declaration.tool?.name ?? null };
    }),
  })),

  /** The threshold, whether the balance is at or below it, and whether this person may change it. */
  lowBalance: creditsProcedure.query(async ({ ctx }) => {
    const [balance, threshold] = await Promise.all([
      creditBalance(ctx.db, ctx.organization.id),
      lowBalanceThreshold(ctx.db, ctx.organization.id),
    ]);
    return { threshold, balance, low: isLowBalance(balance, threshold), canChange: can(ctx.role, "credits.manage") };
  }),

  setLowBalanceThreshold: permittedProcedure("credits.manage")
    .meta({
      audit: {
        action: "organization.settings_change",
        details: (_: unknown, out: { threshold: number }) => ({ lowBalanceThreshold: out.threshold }),
      },
    })
    .input(thresholdInput)
    .mutation(async ({ ctx, input }) => {
      const changed = await setLowBalanceThreshold(ctx.db, {
        organizationId: ctx.organization.id,
        userId: ctx.userId,
        threshold: input.threshold,
      });
      if (!changed)
        throw notFound("Only owners and billing members of the organization can change its low-balance warning.");
      const balance = await creditBalance(ctx.db, ctx.organization.id);
      return { threshold: input.threshold, balance, low: isLowBalance(balance, input.threshold), canChange: true };
    }),

  ledger: creditsProcedure
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

  usage: creditsProcedure
    .input(z.object({ days: z.number().int().min(1).max(90).default(30) }))
    .query(({ ctx, input }) => usageByDay(ctx.db, ctx.organization.id, input.days)),
});
