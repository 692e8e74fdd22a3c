/** Writes the OpenAPI document to a file (for linting and publishing): `tsx scripts/openapi.ts FILE`. */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildOpenApiDocument } from "../server/8-rest/openapi";

const file = process.argv[2] ?? "artifacts/openapi.json";
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(
  file,
  `${JSON.stringify(buildOpenApiDocument(process.env.APP_URL || "http://localhost:3000"), null, 2)}\n`,
);
console.log(`wrote ${file}`);
