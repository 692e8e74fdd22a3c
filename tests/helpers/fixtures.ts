/** Loads the catalogue fixtures of tests/fixtures as typed, checked definitions. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { checkGeographies, checkMarket, parseDefinition } from "@/server/1-domain/definition-checks";
import { AXES, type GeographiesFile, type MarketFile } from "@/server/1-domain/market-definition";

export const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");
/** The throwaway CA the app under test trusts, and the loopback server certificate it issued. */
export const TEST_CA_FILE = path.join(FIXTURES, "tls", "ca.pem");
export const TEST_TLS = {
  cert: path.join(FIXTURES, "tls", "server.pem"),
  key: path.join(FIXTURES, "tls", "server-key.pem"),
};

export function fixtureGeographies(): GeographiesFile {
  const file = path.join(FIXTURES, "geographies.yaml");
  const definition = parseDefinition(file, readFileSync(file, "utf8"));
  if (definition.kind !== "geographies") throw new Error("not a geographies fixture");
  return checkGeographies(file, definition);
}

/** A market fixture: `market.yaml` (hand-computed scores) or `rules.yaml` (the edge rules of docs/methodology.md). */
export function fixtureMarket(name = "market.yaml"): MarketFile {
  const file = path.join(FIXTURES, name);
  const definition = parseDefinition(file, readFileSync(file, "utf8"));
  if (definition.kind !== "market") throw new Error("not a market fixture");
  return checkMarket(file, definition, fixtureGeographies().controls);
}

/** The fixture geographies and XE, which engages all three controls, listed backwards. */
export function rulesGeographies(): GeographiesFile {
  const fixture = fixtureGeographies();
  const everything = ["eu-resident-ops", "eu-data-residency", "customer-held-keys"];
  return {
    ...fixture,
    geographies: [...fixture.geographies, { country: "XE", name: "All three", controls: everything }],
  };
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
