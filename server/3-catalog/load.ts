import { readFile } from "node:fs/promises";
import { CatalogFileError, parseDefinition } from "../1-domain/definition-checks";
import type { DefinitionFile } from "../1-domain/market-definition";

/** Reads and structurally checks one catalogue file (YAML or JSON). */
export async function loadDefinitionFile(file: string): Promise<DefinitionFile> {
  let source: string;
  try {
    source = await readFile(file, "utf8");
  } catch (error) {
    throw new CatalogFileError(file, [{ path: [], message: `cannot read the file: ${(error as Error).message}` }]);
  }
  return parseDefinition(file, source);
}
