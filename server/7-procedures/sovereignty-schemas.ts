/**
 * Schema pieces the sovereign-decision readings share (docs/sovereignty.md, docs/interface.md):
 * SEAL levels, the caller's gates, rank odds, the product parameter. The sovereignty profile's and
 * the restated history's own schemas are in their declarations (operations/sovereignty.ts, history.ts).
 */
import "zod-openapi";
import { z } from "zod";
import { SLUG_PATTERN } from "../1-domain/market-definition";
import { SOV_OBJECTIVE_IDS } from "../1-domain/sovereignty";

export const sealLevel = z.number().int().min(0).max(4);

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
