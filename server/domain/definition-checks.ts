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
  type GeographiesFile,
  type Indicator,
  type IndicatorValue,
  type MarketFile,
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
 * controls, values name known indicators and fit their kind and range.
 */
export function checkMarket(file: string, definition: MarketFile, controls: readonly Control[]): MarketFile {
  const knownControls = new Set(controls.map((c) => c.id));
  const indicators = new Map(definition.indicators.map((i) => [i.id, i]));
  const issues: CatalogIssue[] = [];

  definition.products.forEach((product, p) => {
    product.offerings.forEach((offering, o) => {
      const at = ["products", p, "offerings", o];
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
    });
  });
  if (issues.length > 0) throw new CatalogFileError(file, issues);
  return definition;
}

function valueProblem(indicator: Indicator, value: IndicatorValue): string | undefined {
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
