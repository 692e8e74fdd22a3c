/**
 * The human-editable catalogue files, as zod schemas.
 *
 * Two kinds of file exist:
 * - `kind: geographies` — the global controls catalogue and the countries that engage them;
 * - `kind: market` — one market: dimensions with bands, indicators, products and offerings.
 *
 * Structural rules live here (shape, slugs, ranges, uniqueness inside one file). Rules that need
 * the rest of the catalogue (does a control id exist?) live in `definition-checks.ts`.
 */
import { z } from "zod";
import { SOV_OBJECTIVE_IDS } from "./sovereignty";

export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const AXES = ["innovation", "control", "scale"] as const;
export type Axis = (typeof AXES)[number];
/** Each axis as people read it, in every surface (pages, MCP text, the CLI). */
export const AXIS_LABELS: Record<Axis, string> = { innovation: "Innovation", control: "Control", scale: "Scale" };

export const slug = z
  .string()
  .max(64, "must be at most 64 characters")
  .regex(SLUG_PATTERN, "must be a kebab-case slug (lowercase words joined by hyphens)");

// Text is kept exactly as written (methodology is quoted verbatim); it only has to say something.
const text = z.string().refine((value) => value.trim().length > 0, "must not be empty");

/** Reports every duplicate of `key` in a list as an issue at the duplicate's own path. */
function uniqueBy<T>(key: (item: T) => string, what: string) {
  return (items: T[], ctx: z.RefinementCtx) => {
    const seen = new Map<string, number>();
    items.forEach((item, index) => {
      const value = key(item);
      const first = seen.get(value);
      if (first === undefined) seen.set(value, index);
      else
        ctx.addIssue({
          code: "custom",
          path: [index],
          message: `duplicate ${what} "${value}" (first at index ${first})`,
        });
    });
  };
}

// ---------------------------------------------------------------- sovereignty objectives

const sealLevel = z.number().int("a SEAL level is a whole number").min(0).max(4, "SEAL levels go from 0 to 4");
const sovObjective = z.enum(SOV_OBJECTIVE_IDS, { error: `must be one of ${SOV_OBJECTIVE_IDS.join(", ")}` });

/** What satisfying a control evidences: the level it shows for each objective it concerns (docs/sovereignty.md). */
const controlSovSchema = z
  .array(z.strictObject({ objective: sovObjective, level: sealLevel }))
  .superRefine(uniqueBy((m) => m.objective, "objective"));

/**
 * What a Control-axis indicator's value evidences for one objective, by the indicator's kind: a
 * boolean's `level` when true; a level indicator's `levels` (level name → SEAL level; a name not
 * listed evidences nothing); a number's `thresholds` (at least as good as `from`, in the
 * indicator's direction, evidences `level`). Which one fits the kind is checked with the market.
 */
export const indicatorSovSchema = z.strictObject({
  objective: sovObjective,
  level: sealLevel.optional(),
  levels: z.record(z.string(), sealLevel).optional(),
  thresholds: z
    .array(z.strictObject({ from: z.number().finite(), level: sealLevel }))
    .min(1)
    .optional(),
});

// ---------------------------------------------------------------- geographies and controls

export const controlSchema = z.strictObject({
  id: slug,
  name: text,
  description: text,
  framework: text,
  /** The sovereignty objectives satisfying it evidences, and at what level. */
  sov: controlSovSchema.optional(),
});

export const geographySchema = z.strictObject({
  country: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code in upper case"),
  name: text,
  controls: z.array(slug).superRefine(uniqueBy((id) => id, "control")),
});

export const geographiesFileSchema = z.strictObject({
  kind: z.literal("geographies"),
  controls: z
    .array(controlSchema)
    .min(1)
    .superRefine(uniqueBy((c) => c.id, "control id")),
  geographies: z
    .array(geographySchema)
    .min(1)
    .superRefine(uniqueBy((g) => g.country, "country")),
});

// ---------------------------------------------------------------- markets

