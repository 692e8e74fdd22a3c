/**
 * Inputs and outputs of the sovereign-decision readings (docs/sovereignty.md, docs/interface.md):
 * SEAL levels, the caller's gates, rank odds, the sovereignty profile and the restated history.
 */
import "zod-openapi";
import { z } from "zod";
import { SLUG_PATTERN } from "../domain/market-definition";
import { SOV_OBJECTIVE_IDS } from "../domain/sovereignty";

const sealLevel = z.number().int().min(0).max(4);

/** An overall level as the readings carry it beside a product. */
export const sealSchema = z
  .object({
    level: sealLevel.nullable().meta({
      description: "The weakest objective's SEAL level (0–4); null when the catalogue cannot assess an objective.",
    }),
    weakest: z.array(z.enum(SOV_OBJECTIVE_IDS)).meta({ description: "The objectives at that level." }),
  })
  .nullable()
  .meta({
    id: "Seal",
    description:
      "The overall EU Cloud Sovereignty Framework level of the offering engaged under the country, as the catalogue's facts evidence it; null when the product is unavailable there (no offering to assess).",
  });

export const rankOddsSchema = z
  .object({
    top1: z.number().min(0).max(1),
    top3: z.number().min(0).max(1),
    top5: z.number().min(0).max(1),
    tieGroup: z.number().int().positive().nullable().meta({
      description:
        "Products with the same group are statistically tied: in the published order, each is ahead of the next in fewer than 95 % of the draws. Null when unavailable.",
    }),
  })
  .meta({
    id: "RankOdds",
    description:
      "Share of the sensitivity analysis's draws in which the product ranks within the top 1, 3 and 5 (a tie shares the places it spans; each column adds up to k over the products). Those of the whole field, gates aside.",
  });

const gateFailureSchema = z.discriminatedUnion("gate", [
  z.object({ gate: z.literal("available"), detail: z.string() }),
  z.object({
    gate: z.literal("minSeal"),
    required: sealLevel,
    actual: sealLevel.nullable(),
    weakest: z.array(z.enum(SOV_OBJECTIVE_IDS)),
  }),
  z.object({ gate: z.literal("requireControls"), missing: z.array(z.string()) }),
]);

export const gateVerdictSchema = z
  .object({ passed: z.boolean(), failed: z.array(gateFailureSchema) })
  .meta({ id: "GateVerdict", description: "Whether the product passes the caller's gates, and every gate it failed." });

export const gatesHeaderSchema = z
  .object({
    minSeal: sealLevel.nullable(),
    requireControls: z.array(z.string()),
    passed: z.number().int().min(0),
    failed: z.number().int().min(0),
    note: z.string(),
  })
  .meta({ id: "Gates", description: "The caller's gates, present only when some were given." });

/** The gates a reading under a country takes (comma lists are checked as text, read where used). */
export const gateParams = {
  minSeal: z
    .preprocess(
      // SEAL-2 or 2 as text (a query, an MCP client that sends strings); anything else as it came.
      (value) => {
        const digits = typeof value === "string" ? value.replace(/^SEAL-/i, "") : value;
        return typeof digits === "string" && /^\d{1,3}$/.test(digits) ? Number(digits) : digits;
      },
      z
        .number({ error: "minSeal must be a SEAL level from 0 to 4 (or SEAL-0 … SEAL-4)" })
        .int("minSeal must be a SEAL level from 0 to 4 (or SEAL-0 … SEAL-4)")
        .min(0, "minSeal must be a SEAL level from 0 to 4 (or SEAL-0 … SEAL-4)")
        .max(4, "minSeal must be a SEAL level from 0 to 4 (or SEAL-0 … SEAL-4)"),
    )
    .optional()
    .meta({
      description: "Your gate: the lowest overall SEAL level (0–4) to pass; the rest are listed after, unranked.",
      example: 2,
    }),
  requireControls: z
    .string()
    .max(2000, "requireControls must be at most 2,000 characters")
    .regex(/^[a-z0-9,-]*$/, "requireControls must be control ids, comma-separated")
    .optional()
    .meta({
      description: "Your gate: control ids (comma-separated) the engaged offering must also satisfy.",
      example: "exit-capability",
    }),
};

const productIdParam = z
  .string()
  .max(64, "productId must be at most 64 characters")
  .regex(SLUG_PATTERN, "productId must be a kebab-case slug (lowercase words joined by hyphens)")
  .meta({ description: "The product's slug, from the market's products list.", example: "quillmere-atlas" });

export { productIdParam };

const factSchema = z.object({
  kind: z.enum(["control", "indicator"]),
  id: z.string(),
  name: z.string(),
  value: z.union([z.number(), z.boolean(), z.string()]).meta({
    description: "The indicator's value; for a control, true (the offering satisfies it).",
  }),
  level: sealLevel.meta({ description: "The level this fact evidences for the objective (0: none)." }),
  statedBy: z.string().meta({ description: "The offering whose catalogue entry states it." }),
  source: z.string().nullable(),
  asOf: z.string().nullable(),
  confidence: z.enum(["verified", "vendor-claimed", "estimated"]).nullable(),
  note: z.string().nullable(),
});

export const sovereigntySchema = z
  .object({
    marketId: z.string(),
    release: z.number().int().positive(),
    lastUpdated: z.string(),
    country: z.string().meta({ description: "The country whose controls choose the offering assessed." }),
    productId: z.string(),
    name: z.string(),
    vendor: z.string(),
    framework: z.string(),
    offering: z.object({ id: z.string(), name: z.string() }),
    available: z.boolean().meta({
      description: "False when no offering satisfies the country's controls: the default offering is assessed.",
    }),
    overall: z.object({
      level: sealLevel.nullable(),
      weakest: z.array(z.enum(SOV_OBJECTIVE_IDS)),
    }),
    objectives: z.array(
      z.object({
        objective: z.enum(SOV_OBJECTIVE_IDS),
        name: z.string(),
        level: sealLevel.nullable().meta({ description: "Null: the catalogue maps no fact to this objective." }),
        facts: z.array(factSchema),
      }),
    ),
    note: z.string(),
  })
  .meta({
    id: "Sovereignty",
    description:
      "A product's EU Cloud Sovereignty Framework profile under a country: each objective's SEAL level with the facts behind it, and the overall level, the weakest objective's.",
  });

const axisScores = z.object({ innovation: z.number(), control: z.number(), scale: z.number() });
const axisBands = z.object({ innovation: z.string(), control: z.string(), scale: z.string() });

export const historySchema = z
  .object({
    marketId: z.string(),
    productId: z.string(),
    name: z.string(),
    vendor: z.string(),
    yardstick: z
      .object({ release: z.number().int().positive(), methodologyVersion: z.string() })
      .meta({ description: "The release whose methodology every release is restated under." }),
    releases: z.array(
      z.object({
        release: z.number().int().positive(),
        lastUpdated: z.string(),
        methodologyVersion: z.string().meta({ description: "The methodology it was published under." }),
        published: z.object({ scores: axisScores, bands: axisBands }),
        restated: z
          .object({
            methodologyVersion: z.string(),
            scores: axisScores,
            bands: axisBands,
            gaps: z.array(z.string()),
            unreadable: z.array(z.string()).meta({
              description: "Indicators whose value this methodology cannot read (counted as not demonstrated).",
            }),
          })
          .meta({
            description:
              "Restated: the release's own values re-scored under the yardstick's methodology. Not published.",
          }),
      }),
    ),
    note: z.string(),
  })
  .meta({
    id: "ProductHistory",
    description:
      "A product's releases as published and restated under one methodology, so that only like is compared with like.",
  });
