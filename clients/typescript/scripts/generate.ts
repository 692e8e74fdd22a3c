/**
 * `npm run client:generate`: writes the client's types (src/openapi.ts) from the OpenAPI document
 * built from this repository's declarations — no running server needed.
 * `npm run client:generate -- --check` writes nothing and exits 1 when the committed file is not
 * what the declarations give now.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildOpenApiDocument } from "../../../server/8-rest/openapi";
import { GENERATED_FILE, GENERATION_ORIGIN, typesOfDocument } from "./types";

const generated = await typesOfDocument(buildOpenApiDocument(GENERATION_ORIGIN));
const shown = path.relative(process.cwd(), GENERATED_FILE);

if (process.argv.includes("--check")) {
  const committed = readFileSync(GENERATED_FILE, "utf8");
  if (committed !== generated) {
    console.error(`${shown} is not generated from the current OpenAPI document: run npm run client:generate`);
    process.exit(1);
  }
  console.log(`${shown} is current`);
} else {
  writeFileSync(GENERATED_FILE, generated);
  console.log(`wrote ${shown} (${Buffer.byteLength(generated)} bytes)`);
}
