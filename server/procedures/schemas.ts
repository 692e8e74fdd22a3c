/**
 * Input and output schemas of the API (docs/interface.md). Field names are the contract: fields may be
 * added, never renamed. Descriptions and examples feed the OpenAPI document.
 */
import "zod-openapi";
import { z } from "zod";
import { SLUG_PATTERN } from "../domain/market-definition";
import { gateParams, gatesHeaderSchema, gateVerdictSchema, rankOddsSchema, sealSchema } from "./sovereignty-schemas";

// ---------------------------------------------------------------- inputs

export const marketIdParam = z
  .string()
  .max(64, "marketId must be at most 64 characters")
  .regex(SLUG_PATTERN, "marketId must be a kebab-case slug (lowercase words joined by hyphens)")
  .meta({
    description: "The market's slug, from the markets list.",
    example: "foundation-model-apis",
  });

/**
 * The largest release number there can be: releases are stored as PostgreSQL `integer`. Declared,
 * so the OpenAPI document states it and a larger one is the caller's 400, never a database error.
 */
export const MAX_RELEASE = 2_147_483_647;

/**
 * A whole-number parameter with its range declared: the OpenAPI document and the MCP tool schema
 * state it, and anything else is the caller's 400. A query string's text is read as decimal digits
 * only ("16", never "0x10", "1e3", " 2" or ""), and a JSON argument must be a number.
 */
