/** Markets: the list, one market, and its changelog. Free for any valid token. */
import { z } from "zod";
import { loadRelease } from "../../catalog/release-cache";
import { listMarkets, readChangelog } from "../../catalog/store";
import { notFound } from "../../errors/api-error";
import { OPERATIONS } from "../operations";
import { changelogSchema, marketInput, marketSchema, marketsSchema } from "../schemas";
import { apiProcedure, createRouter } from "../trpc";

const MARKETS = "Markets";

export const marketsRouter = createRouter({
  list: apiProcedure
    .meta({
      operation: OPERATIONS.marketsList,
      openapi: {
        method: "GET",
        path: "/markets",
        tags: [MARKETS],
        protect: true,
        summary: "List markets",
        description: "Every listed (non-archived) market with its latest release. Free.",
      },
    })
    .input(z.object({}))
    .output(marketsSchema)
    .query(async ({ ctx }) => {
      const markets = await listMarkets(ctx.db, { listedOnly: true });
      ctx.response.headers["Cache-Control"] = "private, no-cache";
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
    }),

  get: apiProcedure
    .meta({
      operation: OPERATIONS.marketGet,
      openapi: {
        method: "GET",
        path: "/markets/{marketId}",
        tags: [MARKETS],
        protect: true,
        summary: "Get a market",
        description: "One listed market with its latest release and methodology version. Free.",
      },
    })
    .input(marketInput)
    .output(marketSchema)
    .query(async ({ ctx, input }) => {
      const loaded = await loadRelease(ctx.db, input.marketId);
      if (!loaded) throw notFound(`No market "${input.marketId}".`);
      const release = loaded.data;
      ctx.response.headers["Cache-Control"] = "private, no-cache";
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
    .meta({
      operation: OPERATIONS.marketChangelog,
      openapi: {
        method: "GET",
        path: "/markets/{marketId}/changelog",
        tags: [MARKETS],
        protect: true,
        summary: "Market changelog",
        description:
          "Every release of the market, newest first, with its notes; `material` marks a material methodology change. Free.",
      },
    })
    .input(marketInput)
    .output(changelogSchema)
    .query(async ({ ctx, input }) => {
      const releases = await readChangelog(ctx.db, input.marketId);
      if (!releases) throw notFound(`No market "${input.marketId}".`);
      ctx.response.headers["Cache-Control"] = "private, no-cache";
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
