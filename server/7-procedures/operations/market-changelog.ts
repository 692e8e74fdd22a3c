import { z } from "zod";
import { notFound } from "../../1-errors/api-error";
import { readChangelog } from "../../3-catalog/store";
import { declareLive } from "../declaration";
import { LISTS_MARKETS } from "../pointers";
import { marketInput, timestamp } from "../schemas";

export const changelogSchema = z
  .object({
    marketId: z.string(),
    releases: z.array(
      z
        .object({
          release: z.number().int().positive(),
          lastUpdated: timestamp,
          methodologyVersion: z.string(),
          material: z.boolean(),
          notes: z.string(),
        })
        .meta({ id: "ChangelogEntry" }),
    ),
  })
  .meta({ id: "Changelog", description: "Every release of the market, newest first." });

export const marketChangelog = declareLive({
  group: "markets",
  name: "changelog",
  scope: null,
  credits: 0,
  path: "/markets/{marketId}/changelog",
  summary: "Market changelog",
  description:
    "Every release of the market, newest first, with its notes; `material` marks a material methodology change.",
  input: marketInput,
  output: changelogSchema,
  example: { marketId: "foundation-model-apis" },
  caching: "live",
  keep: true,
  answer: async (ctx, input) => {
    const releases = await readChangelog(ctx.db, input.marketId);
    if (!releases) throw notFound(`No market "${input.marketId}".`, LISTS_MARKETS);
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
  },
});
