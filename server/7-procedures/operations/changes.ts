import { z } from "zod";
import { comparisonText } from "../../2-comparisons/comparison-summary";
import { changes as changesOf } from "../../2-comparisons/release-comparison";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import {
  bandSchema,
  countryParam,
  marketIdParam,
  narrowingParams,
  pageSchema,
  releaseNumber,
  score,
  timestamp,
} from "../schemas";

export const changesInput = z.object({
  marketId: marketIdParam,
  from: releaseNumber("from")
    .optional()
    .meta({ description: "The earlier release; `to` − 1 when omitted.", example: 2 }),
  to: releaseNumber("to").optional().meta({ description: "The later release; the latest when omitted.", example: 3 }),
  country: countryParam,
});

const attributionSchema = z
  .object({
    ownValues: z.number().meta({ description: "Points due to the product's own values." }),
    field: z
      .number()
      .meta({ description: "Points due to the field moving: other products changed the min–max bounds." }),
    method: z.number().meta({ description: "Points due to the method: indicators or weights." }),
  })
  .meta({
    id: "ChangeAttribution",
    description: "The change split by cause; the parts add up to `change` (docs/methodology.md, Comparing releases).",
  });

const ownValuesBySchema = z
  .object({
    indicators: z
      .array(
        z.object({
          indicatorId: z.string(),
          name: z.string(),
          points: z.number().meta({ description: "Points of the own-values part due to this indicator's value." }),
        }),
      )
      .meta({ description: "At most 3, largest first." }),
    more: z.number().int().min(0).meta({ description: "How many more indicators' values moved the axis." }),
  })
  .meta({
    id: "OwnValuesByIndicator",
    description:
      "The own-values part by indicator: the indicators whose values moved the axis most. All of them, named or counted, add up to `attribution.ownValues`; one that rounds to 0 is neither.",
  });

const axisChangeSchema = z
  .object({
    from: score,
    to: score,
    change: z.number(),
    attribution: attributionSchema,
    ownValuesBy: ownValuesBySchema,
  })
  .meta({ id: "AxisChange" });

const namedProductSchema = z.object({ productId: z.string(), name: z.string() });

const firstPlaceSchema = z.object({ from: z.array(namedProductSchema), to: z.array(namedProductSchema) }).meta({
  id: "FirstPlace",
  description: "Who ranked first in each release: several when tied, none when nobody did.",
});

const nullableRank = z.number().int().positive().nullable();

const rankChangeSchema = z
  .object({
    from: nullableRank,
    to: nullableRank,
    movedUp: z.number().int().nullable().meta({
      description:
        "Places gained, from − to: positive moved up (3 → 1 is 2), as every reading says a rank's move. null when absent from either.",
    }),
    change: z.number().int().nullable().meta({
      description: "Deprecated (sunset 2027-06-01), the opposite sign: to − from, negative moved up. Use movedUp.",
      deprecated: true,
    }),
  })
  .meta({ id: "RankChange" });

const bandChangeSchema = z.object({ from: z.string().nullable(), to: z.string().nullable(), changed: z.boolean() });

const releaseRefSchema = z.object({
  release: z.number().int().positive(),
  lastUpdated: timestamp,
  methodologyVersion: z.string(),
});

export const changesSchema = z
  .object({
    marketId: z.string(),
    from: releaseRefSchema,
    to: releaseRefSchema,
    country: z.string(),
    market: z
      .object({
        firstPlace: z.object({
          capabilityIndex: firstPlaceSchema,
          max: firstPlaceSchema.meta({
            description: "First place of Max among the products usable under `country` (an unavailable one has none).",
          }),
        }),
        indicatorNames: z
          .array(z.object({ indicatorId: z.string(), name: z.string() }))
          .meta({ description: "The name of each indicator the lists below name by id." }),
        methodologyChanged: z.boolean(),
        material: z.boolean().meta({ description: "Whether `to` changed the methodology materially." }),
        methodologyVersion: z.object({ from: z.string(), to: z.string() }),
        bandsChanged: z.array(
          z.object({
            axis: z.enum(["innovation", "control", "scale"]),
            from: z.array(bandSchema),
            to: z.array(bandSchema),
          }),
        ),
        indicatorsAdded: z.array(z.string()),
        indicatorsRemoved: z.array(z.string()),
        weightsChanged: z.array(z.object({ indicatorId: z.string(), from: z.number(), to: z.number() })),
        indicatorsRedefined: z.array(z.string()),
        productsAdded: z.array(z.string()),
        productsRemoved: z.array(z.string()),
      })
      .meta({ id: "MarketChange" }),
    products: z.array(
      z
        .object({
          productId: z.string(),
          name: z.string(),
          vendor: z.string(),
          status: z.enum(["entered", "left", "stayed"]),
          scores: z
            .object({ innovation: axisChangeSchema, control: axisChangeSchema, scale: axisChangeSchema })
            .nullable()
            .meta({ description: "null when the product entered or left." }),
          bands: z.object({ innovation: bandChangeSchema, control: bandChangeSchema, scale: bandChangeSchema }),
          capabilityIndexRank: rankChangeSchema,
          max: z.object({
            rank: rankChangeSchema,
            available: z.object({ from: z.boolean().nullable(), to: z.boolean().nullable() }),
            offering: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
            availability: z
              .enum(["became_available", "became_unavailable", "offering_changed", "unchanged"])
              .nullable(),
          }),
        })
        .meta({ id: "ProductChange" }),
    ),
    page: pageSchema,
  })
  .meta({
    id: "ReleaseChanges",
    description:
      "What release `to` changed against release `from`, per product and for the market, under one country's controls.",
  });

export const changes = declareReading({
  group: "readings",
  name: "changes",
  scope: MARKET_READ_SCOPE,
  credits: 2,
  path: "/markets/{marketId}/changes",
  summary: "Release changes",
  description:
    "What a release of a market changed against an earlier one: products in and out; each score change per axis split into own values, the field (bounds other products moved) and the method (indicators, weights); band and rank changes (movedUp: places gained); under one country, Max rank and availability before and after; the market's methodology, bands, indicators and weights.",
  input: changesInput.extend(narrowingParams),
  narrowing: { lists: ["products"] },
  output: changesSchema,
  example: { marketId: "foundation-model-apis", country: "FR" },
  // The pair is immutable: the ETag holds for good once both releases are named.
  caching: "release",
  growsWithMarket: true,
  releases: "pair",
  country: "home",
  compute: ({ earlier, release, country }) => changesOf(earlier as typeof release, release, country as string),
  tool: {
    name: "service_market_get_changes",
    /** What a release changed, as a model can quote it (readings/comparison-summary.ts): nothing left unsaid. */
    text: comparisonText,
  },
});