export const wholeNumber = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min.toLocaleString("en")} to ${max.toLocaleString("en")}`;
  return z.preprocess(
    (value) => (typeof value === "string" && /^-?\d{1,16}$/.test(value) ? Number(value) : value),
    z.number({ error: message }).int(message).min(min, message).max(max, message),
  );
};

/** A release number as every operation takes it: a whole number from 1 to MAX_RELEASE. */
export const releaseNumber = (name: string) => wholeNumber(name, 1, MAX_RELEASE);

export const releaseParam = releaseNumber("release")
  .optional()
  .meta({ description: "Release; default: the latest.", example: 2 });

/** The one check of a country code anyone sends: two letters, either case, upper-cased. */
export const countryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, "country must be an ISO 3166-1 alpha-2 code, e.g. FR")
  .transform((code) => code.toUpperCase());

export const countryParam = countryCode.optional().meta({
  description: "ISO alpha-2 code of the country whose controls are engaged; default: your home country.",
  example: "FR",
});

/**
 * A comma-separated list parameter, checked as text: the same text on REST and MCP. It is not
 * turned into a list here — MCP validates arguments before the procedure validates them again,
 * and a list would not pass the second time — but where it is used (readings/narrowing.ts).
 */
const commaList = (name: string, characters: string, what: string) =>
  z
    .string()
    .max(4000, `${name} must be at most 4,000 characters`)
    .regex(new RegExp(`^[${characters}]*$`), `${name} must be ${what}, comma-separated`);

/**
 * The parameters that narrow a reading of every product (server/readings/narrowing.ts): the same
 * on REST and MCP. REST answers the complete reading when none is given; MCP fits its answer to a
 * token budget and says how to get the rest.
 */
export const narrowingParams = {
  limit: wholeNumber("limit", 1, 1000).optional().meta({
    description: "Top N products (from `cursor`).",
    example: 10,
  }),
  cursor: z
    .string()
    .max(100, "cursor must be at most 100 characters")
    .optional()
    .meta({ description: "The last answer's `page.nextCursor`." }),
  productIds: commaList("productIds", "a-z0-9, -", "product slugs").optional().meta({
    description: "Only these productIds, comma-separated (≤ 200).",
    example: "quillmere-atlas,kestrelune-models",
  }),
  fields: commaList("fields", "A-Za-z, ", "product field names").optional().meta({
    description: "Product fields to keep, comma-separated.",
  }),
};

/** For the availability matrix: only these countries' columns. */
export const countriesParam = commaList("countries", "A-Za-z, ", "ISO 3166-1 alpha-2 codes").optional().meta({
  description: "Only these countries' columns, comma-separated codes.",
  example: "FR,DE,US",
});

/** Which page of a narrowed reading this is; absent from a complete reading. */
export const pageSchema = z
  .object({
    offset: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Index of the first product returned, in the reading's own order." }),
    returned: z.number().int().min(0),
    total: z.number().int().min(0).meta({ description: "How many products the reading has (after productIds)." }),
    nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last." }),
  })
  .optional()
  .meta({ id: "Page", description: "Present when the reading was narrowed: which part of it this is." });

export const viewParam = z.enum(["map", "bars"], { error: "view must be map or bars" }).default("map").meta({
  description: "Which chart a client opens first; the body is the same.",
  example: "map",
});

export const marketInput = z.object({ marketId: marketIdParam });
export const releaseInput = z.object({ marketId: marketIdParam, release: releaseParam });
export const servicemaxInput = releaseInput.extend({ country: countryParam, ...gateParams });
export const deltaInput = servicemaxInput.extend({ view: viewParam });

// ---------------------------------------------------------------- building blocks

const score = z.number().min(0).max(100).meta({ description: "0..100, one decimal." });
const timestamp = z.string().meta({ description: "ISO 8601 timestamp.", example: "2026-05-04T09:00:00.000Z" });

export const scoresSchema = z
  .object({ innovation: score, control: score, scale: score })
  .meta({ id: "Scores", example: { innovation: 84.2, control: 31.5, scale: 77 } });

export const distanceSchema = z
  .object({
    innovation: z.number(),
    control: z.number(),
    scale: z.number(),
    magnitude: z.number().min(0).meta({ description: "Euclidean norm of the three axis distances." }),
  })
  .meta({
    id: "Distance",
    description: "Under controls minus published, per axis, one decimal.",
    example: { innovation: -20, control: 12.5, scale: -8.3, magnitude: 25.1 },
  });

const offeringRef = z
  .object({ id: z.string(), name: z.string() })
  .nullable()
  .meta({ description: "The offering engaged under the controls; null when the product is unavailable." });

const controlRef = z.object({ id: z.string(), name: z.string() }).meta({ id: "ControlRef" });

const readingHeader = {
  marketId: z.string(),
  release: z.number().int().positive(),
  lastUpdated: timestamp,
};

const countryHeader = {
  ...readingHeader,
  country: z.string().meta({ description: "The country whose controls are engaged.", example: "FR" }),
  controls: z.array(controlRef).meta({ description: "The controls engaged; empty when nothing moves." }),
};

// ---------------------------------------------------------------- payloads

export const bandSchema = z
  .object({ name: z.string(), from: z.number(), to: z.number() })
  .meta({ id: "Band", description: "Covers [from, to); the last band covers [from, 100]." });

export const indicatorSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    kind: z.enum(["number", "boolean", "level"]),
    weight: z.number().positive(),
    direction: z.enum(["higher", "lower"]).optional(),
    unit: z.string().optional(),
    levels: z.array(z.string()).optional().meta({ description: "Ordered worst first." }),
    source: z.string().optional(),
  })
  .meta({ id: "Indicator" });

export const dimensionSchema = z
  .object({
    id: z.enum(["innovation", "control", "scale"]),
    name: z.string(),
    description: z.string(),
    bands: z.array(bandSchema),
    indicators: z.array(indicatorSchema),
  })
  .meta({ id: "Dimension" });

// ---------------------------------------------------------------- uncertainty (docs/methodology.md)

const rankIntervalSchema = z
  .object({
    best: z.number().int().positive(),
    worst: z.number().int().positive(),
  })
  .meta({
    id: "RankInterval",
    description:
      "The 5th to 95th percentile of the product's rank across the sensitivity analysis's draws (best is the smaller number), widened to contain the published rank.",
  });

const axisUncertaintySchema = z
  .object({
    interval: z.object({ p5: score, p95: score }).meta({
      description:
        "5th and 95th percentile of the axis score across the draws, widened to contain the published score.",
    }),
    bands: z.record(z.string(), z.number().min(0).max(1)).meta({
      description: "Share of the draws (0..1, three decimals) that fall in each band of the axis, by band name.",
    }),
    bandSettled: z.boolean().meta({
      description: "True when at least 95 % of the draws fall in the published band; false: the band is not settled.",
    }),
  })
  .meta({ id: "AxisUncertainty" });

const productUncertaintySchema = z
  .object({ innovation: axisUncertaintySchema, control: axisUncertaintySchema, scale: axisUncertaintySchema })
  .meta({ id: "ProductUncertainty", description: "How sure each published axis score is." });

const analysisSchema = z
  .object({
    method: z.literal("monte-carlo"),
    draws: z.number().int().positive(),
    seed: z.string().meta({ description: "Names the release: the same release always gives the same intervals." }),
    concentration: z.number().positive().meta({
      description: "Dirichlet concentration of the perturbed weights (larger: closer to the published weights).",
    }),
    evidenceSpread: z
      .object({ verified: z.number(), "vendor-claimed": z.number(), estimated: z.number() })
      .meta({ description: "Relative error drawn for a value, by the confidence of its evidence." }),
  })
  .meta({
    id: "UncertaintyAnalysis",
    description: "The sensitivity analysis behind every interval of this release (docs/methodology.md, Uncertainty).",
  });

export const snapshotSchema = z
  .object({
    ...readingHeader,
    name: z.string(),
    methodologyVersion: z.string(),
    methodology: z.string().meta({ description: "How each axis was scored; to be quoted verbatim." }),
    dimensions: z.array(dimensionSchema),
    products: z.array(
      z
        .object({
          productId: z.string(),
          name: z.string(),
          vendor: z.string(),
          scores: scoresSchema,
          bands: z
            .object({ innovation: z.string(), control: z.string(), scale: z.string() })
            .meta({ description: "Band name per axis." }),
          gaps: z.array(z.string()).meta({ description: "Indicators the product does not demonstrate (scored 0)." }),
          uncertainty: productUncertaintySchema,
        })
        .meta({ id: "SnapshotProduct" }),
    ),
    uncertainty: analysisSchema,
    page: pageSchema,
  })
  .meta({
    id: "Snapshot",
    description: "Every product's published scores, the dimensions with their bands, and the methodology.",
  });

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

const underControlsProduct = {
  productId: z.string(),
  name: z.string(),
  vendor: z.string(),
  available: z.boolean().meta({ description: "False when no offering satisfies every engaged control." }),
  offering: offeringRef,
  missingControls: z
    .array(z.string())
    .meta({ description: "Control ids no offering satisfies (unavailable products)." }),
};

export const servicemaxSchema = z
  .object({
    ...countryHeader,
    products: z.array(
      z
        .object({
          rank: z.number().int().positive(),
          ...underControlsProduct,
          off: scoresSchema,
          on: scoresSchema,
          distance: distanceSchema,
          rankInterval: rankIntervalSchema,
          retainedInterval: z.object({ p5: score, p95: score }).meta({
            description:
              "5th and 95th percentile of on.innovation (the Innovation kept under the controls) across the sensitivity analysis, widened to contain it; 0–0 for an unavailable product.",
          }),
          seal: sealSchema,
          rankOdds: rankOddsSchema,
          gate: gateVerdictSchema.optional(),
          publishedRank: z.number().int().positive().optional().meta({
            description: "With gates: the product's rank in the whole field (`rank` is among those that pass).",
          }),
        })
        .meta({ id: "MaxProduct" }),
    ),
    gates: gatesHeaderSchema.optional(),
    page: pageSchema,
  })
  .meta({
    id: "Max",
    description: "Products ranked by the Innovation they retain with every control engaged; off, on and the distance.",
  });

export const deltaSchema = z
  .object({
    ...countryHeader,
    products: z.array(
      z
        .object({
          ...underControlsProduct,
          published: scoresSchema,
          underControls: scoresSchema,
          distance: distanceSchema,
          gate: gateVerdictSchema.optional(),
        })
        .meta({ id: "DeltaProduct" }),
    ),
    gates: gatesHeaderSchema.optional(),
    page: pageSchema,
  })
  .meta({
    id: "Delta",
    description: "Each product's published scores, its scores under the controls, and the distance.",
  });

export const marketSummarySchema = z
  .object({
    marketId: z.string(),
    name: z.string(),
    description: z.string(),
    productCount: z.number().int().nonnegative(),
    release: z.number().int().positive(),
    lastUpdated: timestamp,
  })
  .meta({ id: "MarketSummary" });

export const marketsSchema = z.object({ markets: z.array(marketSummarySchema) }).meta({ id: "Markets" });

export const marketSchema = marketSummarySchema
  .extend({
    methodologyVersion: z.string(),
    material: z.boolean().meta({ description: "Whether the latest release changed the methodology materially." }),
  })
  .meta({ id: "Market" });

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

export const geographiesSchema = z
  .object({
    geographies: z.array(
      z
        .object({
          country: z.string(),
          name: z.string(),
          controls: z.array(
            z
              .object({ id: z.string(), name: z.string(), description: z.string(), framework: z.string() })
              .meta({ id: "Control" }),
          ),
        })
        .meta({ id: "Geography" }),
    ),
    controls: z
      .array(
        z
          .object({
            id: z.string(),
            name: z.string(),
            description: z.string(),
            framework: z.string(),
            sov: z.array(z.object({ objective: z.string(), level: z.number().int().min(0).max(4) })).meta({
              description: "The EU Cloud Sovereignty Framework objectives satisfying it evidences, at what SEAL level.",
            }),
          })
          .meta({ id: "CatalogueControl" }),
      )
      .meta({
        description:
          "Every control of the catalogue, engaged by a country or not (the ids `requireControls` takes), with what it evidences.",
      }),
  })
  .meta({ id: "Geographies" });

/** The same geographies with each country's controls by id, and every control once (`detail=ids`). */
export const geographiesCompactSchema = z
  .object({
    geographies: z.array(
      z.object({
        country: z.string(),
        name: z.string(),
        controls: z.array(z.string()).meta({ description: "The ids of the controls it engages (see controls)." }),
      }),
    ),
    controls: z.array(z.object({ id: z.string(), name: z.string(), framework: z.string() })).meta({
      description: "Every control of the catalogue, once.",
    }),
  })
  .meta({
    id: "GeographiesByControlId",
    description: "Asked with detail=ids: each country's controls by id, every control named once.",
  });

/** Either answer as one object (MCP output schemas must be objects). */
export const geographiesEitherSchema = z.object({
  geographies: z.array(
    z.object({
      country: z.string(),
      name: z.string(),
      controls: z.array(
        z.union([
          z.string(),
          z.object({ id: z.string(), name: z.string(), description: z.string(), framework: z.string() }),
        ]),
      ),
    }),
  ),
  controls: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().optional(),
      framework: z.string(),
      sov: z.array(z.object({ objective: z.string(), level: z.number().int().min(0).max(4) })).optional(),
    }),
  ),
});

// ---------------------------------------------------------------- release comparison

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

const axisChangeSchema = z
  .object({ from: score, to: score, change: z.number(), attribution: attributionSchema })
  .meta({ id: "AxisChange" });

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

// ---------------------------------------------------------------- product breakdown

export const productInput = z.object({
  marketId: marketIdParam,
  productId: z
    .string()
    .max(64, "productId must be at most 64 characters")
    .regex(SLUG_PATTERN, "productId must be a kebab-case slug (lowercase words joined by hyphens)")
    .meta({
      description:
        "The product's slug within the market, as the market's products list gives it (GET /v1/markets/{marketId}/products; MCP: service_market_products_list; free).",
      example: "quillmere-atlas",
    }),
  release: releaseParam,
  country: countryCode.optional().meta({
    description: "Adds what the product keeps under this country's controls (ISO alpha-2); omitted: published only.",
    example: "FR",
  }),
});

const indicatorValueSchema = z
  .union([z.number(), z.boolean(), z.string()])
  .nullable()
  .meta({ description: "As written in the catalogue: a number, yes/no, or a level; null when not demonstrated." });

export const evidenceSchema = z
  .object({
    source: z.string().meta({ description: "A URL or a document reference." }),
    asOf: z
      .string()
      .meta({ description: "The day the value was true or observed (YYYY-MM-DD).", example: "2026-01-31" }),
    note: z.string().optional(),
    confidence: z.enum(["verified", "vendor-claimed", "estimated"]).optional(),
  })
  .nullable()
  .meta({ id: "Evidence", description: "Where a value comes from; null when the catalogue gives none." });

const fieldBoundsSchema = z.object({ min: z.number(), max: z.number() }).nullable().meta({
  description:
    "The min and max of the field (the default offerings) a number was scaled against; null for yes/no and levels.",
});

const axisBreakdownSchema = z
  .object({
    score: score,
    band: z.string(),
    weightTotal: z.number().positive(),
    indicators: z.array(
      z
        .object({
          indicatorId: z.string(),
          name: z.string(),
          kind: z.enum(["number", "boolean", "level"]),
          unit: z.string().nullable(),
          direction: z.enum(["higher", "lower"]).nullable(),
          levels: z.array(z.string()).nullable().meta({ description: "Ordered worst first; null unless a level." }),
          value: indicatorValueSchema,
          normalized: z.number().min(0).max(1).meta({ description: "0..1, four decimals." }),
          weight: z.number().positive(),
          contribution: z.number().meta({
            description:
              "Points added to the axis score: 100 × weight × normalized / weightTotal, one decimal, rounded together so an axis's contributions add up to its score.",
          }),
          field: fieldBoundsSchema,
          evidence: evidenceSchema,
          gap: z.boolean().meta({ description: "Not demonstrated: scored 0." }),
        })
        .meta({ id: "IndicatorContribution" }),
    ),
  })
  .meta({ id: "AxisBreakdown" });

const indicatorUnderControlsSchema = z
  .object({
    indicatorId: z.string(),
    value: indicatorValueSchema,
    normalized: z.number().min(0).max(1),
    contribution: z.number(),
    change: z.number().meta({ description: "Contribution under controls − published contribution." }),
    overridden: z.boolean().meta({ description: "Whether the engaged offering writes this value itself." }),
    evidence: evidenceSchema,
  })
  .meta({ id: "IndicatorUnderControls" });

const axisUnderControlsSchema = z.object({ score: score, indicators: z.array(indicatorUnderControlsSchema) });

export const productSchema = z
  .object({
    ...readingHeader,
    methodologyVersion: z.string(),
    productId: z.string(),
    name: z.string(),
    vendor: z.string(),
    scores: scoresSchema,
    bands: z.object({ innovation: z.string(), control: z.string(), scale: z.string() }),
    gaps: z.array(z.string()),
    axes: z.object({ innovation: axisBreakdownSchema, control: axisBreakdownSchema, scale: axisBreakdownSchema }),
    offerings: z.array(
      z
        .object({
          offeringId: z.string(),
          name: z.string(),
          default: z.boolean(),
          satisfies: z.array(z.string()).meta({ description: "Control ids this offering satisfies." }),
          overrides: z.array(
            z.object({ indicatorId: z.string(), value: indicatorValueSchema, evidence: evidenceSchema }),
          ),
          scores: scoresSchema,
        })
        .meta({ id: "OfferingDetail" }),
    ),
    underControls: z
      .object({
        country: z.string(),
        controls: z.array(controlRef),
        available: z.boolean(),
        offering: offeringRef,
        missingControls: z.array(z.string()),
        underControls: scoresSchema,
        distance: distanceSchema,
        axes: z.object({
          innovation: axisUnderControlsSchema,
          control: axisUnderControlsSchema,
          scale: axisUnderControlsSchema,
        }),
      })
      .nullable()
      .meta({ description: "What the product keeps under `country`'s controls; null when no country was given." }),
  })
  .meta({
    id: "ProductBreakdown",
    description: "One product's scores traced to every indicator value, its evidence and its offerings.",
  });

// ---------------------------------------------------------------- availability matrix

export const availabilitySchema = z
  .object({
    ...readingHeader,
    countries: z.array(z.object({ country: z.string(), name: z.string(), controls: z.array(controlRef) })).meta({
      description: "The columns, by country code; every product's `cells` follow this order.",
    }),
    products: z.array(
      z
        .object({
          productId: z.string(),
          name: z.string(),
          vendor: z.string(),
          innovation: score.meta({ description: "Published Innovation." }),
          availableIn: z.number().int().min(0).meta({ description: "How many countries it is available in." }),
          cells: z.array(
            z
              .object({
                country: z.string(),
                available: z.boolean(),
                offeringId: z.string().nullable(),
                innovationRetained: score,
                distance: z.number().min(0).meta({ description: "The Delta's distance magnitude." }),
                missingControls: z.array(z.string()),
              })
              .meta({ id: "AvailabilityCell" }),
          ),
        })
        .meta({ id: "AvailabilityRow" }),
    ),
    page: pageSchema,
  })
  .meta({
    id: "AvailabilityMatrix",
    description: "Every product under every country's controls; each cell equals the Delta for its country.",
  });

// ---------------------------------------------------------------- what-if weights

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

// ---------------------------------------------------------------- the caller's account

const credits = z.number().int();
const figures = {
  credits: credits.meta({ description: "Credits spent: the sum of the ledger's debits." }),
  calls: z.number().int().min(0).meta({ description: "Metered calls that succeeded (each one debit)." }),
};

export const organizationSchema = z
  .object({
    organizationId: z.string(),
    name: z.string(),
    homeCountry: z.string().meta({ description: "The country readings engage when a call names none." }),
    balance: credits.meta({ description: "Credits left now: the sum of the ledger." }),
    rateLimit: z
      .object({
        limit: z.number().int().positive().meta({ description: "Calls per window, for the whole organization." }),
        windowSeconds: z.number().int().positive(),
        remaining: z.number().int().min(0).meta({ description: "Calls left in the current window, this one counted." }),
        resetSeconds: z.number().int().min(0).meta({ description: "Seconds until the window starts again." }),
      })
      .meta({ description: "The organization's rate limit (429 rate_limited beyond it)." }),
    concurrency: z
      .object({
        maxInFlight: z.number().int().positive(),
        maxQueued: z.number().int().min(0),
      })
      .meta({
        description:
          "Metered calls the organization may have running at once on one instance, and waiting behind them; beyond, 429 too_many_concurrent.",
      }),
  })
  .meta({ id: "Organization", description: "The calling token's organization: balance and limits." });

/** The instants a usage period may name: wide enough for any ledger, inside what PostgreSQL stores. */
const USAGE_SPAN = { from: "2000-01-01T00:00:00Z", to: "9999-12-31T23:59:59Z" } as const;

/** A usage period's end, as an ISO 8601 date-time within USAGE_SPAN. */
const usageInstant = (name: string, example: string) => {
  const message = `${name} must be an ISO 8601 date-time from 2000-01-01 to 9999-12-31, e.g. ${example}`;
  return z.iso.datetime({ offset: true, error: message }).refine((value) => {
    const at = Date.parse(value);
    return at >= Date.parse(USAGE_SPAN.from) && at <= Date.parse(USAGE_SPAN.to);
  }, message);
};

export const usageInput = z.object({
  from: usageInstant("from", "2026-11-01T00:00:00Z").optional().meta({
    description:
      "Start of the period (its bucket's start), 2000-01-01 to 9999-12-31; default: 30 days (day) or 24 hours (hour) before `to`.",
  }),
  to: usageInstant("to", "2026-11-25T00:00:00Z")
    .optional()
    .meta({ description: "End of the period, exclusive, 2000-01-01 to 9999-12-31; default: now." }),
  bucket: z
    .enum(["day", "hour"], { error: "bucket must be day or hour" })
    .default("day")
    .meta({ description: "UTC days (at most 366) or hours (at most 744)." }),
  groupBy: z
    .enum(["operation", "token"], { error: "groupBy must be operation or token" })
    .optional()
    .meta({ description: "Split each bucket by operation, or by the token or OAuth grant that called." }),
});

export const usageSchema = z
  .object({
    from: timestamp,
    to: timestamp,
    bucket: z.enum(["day", "hour"]),
    groupBy: z.enum(["operation", "token"]).nullable(),
    totals: z.object(figures),
    buckets: z.array(
      z.object({
        start: timestamp,
        ...figures,
        groups: z
          .array(z.object({ key: z.string().nullable(), ...figures }))
          .optional()
          .meta({ description: "With groupBy: the bucket split by operation or token (null: no token)." }),
      }),
    ),
  })
  .meta({
    id: "Usage",
    description: "Credits and metered calls per bucket, every bucket of the period listed; the sums are the ledger's.",
  });

export const ledgerInput = z.object({
  limit: wholeNumber("limit", 1, 100).default(25).meta({ description: "Entries per page, newest first." }),
  cursor: z
    .string()
    .max(100, "cursor must be at most 100 characters")
    .optional()
    .meta({ description: "The previous page's `nextCursor`." }),
});

export const ledgerSchema = z
  .object({
    entries: z.array(
      z.object({
        id: z.number().int().positive(),
        kind: z.enum(["grant", "debit", "adjustment"]),
        amount: credits.meta({ description: "Signed: positive for grants, negative for debits." }),
        balanceAfter: credits,
        operation: z.string().nullable().meta({ description: "The operation a debit paid for." }),
        tokenId: z.string().nullable().meta({ description: "The token or OAuth grant that made the call." }),
        requestId: z.string().nullable(),
        note: z.string().nullable(),
        createdAt: timestamp,
      }),
    ),
    nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last." }),
  })
  .meta({ id: "Ledger", description: "The organization's credits ledger, newest first." });
