import { z } from "zod";
import { notFound } from "../../1-errors/api-error";
import { loadRelease } from "../../3-catalog/releases";
import { declareLive } from "../declaration";
import { LISTS_MARKETS } from "../pointers";
import { marketInput, marketSummarySchema } from "../schemas";

export const marketSchema = marketSummarySchema
  .extend({
    methodologyVersion: z.string(),
    material: z.boolean().meta({ description: "Whether the latest release changed the methodology materially." }),
  })
  .meta({ id: "Market" });

export const marketGet = declareLive({
  group: "markets",
  name: "get",
  scope: null,
  credits: 0,
  path: "/markets/{marketId}",
  summary: "Get a market",
  description: "One listed market with its latest release and methodology version.",
  input: marketInput,
  output: marketSchema,
  example: { marketId: "foundation-model-apis" },
  caching: "live",
  keep: true,
  answer: async (ctx, input) => {
    const loaded = await loadRelease(ctx.db, input.marketId);
    if (!loaded) throw notFound(`No market "${input.marketId}".`, LISTS_MARKETS);
    const release = loaded.data;
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
  },
});