const bandSchema = z.strictObject({
  name: text,
  from: z.number().min(0, "must be ≥ 0").max(100, "must be ≤ 100"),
});

const bandsSchema = z
  .array(bandSchema)
  .min(2, "needs at least Foundation and Frontier")
  .superRefine((bands, ctx) => {
    if (bands[0] && bands[0].from !== 0)
      ctx.addIssue({ code: "custom", path: [0, "from"], message: "the first band must start at 0" });
    if (bands[0] && bands[0].name !== "Foundation")
      ctx.addIssue({ code: "custom", path: [0, "name"], message: 'the first band must be "Foundation"' });
    const last = bands.length - 1;
    if (bands[last] && bands[last].name !== "Frontier")
      ctx.addIssue({ code: "custom", path: [last, "name"], message: 'the last band must be "Frontier"' });
    for (let i = 1; i < bands.length; i++) {
      const previous = bands[i - 1];
      const current = bands[i];
      if (previous && current && current.from <= previous.from)
        ctx.addIssue({
          code: "custom",
          path: [i, "from"],
          message: `bands must be strictly increasing (${current.from} after ${previous.from})`,
        });
    }
  })
  .superRefine(uniqueBy((b) => b.name, "band name"));

const dimensionSchema = z.strictObject({
  name: text,
  description: text,
  bands: bandsSchema,
});

const indicatorBase = {
  id: slug,
  axis: z.enum(AXES),
  name: text,
  description: z.string().trim().optional(),
  weight: z.number().gt(0, "weight must be > 0").finite(),
  source: z.string().trim().optional(),
  /** Control axis only: the sovereignty objectives its value evidences (docs/sovereignty.md). */
  sov: z
    .array(indicatorSovSchema)
    .superRefine(uniqueBy((m) => m.objective, "objective"))
    .optional(),
};

const numberIndicatorSchema = z
  .strictObject({
    ...indicatorBase,
    kind: z.literal("number"),
    direction: z.enum(["higher", "lower"]),
    unit: z.string().trim().optional(),
    /** The values an input may take (inclusive); inputs outside it are rejected. */
    range: z.tuple([z.number().finite(), z.number().finite()]).optional(),
  })
  .refine((i) => !i.range || i.range[0] < i.range[1], {
    path: ["range"],
    message: "range must be [min, max] with min < max",
  });

const booleanIndicatorSchema = z.strictObject({
  ...indicatorBase,
  kind: z.literal("boolean"),
});

const levelIndicatorSchema = z.strictObject({
  ...indicatorBase,
  kind: z.literal("level"),
  /** Ordered worst first. */
  levels: z
    .array(text)
    .min(2, "a level indicator needs at least two levels")
    .superRefine(uniqueBy((l) => l, "level")),
});

export const indicatorSchema = z.discriminatedUnion("kind", [
  numberIndicatorSchema,
  booleanIndicatorSchema,
  levelIndicatorSchema,
]);

/** An indicator value as written: a number, a boolean, a level name, or null ("not demonstrated"). */
const indicatorValue = z.union([z.number().finite(), z.boolean(), z.string(), z.null()]);

export const EVIDENCE_CONFIDENCE = ["verified", "vendor-claimed", "estimated"] as const;

/**
 * A calendar date as written in a file: YYYY-MM-DD, and a real day (no 2026-02-30). Unquoted dates
 * are strings in YAML 1.2; a file that asks for YAML 1.1 (or tags `!!timestamp`) gets a Date, which
 * counts when it is a whole day (midnight UTC) and is refused with the same message otherwise.
 */
const isoDate = z.preprocess(
  (value) =>
    value instanceof Date && !Number.isNaN(value.getTime()) && value.toISOString().endsWith("T00:00:00.000Z")
      ? value.toISOString().slice(0, 10)
      : value instanceof Date
        ? "not a whole day"
        : value,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")
    .refine((value) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return true; // said once, by the regex
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
    }, "is not a calendar date"),
);

