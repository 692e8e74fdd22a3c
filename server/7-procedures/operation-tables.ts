/**
 * The docs' tables of operations, tools and prices, generated from the declarations: README.md
 * and docs/*.md hold them between `<!-- operations:NAME -->` and `<!-- /operations:NAME -->`,
 * `npm run docs:tables` rewrites them, and a test fails while any is stale. No price, tool or
 * reading list is written by hand.
 */
import type { z } from "zod";
import { type AnyDeclaration, hasEtag, operationOf } from "./declaration";
import { DECLARATIONS } from "./operations";

/** The names the published interface fixes (docs/fixed-names.json), to say which rows are chosen. */
export interface FixedNames {
  mcpTools: string[];
  restPaths: string[];
}

const code = (text: string) => `\`${text}\``;
const API = "/v1";

/** Path parameters are in the path; the query is every other input, `?` when optional. */
function queryOf(declaration: AnyDeclaration): string {
  const shape = (declaration.input as z.ZodObject).shape;
  const inPath = new Set([...declaration.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  const names = Object.entries(shape)
    .filter(([name]) => !inPath.has(name))
    .map(([name, schema]) => code(`${name}${(schema as z.ZodType).safeParse(undefined).success ? "?" : ""}`));
  return names.length ? names.join(", ") : "–";
}

/** Every input of a tool, `?` when optional. */
function toolInputOf(declaration: AnyDeclaration): string {
  const shape = (declaration.input as z.ZodObject).shape;
  const names = Object.entries(shape).map(([name, schema]) =>
    code(`${name}${(schema as z.ZodType).safeParse(undefined).success ? "?" : ""}`),
  );
  return names.length ? names.join(", ") : "–";
}

/** A markdown table, columns padded so the source reads as a table too. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length), 3));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

const caching = (declaration: AnyDeclaration) =>
  hasEtag(declaration.caching) ? "ETag, 304" : declaration.caching === "live" ? "revalidated" : "none";

/** Every table, by the name its markers carry. */
export function operationTables(fixed: FixedNames): Record<string, string> {
  const fixedPath = (d: AnyDeclaration) => fixed.restPaths.includes(`${API}${d.path}`);
  const fixedTool = (d: AnyDeclaration) => d.tool !== undefined && fixed.mcpTools.includes(d.tool.name);
  const withTools = DECLARATIONS.filter((d) => d.tool !== undefined);
  return {
    "rest-prices": markdownTable(
      ["Path", "Query", "Credits"],
      DECLARATIONS.map((d) => [code(`${API}${d.path}`), queryOf(d), String(d.credits)]),
    ),
    "rest-endpoints": markdownTable(
      ["Path", "Query", "Scope", "Credits", "Caching", "Fixed by the interface"],
      DECLARATIONS.map((d) => [
        code(`${API}${d.path}`),
        queryOf(d),
        d.scope ? code(d.scope) : "–",
        String(d.credits),
        caching(d),
        fixedPath(d) ? (d.scope ? "path, scope" : "path") : "nothing: chosen",
      ]),
    ),
    "mcp-tools": markdownTable(
      ["Tool", "Input", "REST twin", "Credits"],
      withTools.map((d) => [
        code(d.tool?.name ?? ""),
        toolInputOf(d),
        `${code(`GET ${API}${d.path}`)}${fixedTool(d) && fixedPath(d) ? "" : " (chosen)"}`,
        String(d.credits),
      ]),
    ),
    credits: markdownTable(
      ["Operation (its name in the ledger)", "REST", "MCP tool", "Credits"],
      DECLARATIONS.map((d) => [
        code(operationOf(d).name),
        code(`${API}${d.path}`),
        d.tool ? code(d.tool.name) : "–",
        String(d.credits),
      ]),
    ),
  };
}

const BLOCK = /<!-- operations:([a-z-]+) -->\n[\s\S]*?<!-- \/operations:\1 -->/g;

/** The text with every marked block replaced by its current table; unknown names are an error. */
export function withCurrentTables(text: string, tables: Record<string, string>): string {
  return text.replace(BLOCK, (_block, name: string) => {
    const table = tables[name];
    if (table === undefined) throw new Error(`no generated table named "${name}"`);
    return `<!-- operations:${name} -->\n${table}\n<!-- /operations:${name} -->`;
  });
}

/** The names of the blocks a text holds. */
export const tableBlocksIn = (text: string) => [...text.matchAll(BLOCK)].map((m) => m[1] as string);
