import { z } from "zod";
import type { Database } from "../../../db/client";
import { listMarkets } from "../../3-catalog/store";
import { declareLive } from "../declaration";
import { marketSummarySchema } from "../schemas";

export const marketsSchema = z.object({ markets: z.array(marketSummarySchema) }).meta({ id: "Markets" });

/** Listed markets that have a release, as the API shows them (the dashboard's home page too). */
export async function listedMarkets(db: Database) {
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

export const marketsList = declareLive({
  group: "markets",
  name: "list",
  scope: null,
  credits: 0,
  path: "/markets",
  summary: "List markets",
  description:
    "Lists the technology markets that are scored (for example foundation-model APIs, managed Kubernetes), each with its marketId slug, description, product count, latest release and last update; archived markets are left out.",
  input: z.object({}),
  output: marketsSchema,
  example: {},
  caching: "live",
  keep: true,
  answer: (ctx) => listedMarkets(ctx.db),
  tool: {
    name: "service_markets_list",
    text: (payload) =>
      [
        `${payload.markets.length} markets:`,
        ...payload.markets.map((m) => `- ${m.marketId}: ${m.name} — ${m.productCount} products, release ${m.release}`),
      ].join("\n"),
  },
});
