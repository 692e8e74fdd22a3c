import { z } from "zod";
import { AXIS_LABELS } from "../../1-domain/market-definition";
import type { Scores } from "../../1-domain/scores";
import { invalidRequest } from "../../1-errors/api-error";
import { signed } from "../../2-comparisons/comparison-summary";
import { nameList } from "../../2-formats/name-list";
import { whatif as whatifOf } from "../../2-readings/whatif";
import { checkWhatIfWeights, parseWeightsParam } from "../../2-scoring/whatif";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { LISTS_INDICATORS } from "../pointers";
import {
  countryCode,
  marketIdParam,
  narrowingParams,
  offeringRef,
  pageSchema,
  readingHeader,
  releaseParam,
  score,
  scoresSchema,
} from "../schemas";
import { releaseHeader } from "./text";

export const whatifInput = z.object({
  marketId: marketIdParam,
  weights: z
    .string({ error: "weights must be indicatorId:weight pairs, comma-separated" })
    .max(4000, "weights must be at most 4,000 characters")
    .meta({
      description:
        "indicatorId:weight pairs, comma-separated, each weight 0 to 1,000,000; others keep their published weight (the snapshot's dimensions list them).",
      example: "reasoning-benchmark:2,key-custody:0.5",
    }),
  release: releaseParam,
  country: countryCode.optional().meta({
    description:
      "Adds the Max reading under this country's controls (ISO alpha-2), same weights; omitted: Capability Index only.",
    example: "FR",
  }),
});

const rankMove = {
  rank: z.number().int().positive().meta({ description: "Rank with the caller's weights." }),
  publishedRank: z.number().int().positive().meta({ description: "Rank in the published reading." }),
  rankChange: z.number().int().meta({ description: "publishedRank − rank: positive when the product moved up." }),
  productId: z.string(),
  name: z.string(),
  vendor: z.string(),
};

export const whatifSchema = z
  .object({
    ...readingHeader,
    published: z.literal(false).meta({ description: "Always false: this is not the published ranking." }),
    weights: z.array(
      z.object({
        indicatorId: z.string(),
        axis: z.enum(["innovation", "control", "scale"]),
        published: z.number().meta({ description: "The published weight." }),
        used: z.number().meta({ description: "The weight this answer was computed with." }),
      }),
    ),
    capabilityIndex: z.object({
      products: z.array(
        z
          .object({
            ...rankMove,
            innovation: score,
            publishedInnovation: score,
            band: z.string().meta({ description: "The Innovation band with the caller's weights." }),
            scores: scoresSchema.meta({ description: "Every axis with the caller's weights." }),
            publishedScores: scoresSchema.meta({ description: "Every axis as published." }),
            bands: z
              .object({ innovation: z.string(), control: z.string(), scale: z.string() })
              .meta({ description: "Each axis's band with the caller's weights." }),
          })
          .meta({ id: "WhatIfCapaIndexProduct" }),
      ),
    }),
    max: z
      .object({
        country: z.string(),
        controls: z.array(z.object({ id: z.string(), name: z.string() })),
        products: z.array(
          z
            .object({
              ...rankMove,
              available: z.boolean(),
              offering: offeringRef,
              retainedInnovation: score,
              publishedRetainedInnovation: score,
              on: scoresSchema
                .nullable()
                .meta({ description: "Every axis kept under the controls, the caller's weights; null: unavailable." }),
              publishedOn: scoresSchema
                .nullable()
                .meta({ description: "Every axis kept under the controls, as published; null: unavailable." }),
            })
            .meta({ id: "WhatIfMaxProduct" }),
        ),
      })
      .optional()
      .meta({ description: "With `country`: the Max reading with the caller's weights." }),
    page: pageSchema,
  })
  .meta({
    id: "WhatIf",
    description: "Rankings recomputed with the caller's weights beside the published ones; never published.",
  });

export const whatif = declareReading({
  group: "readings",
  name: "whatif",
  scope: MARKET_READ_SCOPE,
  credits: 5,
  path: "/markets/{marketId}/whatif",
  summary: "What-if weights",
  description:
    "The Capability Index recomputed with your weights (`weights=indicatorId:weight,…`; others keep theirs) and, with `country`, the Max reading too: each product's rank and three axes beside the published ones; rankChange: places gained. Marked `published: false`: nothing is stored. An unknown indicator, a bad weight or an axis weighted all zero is refused, naming it.",
  input: whatifInput.extend(narrowingParams),
  narrowing: { lists: ["capabilityIndex.products", "max.products"] },
  output: whatifSchema,
  example: { marketId: "foundation-model-apis", weights: "reasoning-benchmark:2,key-custody:0.5", country: "FR" },
  // The weights are the caller's: computed per call, never kept, no ETag.
  caching: "none",
  growsWithMarket: true,
  releases: "one",
  country: "optional",
  compute: ({ release, country }, input) => {
    const parsed = parseWeightsParam(input.weights);
    const problems =
      parsed.problems.length > 0 ? parsed.problems : checkWhatIfWeights(release.definition, parsed.weights);
    // Each problem is a sentence of its own (server/2-scoring/whatif.ts): the detail reads them in
    // order, and points to the list of indicators only when one named is not the market's.
    if (problems.length > 0) {
      const known = new Set(release.definition.indicators.map((i) => i.id));
      const unknown = [...parsed.weights.keys()].some((id) => !known.has(id));
      throw invalidRequest(
        `These weights cannot be used. ${problems.map((p) => p.message).join(" ")}`,
        problems,
        unknown ? LISTS_INDICATORS : undefined,
      );
    }
    return whatifOf(release, parsed.weights, country);
  },
  tool: {
    name: "service_market_whatif",
    text: (payload) => {
      const moved = (p: { rankChange: number }) => (p.rankChange === 0 ? "=" : signed(p.rankChange));
      // Control and Scale with the caller's weights too: their weights rank nothing here, but
      // they do move these scores, and an agent asked about them must see by how much.
      const axes = (now: Scores, published: Scores) =>
        (["control", "scale"] as const)
          .map((axis) => `${AXIS_LABELS[axis]} ${now[axis]} (published ${published[axis]})`)
          .join(", ");
      const changed = payload.weights.filter((w) => w.used !== w.published);
      const max = payload.max;
      return [
        `What-if weights, ${releaseHeader(payload)} — NOT the published ranking.`,
        `Weights changed: ${changed.length ? nameList(changed.map((w) => `${w.indicatorId} ${w.published} → ${w.used}`)) : "none"}.`,
        "Capability Index:",
        ...payload.capabilityIndex.products.map(
          (p) =>
            `${p.rank}. ${p.name} (${p.vendor}) — Innovation ${p.innovation} (published ${p.publishedInnovation}), rank ${moved(p)} from ${p.publishedRank}; ${axes(p.scores, p.publishedScores)}`,
        ),
        ...(max
          ? [
              `Max under ${max.country}:`,
              ...max.products.flatMap((p) =>
                p.on && p.publishedOn
                  ? [
                      `${p.rank}. ${p.name} (${p.vendor}) — retains ${p.retainedInnovation} (published ${p.publishedRetainedInnovation}), rank ${moved(p)} from ${p.publishedRank}; keeps ${axes(p.on, p.publishedOn)}`,
                    ]
                  : [],
              ),
              // Set apart after the ranked ones: no rank and no score where no offering qualifies.
              ...max.products
                .filter((p) => !p.available)
                .map(
                  (p) => `- ${p.name} (${p.vendor}) — unavailable under ${max.country}'s controls: unranked, no score`,
                ),
            ]
          : []),
      ].join("\n");
    },
  },
});
