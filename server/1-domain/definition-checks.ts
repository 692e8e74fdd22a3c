/**
 * Reads a catalogue file and checks it: structure (zod) first, then the references between its
 * parts and to the controls catalogue. Every problem is reported with the file and the path inside
 * it; nothing here touches the database.
 */
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import {
  type Control,
  type DefinitionFile,
  definitionFileSchema,
  type Evidence,
  type GeographiesFile,
  type Indicator,
  type IndicatorValue,
  type MarketFile,
  type Offering,
} from "./market-definition";

export type IssuePath = (string | number)[];
export interface CatalogIssue {
  path: IssuePath;
  message: string;
}

/** A catalogue file that cannot be used, with every reason found. */
export class CatalogFileError extends Error {
  constructor(
    readonly file: string,
    readonly issues: CatalogIssue[],
  ) {
    super(issues.map((issue) => `${file}: ${formatPath(issue.path)}: ${issue.message}`).join("\n"));
    this.name = "CatalogFileError";
  }
}

/** `products[2].offerings[0].values.latency` — the way a person finds the spot in the file. */
export function formatPath(path: IssuePath): string {
  if (path.length === 0) return "(file)";
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`)).join("");
}

/** Parses YAML or JSON text (JSON is YAML) and checks its structure. */
export function parseDefinition(file: string, source: string): DefinitionFile {
  let raw: unknown;
  try {
    raw = parseYaml(source, { prettyErrors: true, uniqueKeys: true });
  } catch (error) {
    throw new CatalogFileError(file, [{ path: [], message: `not valid YAML/JSON: ${(error as Error).message}` }]);
  }
  const result = definitionFileSchema.safeParse(raw);
  if (!result.success) throw new CatalogFileError(file, zodIssues(result.error));
  return result.data;
}

function zodIssues(error: z.ZodError): CatalogIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.filter((p): p is string | number => typeof p !== "symbol"),
    message: issue.message,
  }));
}

/** Cross-checks a geographies file: every control a country engages is in its catalogue. */
export function checkGeographies(file: string, definition: GeographiesFile): GeographiesFile {
  const known = new Set(definition.controls.map((c) => c.id));
  const issues: CatalogIssue[] = [];
  definition.geographies.forEach((geography, g) => {
    geography.controls.forEach((id, c) => {
      if (!known.has(id))
        issues.push({ path: ["geographies", g, "controls", c], message: `unknown control id "${id}"` });
    });
  });
  if (issues.length > 0) throw new CatalogFileError(file, issues);
  return definition;
}

/**
 * Cross-checks a market file against itself and the controls catalogue: offerings name known
 * controls, values name known indicators and fit their kind and range, evidence sits beside a
 * value the offering writes. With `releaseDate`, no evidence is dated after that day either
 * (evidenceDateIssues): publish and preview pass the release's date, validate today's.
 */
export function checkMarket(
  file: string,
  definition: MarketFile,
  controls: readonly Control[],
  options: { releaseDate?: Date } = {},
): MarketFile {
  const issues = marketIssues(definition, controls);
  if (options.releaseDate) issues.push(...evidenceDateIssues(definition, options.releaseDate));
  if (issues.length > 0) throw new CatalogFileError(file, issues);
  return definition;
}

/** What checkMarket refuses, as a list (empty when the market is sound); dates aside. */
export function marketIssues(definition: MarketFile, controls: readonly Control[]): CatalogIssue[] {
  const knownControls = new Set(controls.map((c) => c.id));
  const indicators = new Map(definition.indicators.map((i) => [i.id, i]));
  const issues: CatalogIssue[] = [];
  definition.indicators.forEach((indicator, i) => {
    issues.push(...sovIssues(indicator, ["indicators", i, "sov"]));
  });

  definition.products.forEach((product, p) => {
    product.offerings.forEach((offering, o) => {
      const at = ["products", p, "offerings", o];
      for (const id of Object.keys(offering.controlEvidence ?? {}))
        if (!offering.satisfies.includes(id))
          issues.push({
            path: [...at, "controlEvidence", id],
            message: `evidence for a control this offering does not satisfy: "${id}" is not in its satisfies`,
          });
      offering.satisfies.forEach((id, c) => {
        if (!knownControls.has(id))
          issues.push({ path: [...at, "satisfies", c], message: `unknown control id "${id}"` });
      });
      for (const [id, value] of Object.entries(offering.values)) {
        const indicator = indicators.get(id);
        const path = [...at, "values", id];
        if (!indicator) issues.push({ path, message: `unknown indicator id "${id}"` });
        else {
          const problem = valueProblem(indicator, value);
          if (problem) issues.push({ path, message: problem });
        }
      }
      for (const id of Object.keys(offeringEvidence(offering))) {
        const path = [...at, "evidence", id];
        if (!indicators.has(id)) issues.push({ path, message: `evidence for unknown indicator id "${id}"` });
        else if (!Object.hasOwn(offering.values, id))
          issues.push({
            path,
            message:
              `evidence for a value this offering does not write: "${id}" is not in its values` +
              (offering.default ? "" : " (an inherited value's evidence belongs to the default offering)"),
          });
      }
    });
  });
  return issues;
}

/**
 * An indicator's sovereignty mappings against its kind: only the Control axis evidences
 * objectives; a boolean says the `level` of true, a level indicator its `levels` (names it has),
 * a number its `thresholds` — one form each, nothing else.
 */
function sovIssues(indicator: Indicator, at: IssuePath): CatalogIssue[] {
  const mappings = indicator.sov ?? [];
  if (mappings.length > 0 && indicator.axis !== "control")
    return [{ path: at, message: "only Control-axis indicators evidence sovereignty objectives" }];
  const issues: CatalogIssue[] = [];
  const expected = { boolean: "level", level: "levels", number: "thresholds" } as const;
  mappings.forEach((mapping, m) => {
    const path = [...at, m];
    const given = (["level", "levels", "thresholds"] as const).filter((key) => mapping[key] !== undefined);
    const wanted = expected[indicator.kind];
    if (given.length !== 1 || given[0] !== wanted) {
      issues.push({ path, message: `a ${indicator.kind} indicator maps an objective with \`${wanted}\` only` });
      return;
    }
    if (indicator.kind === "level")
      for (const name of Object.keys(mapping.levels ?? {}))
        if (!indicator.levels.includes(name))
          issues.push({ path: [...path, "levels", name], message: `"${name}" is not a level of ${indicator.id}` });
  });
  return issues;
}

