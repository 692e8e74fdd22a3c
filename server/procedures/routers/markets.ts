/** Markets: the list, one market, and its changelog. Free for any valid token. */
import { z } from "zod";
import type { Database } from "../../../db/client";
import { loadRelease } from "../../catalog/releases";
import { listMarkets, readChangelog } from "../../catalog/store";
import { OPERATIONS } from "../../domain/operations";
import { notFound } from "../../errors/api-error";
import { changelogSchema, marketInput, marketSchema, marketsSchema } from "../schemas";
import { apiProcedure, createRouter, operationMeta, publicProcedure } from "../trpc";

const MARKETS = "Markets";

/** Listed markets that have a release, as the API shows them. */
async function listedMarkets(db: Database) {
  const markets = await listMarkets(db, { listedOnly: true });
  return {
    markets: markets.flatMap((m) =>
      m.release === null || m.lastUpdated === null
        ? []
        : [
            {
              marketId: m.marketId,
              name: m.name,
              description: m.description,
              productCount: m.productCount,
              release: m.release,
              lastUpdated: m.lastUpdated.toISOString(),
            },
          ],
    ),
  };
}

export const marketsRouter = createRouter({
  list: apiProcedure
    .meta(operationMeta(OPERATIONS.marketsList, MARKETS))
    .input(z.object({}))
    .output(marketsSchema)
    .query(async ({ ctx }) => {
      ctx.facts.maxAgeSeconds = 0;
      return listedMarkets(ctx.db);
    }),

  /** The same list for the dashboard's home page, which anyone may read (never on REST or MCP). */
  browse: publicProcedure.output(marketsSchema).query(({ ctx }) => listedMarkets(ctx.db)),

  get: apiProcedure
    .meta(operationMeta(OPERATIONS.marketGet, MARKETS))
    .input(marketInput)
    .output(marketSchema)
    .query(async ({ ctx, input }) => {
      const loaded = await loadRelease(ctx.db, input.marketId);
      if (!loaded) throw notFound(`No market "${input.marketId}".`);
      const release = loaded.data;
      ctx.facts.maxAgeSeconds = 0;
      return {
        marketId: release.marketId,
        name: release.name,
        description: release.description,
        productCount: release.products.length,
        release: release.release,
        lastUpdated: release.lastUpdated,
        methodologyVersion: release.methodologyVersion,
        material: release.material,
      };
    }),

  changelog: apiProcedure
    .meta(operationMeta(OPERATIONS.marketChangelog, MARKETS))
    .input(marketInput)
    .output(changelogSchema)
    .query(async ({ ctx, input }) => {
      const releases = await readChangelog(ctx.db, input.marketId);
      if (!releases) throw notFound(`No market "${input.marketId}".`);
      ctx.facts.maxAgeSeconds = 0;
      return {
        marketId: input.marketId,
        releases: releases.map((r) => ({
          release: r.release,
          lastUpdated: r.publishedAt.toISOString(),
          methodologyVersion: r.methodologyVersion,
          material: r.material,
          notes: r.notes,
        })),
      };
    }),
});
