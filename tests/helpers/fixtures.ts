/** Loads the catalogue fixtures of tests/fixtures as typed, checked definitions. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { AXES, type GeographiesFile, type MarketFile } from "@/server/catalog/definition";
import { checkGeographies, checkMarket, parseDefinition } from "@/server/catalog/validate";

export const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");

export function fixtureGeographies(): GeographiesFile {
  const file = path.join(FIXTURES, "geographies.yaml");
  const definition = parseDefinition(file, readFileSync(file, "utf8"));
  if (definition.kind !== "geographies") throw new Error("not a geographies fixture");
  return checkGeographies(file, definition);
}

export function fixtureMarket(): MarketFile {
  const file = path.join(FIXTURES, "market.yaml");
  const definition = parseDefinition(file, readFileSync(file, "utf8"));
  if (definition.kind !== "market") throw new Error("not a market fixture");
  return checkMarket(file, definition, fixtureGeographies().controls);
}

/** Dimensions for generated markets: every axis with Foundation from 0 and Frontier from `frontier`. */
export function plainDimensions(frontier: number) {
  return Object.fromEntries(
    AXES.map((axis) => [
      axis,
      {
        name: axis,
        description: "d",
        bands: [
          { name: "Foundation", from: 0 },
          { name: "Frontier", from: frontier },
        ],
      },
    ]),
  );
}
