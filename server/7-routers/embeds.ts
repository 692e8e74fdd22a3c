/**
 * The active organization's embeds (docs/embeds.md): create one (paid for at once: the release it
 * shows), list them with their view counts, revoke one. Another organization's embed is "not
 * found". Owners, admins and members may (roles.ts: embeds.manage); each change is audited.
 */
import { z } from "zod";
import {
  EMBED_READINGS,
  EMBED_THEMES,
  EMBED_VIEWS,
  type EmbedReading,
  embedSummary,
  READING_TITLES,
  viewFor,
} from "../1-domain/embeds";
import { notFound } from "../1-errors/api-error";
import { listMarkets, readGeographies } from "../3-catalog/store";
import { listEmbeds, revokeEmbed } from "../4-api-access/embeds";
import { createEmbed, EMBED_ACTIONS, embedPrice } from "../7-procedures/embeds";
import { releaseNumber } from "../7-procedures/schemas";
import { createRouter, permittedProcedure } from "../7-procedures/trpc";

const embedProcedure = permittedProcedure("embeds.manage");

const embedId = z.string().regex(/^emb_[0-9a-f]{24}$/, "Not an embed id");

export const embedsRouter = createRouter({
  list: embedProcedure.query(async ({ ctx }) => {
    const embeds = await listEmbeds(ctx.db, ctx.organization.id);
    if (embeds.length === 0) return [];
    // Names, not ids: the market's and the country's as the catalogue has them now.
    const markets = new Map((await listMarkets(ctx.db)).map((market) => [market.marketId, market.name]));
    const countries = new Map((await readGeographies(ctx.db)).map((g) => [g.country, g.name]));
    return embeds.map((embed) => ({
      id: embed.id,
      marketId: embed.marketId,
      marketName: markets.get(embed.marketId) ?? embed.marketId,
      readingTitle: READING_TITLES[embed.reading as EmbedReading],
      countryName: embed.country ? (countries.get(embed.country) ?? embed.country) : null,
      summary: embedSummary({
        reading: embed.reading as EmbedReading,
        marketName: markets.get(embed.marketId) ?? embed.marketId,
        country: embed.country ? { code: embed.country, name: countries.get(embed.country) ?? embed.country } : null,
        release: embed.release,
        shownRelease: embed.chargedReleases.at(-1) ?? null,
      }),
      reading: embed.reading,
      country: embed.country,
      release: embed.release,
      view: embed.view,
      theme: embed.theme,
      allowedOrigins: embed.allowedOrigins,
      views: embed.views,
      chargedReleases: embed.chargedReleases,
      createdAt: embed.createdAt.toISOString(),
      revokedAt: embed.revokedAt?.toISOString() ?? null,
    }));
  }),

  /** What an embed of each reading costs per release it shows. */
  prices: embedProcedure.query(() =>
    Object.fromEntries(EMBED_READINGS.map((reading) => [reading, embedPrice(reading)])),
  ),

  create: embedProcedure
    .meta({
      audit: {
        action: EMBED_ACTIONS.create,
        target: (_: unknown, out: { id: string }) => ({ type: "embed", id: out.id }),
        details: (input: { marketId: string; reading: string; country?: string; release?: number | null }) => ({
          marketId: input.marketId,
          reading: input.reading,
          country: input.country ?? null,
          release: input.release ?? null,
        }),
      },
    })
    .input(
      z.object({
        marketId: z.string().min(1).max(100),
        reading: z.enum(EMBED_READINGS),
        country: z
          .string()
          .regex(/^[A-Za-z]{2}$/, "A two-letter country code")
          .optional(),
        // Bounded as every release parameter is: a larger one is the caller's 400, never a database error.
        release: releaseNumber("release").nullable().optional(),
        view: z.enum(EMBED_VIEWS).optional(),
        theme: z.enum(EMBED_THEMES).default("auto"),
        allowedOrigins: z.array(z.string().max(300)).max(20).default([]),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const embed = await createEmbed(ctx.db, {
        organizationId: ctx.organization.id,
        marketId: input.marketId,
        reading: input.reading,
        country: input.country ?? null,
        release: input.release ?? null,
        view: viewFor(input.reading, input.view),
        theme: input.theme,
        allowedOrigins: input.allowedOrigins,
        createdByUserId: ctx.userId,
        origin: ctx.origin,
      });
      // The URL at the operator's origin (APP_URL): the one oEmbed vouches for, whatever host the
      // dashboard was reached on.
      return {
        id: embed.id,
        path: `/embed/${embed.id}`,
        url: `${ctx.origin}/embed/${embed.id}`,
        summary: embed.summary,
        anySite: embed.allowedOrigins.length === 0,
      };
    }),

  revoke: embedProcedure
    .meta({
      audit: {
        action: EMBED_ACTIONS.revoke,
        target: (input: { embedId: string }) => ({ type: "embed", id: input.embedId }),
      },
    })
    .input(z.object({ embedId }))
    .mutation(async ({ ctx, input }) => {
      // Another organization's embed is "not found" too: its existence is not for us to confirm.
      if (!(await revokeEmbed(ctx.db, ctx.organization.id, input.embedId)))
        throw notFound("No such embed in this organization.");
      return { revoked: input.embedId };
    }),
});