/**
 * Where a value comes from: a URL (http or https) or a document reference in words. A source that
 * starts like a URL must be one; anything else is read as a reference.
 */
const evidenceSource = text.pipe(z.string().max(500, "must be at most 500 characters")).superRefine((value, ctx) => {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim())) return;
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    ctx.addIssue({ code: "custom", message: "looks like a URL but is not a valid one" });
    return;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    ctx.addIssue({ code: "custom", message: `a URL source must be http or https, not ${url.protocol.slice(0, -1)}` });
});

/** The evidence behind one indicator value (docs/catalogue.md, Evidence). */
export const evidenceSchema = z.strictObject({
  source: evidenceSource,
  /** The day the value was true or observed; not after the release that publishes it. */
  asOf: isoDate,
  note: z.string().trim().max(1000, "must be at most 1000 characters").optional(),
  confidence: z.enum(EVIDENCE_CONFIDENCE).optional(),
});

const offeringSchema = z.strictObject({
  id: slug,
  name: text,
  default: z.boolean().optional(),
  satisfies: z
    .array(slug)
    .superRefine(uniqueBy((id) => id, "control"))
    .default([]),
  values: z.record(z.string(), indicatorValue).default({}),
  /** Evidence per indicator id, for values this offering writes. */
  evidence: z.record(z.string(), evidenceSchema).default({}),
  /** Evidence per control id, for controls this offering satisfies (what shows it does). */
  controlEvidence: z.record(z.string(), evidenceSchema).optional(),
});

const productSchema = z.strictObject({
  productId: slug,
  name: text,
  vendor: text,
  offerings: z
    .array(offeringSchema)
    .min(1, "a product needs at least its default offering")
    .superRefine(uniqueBy((o) => o.id, "offering id"))
    .superRefine((offerings, ctx) => {
      const defaults = offerings.flatMap((o, i) => (o.default ? [i] : []));
      if (defaults.length === 0)
        ctx.addIssue({
          code: "custom",
          path: [],
          message: "no default offering (mark exactly one with default: true)",
        });
      for (const extra of defaults.slice(1))
        ctx.addIssue({
          code: "custom",
          path: [extra, "default"],
          message: `two default offerings (the first is at index ${defaults[0]})`,
        });
    }),
});

export const marketFileSchema = z.strictObject({
  kind: z.literal("market"),
  marketId: slug,
  name: text,
  description: text,
  methodologyVersion: text,
  methodology: text,
  dimensions: z.strictObject({ innovation: dimensionSchema, control: dimensionSchema, scale: dimensionSchema }),
  indicators: z
    .array(indicatorSchema)
    .min(1)
    .superRefine(uniqueBy((i) => i.id, "indicator id"))
    .superRefine((indicators, ctx) => {
      for (const axis of AXES)
        if (!indicators.some((i) => i.axis === axis))
          ctx.addIssue({ code: "custom", path: [], message: `axis "${axis}" has no indicator` });
    }),
  products: z
    .array(productSchema)
    .min(1)
    .superRefine(uniqueBy((p) => p.productId, "product id")),
});

export const definitionFileSchema = z.discriminatedUnion("kind", [geographiesFileSchema, marketFileSchema]);

export type Control = z.infer<typeof controlSchema>;
export type Geography = z.infer<typeof geographySchema>;
export type GeographiesFile = z.infer<typeof geographiesFileSchema>;
export type MarketFile = z.infer<typeof marketFileSchema>;
export type Indicator = z.infer<typeof indicatorSchema>;
export type Product = z.infer<typeof productSchema>;
export type Offering = z.infer<typeof offeringSchema>;
export type IndicatorValue = z.infer<typeof indicatorValue>;
export type Evidence = z.infer<typeof evidenceSchema>;
export type IndicatorSov = z.infer<typeof indicatorSovSchema>;
export type DefinitionFile = z.infer<typeof definitionFileSchema>;
