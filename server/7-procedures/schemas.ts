/**
 * The schema pieces several operations share (docs/interface.md): parameters (market, release,
 * country, narrowing), scores, headers, pagination. Each operation's own input and output schemas
 * are in its declaration's file (./operations/). Field names are the contract: fields may be added,
 * never renamed. Descriptions and examples feed the OpenAPI document.
 */
import "zod-openapi";
import { z } from "zod";
import { SLUG_PATTERN } from "../1-domain/market-definition";
import { gateParams } from "./sovereignty-schemas";

// ---------------------------------------------------------------- inputs

export const marketIdParam = z
  .string()
  .max(64, "marketId must be at most 64 characters")
  .regex(SLUG_PATTERN, "marketId must be a kebab-case slug (lowercase words joined by hyphens)")
  .meta({
    description: "The market's slug, from the markets list.",
    example: "foundation-model-apis",
  });

/** The largest PostgreSQL `integer` (releases, serial ids): a larger number is the caller's 400, never a database error. */
export const MAX_INTEGER = 2_147_483_647;

/**
 * The largest release number there can be: releases are stored as PostgreSQL `integer`. Declared,
 * so the OpenAPI document states it and a larger one is the caller's 400, never a database error.
 */
export const MAX_RELEASE = MAX_INTEGER;

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
export const commaList = (name: string, characters: string, what: string) =>
  z
    .string()
    .max(4000, `${name} must be at most 4,000 characters`)
    .regex(new RegExp(`^[${characters}]*$`), `${name} must be ${what}, comma-separated`);

/**
 * The parameters that narrow a reading of every product (server/2-readings/narrowing.ts): the same
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
    description:
      "Product fields to keep, comma-separated; `productId`, `name` and `available` (where the reading has it) are always kept.",
  }),
};

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

export const marketInput = z.object({ marketId: marketIdParam });

export const releaseInput = z.object({ marketId: marketIdParam, release: releaseParam });

/** A reading under a country's controls, with the caller's gates: Max, and Delta (which adds `view`). */
export const servicemaxInput = releaseInput.extend({ country: countryParam, ...gateParams });

// ---------------------------------------------------------------- building blocks

export const score = z.number().min(0).max(100).meta({ description: "0..100, one decimal." });

export const timestamp = z.string().meta({ description: "ISO 8601 timestamp.", example: "2026-05-04T09:00:00.000Z" });

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

export const offeringRef = z
  .object({ id: z.string(), name: z.string() })
  .nullable()
  .meta({ description: "The offering engaged under the controls; null when the product is unavailable." });

export const controlRef = z.object({ id: z.string(), name: z.string() }).meta({ id: "ControlRef" });

export const readingHeader = {
  marketId: z.string(),
  release: z.number().int().positive(),
  lastUpdated: timestamp,
};

export const countryHeader = {
  ...readingHeader,
  country: z.string().meta({ description: "The country whose controls are engaged.", example: "FR" }),
  controls: z.array(controlRef).meta({ description: "The controls engaged; empty when nothing moves." }),
};

export const bandSchema = z
  .object({ name: z.string(), from: z.number(), to: z.number() })
  .meta({ id: "Band", description: "Covers [from, to); the last band covers [from, 100]." });

// ---------------------------------------------------------------- shared payload pieces

export const rankIntervalSchema = z
  .object({
    best: z.number().int().positive(),
    worst: z.number().int().positive(),
  })
  .meta({
    id: "RankInterval",
    description:
      "The 5th to 95th percentile of the product's rank across the sensitivity analysis's draws (best is the smaller number), widened to contain the published rank.",
  });

export const underControlsProduct = {
  productId: z.string(),
  name: z.string(),
  vendor: z.string(),
  available: z.boolean().meta({ description: "False when no offering satisfies every engaged control." }),
  offering: offeringRef,
  missingControls: z
    .array(z.string())
    .meta({ description: "Control ids no offering satisfies (unavailable products)." }),
};

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

// ---------------------------------------------------------------- the caller's account

export const credits = z.number().int();
