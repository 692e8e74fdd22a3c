import { z } from "zod";
import { AXES, AXIS_LABELS, SLUG_PATTERN } from "../../1-domain/market-definition";
import { notFound } from "../../1-errors/api-error";
import { signed } from "../../2-comparisons/comparison-summary";
import { product as productOf, scoringFrame, UnknownProductError } from "../../2-readings/product";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { LISTS_PRODUCTS } from "../pointers";
import {
  controlRef,
  countryCode,
  distanceSchema,
  marketIdParam,
  offeringRef,
  readingHeader,
  releaseParam,
  score,
  scoresSchema,
} from "../schemas";
import { lackedControls, releaseHeader, scoresText } from "./text";

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

const valueText = (value: number | boolean | string | null, unit: string | null) =>
  value === null
    ? "not demonstrated"
    : typeof value === "boolean"
      ? value
        ? "yes"
        : "no"
      : `${value}${unit ? ` ${unit}` : ""}`;

type ProductPayload = z.output<typeof productSchema>;
type EvidenceGiven = NonNullable<z.output<typeof evidenceSchema>>;

/** How many indicators' changes under controls the text lists before it counts the rest. */
const CHANGES_SHOWN = 12;

/** A source as one line of at most 300 characters: it is anyone's text, and a line break in it would forge a line. */
const sourceLine = (source: string) => {
  const line = source.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
};

/** The sources a text cites, each once, numbered in the order first cited. */
function sourceRegister() {
  const numbers = new Map<string, number>();
  return {
    cite(evidence: EvidenceGiven) {
      const line = sourceLine(evidence.source);
      const known = numbers.get(line);
      if (known) return known;
      numbers.set(line, numbers.size + 1);
      return numbers.size;
    },
    lines: () => [...numbers.keys()].map((source, i) => `  [${i + 1}] ${source}`),
  };
}

/**
 * A product's breakdown as a model can quote it: per axis, the score and what each indicator
 * contributes (largest first), with the evidence's date, confidence and source; then, under a
 * country, the offering engaged (or the controls missing) and each indicator whose contribution
 * moved there, gains and losses alike, largest first, by name, with the value kept; then the
 * sources, numbered as cited.
 */
function productText(payload: ProductPayload): string {
  const sources = sourceRegister();
  const evidenceText = (evidence: ProductPayload["axes"]["control"]["indicators"][number]["evidence"]) =>
    evidence ? `[${evidence.confidence ?? "source"} as of ${evidence.asOf}, source ${sources.cite(evidence)}]` : "";
  const lines = [`${payload.name} (${payload.vendor}) in ${releaseHeader(payload)}: ${scoresText(payload.scores)}.`];
  const published = new Map(AXES.flatMap((axis) => payload.axes[axis].indicators.map((i) => [i.indicatorId, i])));
  for (const axis of AXES) {
    const breakdown = payload.axes[axis];
    lines.push(`${AXIS_LABELS[axis]} ${breakdown.score} (${breakdown.band}) =`);
    for (const i of [...breakdown.indicators].sort((a, b) => b.contribution - a.contribution)) {
      const evidence = i.evidence ? ` ${evidenceText(i.evidence)}` : i.gap ? "" : " [no evidence given]";
      lines.push(`  ${i.contribution} from ${i.name}: ${valueText(i.value, i.unit)}, weight ${i.weight}${evidence}`);
    }
  }
  const under = payload.underControls;
  if (under) {
    lines.push(
      under.available
        ? `Under ${under.country}'s controls: ${under.offering?.name} engaged, ${scoresText(under.underControls)} (distance ${under.distance.magnitude}).`
        : `Under ${under.country}'s controls: unavailable — misses ${lackedControls(under.missingControls, under.controls)}; nothing is retained.`,
    );
    const moved = AXES.flatMap((axis) =>
      under.axes[axis].indicators.filter((i) => i.change !== 0).map((i) => ({ axis, ...i })),
    ).sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || b.change - a.change);
    const gains = moved.filter((i) => i.change > 0).length;
    if (moved.length === 0) lines.push("  No indicator's contribution moved.");
    else
      lines.push(
        `  What moved, largest first (${gains} gain${gains === 1 ? "" : "s"}, ${moved.length - gains} loss${moved.length - gains === 1 ? "" : "es"}):`,
      );
    for (const i of moved.slice(0, CHANGES_SHOWN)) {
      const before = published.get(i.indicatorId);
      const name = before?.name ?? i.indicatorId;
      const unit = before?.unit ?? null;
      const kept = !under.available
        ? "not retained"
        : i.overridden
          ? `${valueText(before?.value ?? null, unit)} → ${valueText(i.value, unit)}, the engaged offering's own value`
          : `${valueText(i.value, unit)}, as published (a rounding of the contributions)`;
      const evidence = under.available && i.overridden && i.evidence ? ` ${evidenceText(i.evidence)}` : "";
      lines.push(`  ${signed(i.change)} ${AXIS_LABELS[i.axis]} from ${name}: ${kept}${evidence}`);
    }
    const cut = moved.slice(CHANGES_SHOWN);
    if (cut.length) {
      const cutGains = cut.filter((i) => i.change > 0).length;
      lines.push(
        `  and ${cut.length} more (${cutGains} gain${cutGains === 1 ? "" : "s"}, ${cut.length - cutGains} loss${cut.length - cutGains === 1 ? "" : "es"}, each smaller than those above): every indicator's change is in structuredContent.underControls.axes.`,
      );
    }
  }
  const cited = sources.lines();
  if (cited.length) lines.push("Sources:", ...cited);
  return lines.join("\n");
}

export const product = declareReading({
  group: "readings",
  name: "product",
  scope: MARKET_READ_SCOPE,
  credits: 2,
  path: "/markets/{marketId}/products/{productId}",
  summary: "Product breakdown",
  description:
    "One product of a market taken apart: published scores and bands; per axis, each indicator's raw and normalised value, unit, weight and contribution in points (adding up to the score), the field's min and max, its evidence (source, as-of date, confidence) and gaps; its offerings, the values each overrides and the controls each satisfies. With `country`: the offering engaged there (or the controls missing) and what each indicator keeps.",
  input: productInput,
  output: productSchema,
  example: { marketId: "foundation-model-apis", productId: "quillmere-atlas", country: "FR" },
  // A breakdown touches one product: computed per call from the release's scoring frame (kept).
  caching: "per-call",
  releases: "one",
  country: "optional",
  compute: ({ release, country, cached }, input) => {
    const frame = cached("scoring-frame", (data) => scoringFrame(data.definition));
    try {
      return productOf(release, input.productId, country, frame);
    } catch (error) {
      if (error instanceof UnknownProductError)
        throw notFound(
          `Market "${release.marketId}" has no product "${input.productId}" in release ${release.release}.`,
          LISTS_PRODUCTS,
        );
      throw error;
    }
  },
  tool: {
    name: "service_market_get_product",
    text: productText,
  },
});
