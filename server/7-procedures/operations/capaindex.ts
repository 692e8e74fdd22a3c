import { z } from "zod";
import { capaindex as capaindexOf } from "../../2-readings/capaindex";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { narrowingParams, pageSchema, rankIntervalSchema, readingHeader, releaseInput, score } from "../schemas";
import { rankOddsSchema } from "../sovereignty-schemas";
import { oddsText, rankRange, releaseHeader } from "./text";

export const capaindexSchema = z
  .object({
    ...readingHeader,
    products: z.array(
      z
        .object({
          rank: z.number().int().positive(),
          productId: z.string(),
          name: z.string(),
          vendor: z.string(),
          innovation: score,
          band: z.string(),
          rankInterval: rankIntervalSchema,
          innovationInterval: z.object({ p5: score, p95: score }).meta({
            description: "The snapshot's uncertainty.innovation.interval: 5th–95th percentile of Innovation.",
          }),
          bandSettled: z
            .boolean()
            .meta({ description: "False when fewer than 95 % of the draws keep the product in its Innovation band." }),
          rankOdds: rankOddsSchema,
        })
        .meta({ id: "CapaIndexProduct" }),
    ),
    page: pageSchema,
  })
  .meta({
    id: "CapaIndex",
    description: "Products ranked by published Innovation (competition ranking 1, 2, 2, 4; ties by name).",
  });

export const capaindex = declareReading({
  group: "readings",
  name: "capaindex",
  scope: MARKET_READ_SCOPE,
  credits: 2,
  path: "/markets/{marketId}/capaindex",
  summary: "Capability Index",
  description:
    "Products of one market ranked by published Innovation, with no control applied (competition ranking: 1, 2, 2, 4; ties listed by name), with each product's band, rank range and rank odds (P(top 1, 3, 5)).",
  input: releaseInput.extend(narrowingParams),
  narrowing: { lists: ["products"] },
  output: capaindexSchema,
  example: { marketId: "foundation-model-apis" },
  caching: "release",
  growsWithMarket: true,
  releases: "one",
  compute: ({ release }) => capaindexOf(release),
  tool: {
    name: "service_market_get_capaindex",
    chart: true,
    instead: { country: "service_market_get_servicemax" },
    text: (payload) =>
      [
        `Capability Index, ${releaseHeader(payload)}:`,
        ...payload.products.map(
          (p) =>
            `${p.rank}. ${p.name} (${p.vendor}) — Innovation ${p.innovation}, ${p.band}${p.bandSettled ? "" : " (band not settled)"}; ${rankRange(p.rankInterval)}; ${oddsText(p.rankOdds)}; tie group ${p.rankOdds.tieGroup}`,
        ),
      ].join("\n"),
  },
});
