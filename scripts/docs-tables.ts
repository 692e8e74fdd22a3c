/**
 * Rewrites the generated tables of operations, tools and prices in README.md and docs/*.md from
 * the declarations (server/7-procedures/operation-tables.ts). `--check` writes nothing and exits 1
 * when a table is stale (the unit suite checks the same).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { operationTables, tableBlocksIn, withCurrentTables } from "../server/7-procedures/operation-tables";

const root = path.resolve(import.meta.dirname, "..");
const check = process.argv.includes("--check");
const fixed = JSON.parse(readFileSync(path.join(root, "docs/fixed-names.json"), "utf8"));
const tables = operationTables(fixed);
const files = [
  "README.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

let stale = 0;
for (const file of files) {
  const text = readFileSync(path.join(root, file), "utf8");
  if (tableBlocksIn(text).length === 0) continue;
  const current = withCurrentTables(text, tables);
  if (current === text) continue;
  stale++;
  if (check) console.error(`${file}: a generated table is stale; run npm run docs:tables`);
  else {
    writeFileSync(path.join(root, file), current);
    console.log(`${file}: tables rewritten`);
  }
}
process.exit(check && stale > 0 ? 1 : 0);