/** An offering's evidence; releases stored before evidence existed have none (read as {}). */
export function offeringEvidence(offering: Offering): Record<string, Evidence> {
  return offering.evidence ?? {};
}

/** `date`'s day in UTC, written YYYY-MM-DD, as `asOf` is. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Evidence dated after the release that publishes it: an `asOf` later than `releaseDate`'s day
 * (both read in UTC, by day: evidence of the release's own day is allowed).
 */
export function evidenceDateIssues(definition: MarketFile, releaseDate: Date): CatalogIssue[] {
  const releaseDay = utcDay(releaseDate);
  const issues: CatalogIssue[] = [];
  definition.products.forEach((product, p) => {
    product.offerings.forEach((offering, o) => {
      // Both are YYYY-MM-DD (the schema checked asOf), so text order is date order.
      for (const [field, entries] of [
        ["evidence", offeringEvidence(offering)],
        ["controlEvidence", offering.controlEvidence ?? {}],
      ] as const)
        for (const [id, evidence] of Object.entries(entries))
          if (evidence.asOf > releaseDay)
            issues.push({
              path: ["products", p, "offerings", o, field, id, "asOf"],
              message: `${evidence.asOf} is after the release date ${releaseDay}: evidence cannot postdate the release that publishes it`,
            });
    });
  });
  return issues;
}

/** Throws every evidenceDateIssues problem of the file at once. */
export function checkEvidenceDates(file: string, definition: MarketFile, releaseDate: Date): MarketFile {
  const issues = evidenceDateIssues(definition, releaseDate);
  if (issues.length > 0) throw new CatalogFileError(file, issues);
  return definition;
}

/** The values of one indicator that carry no evidence, and where they are. */
export interface MissingEvidence {
  indicatorId: string;
  /** The indicator's position in `indicators`, for the issue path. */
  index: number;
  /** Every offering writing a non-null value for it without evidence, in file order. */
  offerings: { productId: string; offeringId: string }[];
  /** The products of those offerings, each once, in file order. */
  productIds: string[];
}

/**
 * Which non-null values carry no evidence, per indicator (only indicators with some, in the
 * order of `indicators`). An offering answers for the values it writes: a default offering's
 * values (which the others inherit) count once, at the default; an override needs evidence of its
 * own, even when it repeats the default's value. Null values (gaps) need none.
 */
export function missingEvidence(definition: MarketFile): MissingEvidence[] {
  const byIndicator = new Map<string, MissingEvidence>(
    definition.indicators.map((indicator, index) => [
      indicator.id,
      { indicatorId: indicator.id, index, offerings: [], productIds: [] },
    ]),
  );
  for (const product of definition.products)
    for (const offering of product.offerings) {
      const evidence = offeringEvidence(offering);
      for (const [id, value] of Object.entries(offering.values)) {
        const missing = byIndicator.get(id);
        if (!missing || value === null || Object.hasOwn(evidence, id)) continue;
        missing.offerings.push({ productId: product.productId, offeringId: offering.id });
        if (missing.productIds.at(-1) !== product.productId) missing.productIds.push(product.productId);
      }
    }
  return [...byIndicator.values()].filter((m) => m.offerings.length > 0);
}

/** How many product ids a missing-evidence line names before "and N more". */
const NAMED_PRODUCTS = 5;

/** missingEvidence as issues: one per indicator, at the indicator, with a count and the first products. */
export function missingEvidenceIssues(definition: MarketFile): CatalogIssue[] {
  return missingEvidence(definition).map((m) => {
    const named = m.productIds.slice(0, NAMED_PRODUCTS).join(", ");
    const more = m.productIds.length > NAMED_PRODUCTS ? ` and ${m.productIds.length - NAMED_PRODUCTS} more` : "";
    const values = m.offerings.length === 1 ? "1 value" : `${m.offerings.length} values`;
    const products = m.productIds.length === 1 ? "1 product" : `${m.productIds.length} products`;
    return {
      path: ["indicators", m.index],
      message: `no evidence for ${values} of "${m.indicatorId}", in ${products}: ${named}${more}`,
    };
  });
}

export function valueProblem(indicator: Indicator, value: IndicatorValue): string | undefined {
  if (value === null) return undefined; // explicitly not demonstrated
  switch (indicator.kind) {
    case "number": {
      if (typeof value !== "number") return `"${indicator.id}" is a number indicator; got ${JSON.stringify(value)}`;
      const range = indicator.range;
      if (range && (value < range[0] || value > range[1]))
        return `score input ${value} is out of range [${range[0]}, ${range[1]}] for "${indicator.id}"`;
      return undefined;
    }
    case "boolean":
      return typeof value === "boolean"
        ? undefined
        : `"${indicator.id}" is a boolean indicator; got ${JSON.stringify(value)}`;
    case "level":
      return typeof value === "string" && indicator.levels.includes(value)
        ? undefined
        : `score input ${JSON.stringify(value)} is not one of the levels of "${indicator.id}" (${indicator.levels.join(", ")})`;
  }
}
