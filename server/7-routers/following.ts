/** The signed-in person's followed markets and e-mail choices (dashboard only; not on REST or MCP). */
import { z } from "zod";
import {
  followedMarkets,
  followMarket,
  isFollowing,
  preferencesOf,
  unfollowMarket,
  updatePreferences,
} from "../4-following/following";
import { marketIdParam } from "../7-procedures/schemas";
import { createRouter, userProcedure } from "../7-procedures/trpc";

const market = z.object({ marketId: marketIdParam });

export const followingRouter = createRouter({
  list: userProcedure.query(async ({ ctx }) =>
    (await followedMarkets(ctx.db, ctx.userId)).map((m) => ({ ...m, followedAt: m.followedAt.toISOString() })),
  ),

  status: userProcedure
    .input(market)
    .query(async ({ ctx, input }) => ({ following: await isFollowing(ctx.db, ctx.userId, input.marketId) })),

  follow: userProcedure.input(market).mutation(async ({ ctx, input }) => {
    await followMarket(ctx.db, ctx.userId, input.marketId);
    return { following: true };
  }),

  unfollow: userProcedure.input(market).mutation(async ({ ctx, input }) => {
    await unfollowMarket(ctx.db, ctx.userId, input.marketId);
    return { following: false };
  }),

  preferences: userProcedure.query(({ ctx }) => preferencesOf(ctx.db, ctx.userId)),

  updatePreferences: userProcedure
    .input(
      z
        .object({ releaseEmails: z.boolean(), weeklySummary: z.boolean(), weeklyQuietNote: z.boolean() })
        .partial()
        .strict(),
    )
    .mutation(({ ctx, input }) => updatePreferences(ctx.db, ctx.userId, input)),
});
