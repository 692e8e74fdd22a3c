/**
 * Each operation is declared once (server/7-procedures/operations/) and everything else is derived:
 * the procedure, the OpenAPI operation (price, ETag, HEAD), the MCP tool, the docs tables and the
 * docs paragraph. Adding a reading is its compute module, its declaration, a dashboard figure and
 * a doc paragraph; whatever else it needed and was forgotten fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeOperation, priceSentence } from "@/server/1-domain/operations";
import { hasEtag, isDownload, operationOf } from "@/server/7-procedures/declaration";
import { operationTables, tableBlocksIn, withCurrentTables } from "@/server/7-procedures/operation-tables";
import { DECLARATIONS, DECLARED } from "@/server/7-procedures/operations";
import { procedureMetas } from "@/server/7-routers/root";
import { TOOLS } from "@/server/8-mcp/tools";
import { buildOpenApiDocument } from "@/server/8-rest/openapi";
import { FIXED_NAMES } from "../helpers/spec";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const document = buildOpenApiDocument("https://api.example.org");
type Json = Record<string, unknown>;
const openApiOperation = (p: string, method: "get" | "head") =>
  (document.paths?.[p] as Json | undefined)?.[method] as
    | (Json & { responses: Record<string, Json & { headers?: Json }>; parameters?: Json[] })
    | undefined;

describe("the declarations", () => {
  it("list every declaration file of the folder (a file left out of the list is never served)", () => {
    const helpers = new Set(["index.ts", "declared.ts", "text.ts", "snapshot-html.ts"]);
    const files = readdirSync(path.join(root, "server/7-procedures/operations")).filter(
      (f) => f.endsWith(".ts") && !helpers.has(f),
    );
    const listed = new Set(Object.keys(DECLARED));
    for (const file of files) {
      const source = read(`server/7-procedures/operations/${file}`);
      const exported = [...source.matchAll(/export const (\w+) = declare(?:Live|Reading|Download)\(/g)].map(
        (m) => m[1],
      );
      expect(exported.length, file).toBe(1);
      expect(listed.has(exported[0] as string), `${file} is not in declared.ts`).toBe(true);
    }
    expect(files).toHaveLength(DECLARATIONS.length);
  });

  it("name each operation, path and tool once", () => {
    const names = DECLARATIONS.map((d) => operationOf(d).name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(DECLARATIONS.map((d) => d.path)).size).toBe(DECLARATIONS.length);
    const tools = DECLARATIONS.flatMap((d) => (d.tool ? [d.tool.name] : []));
    expect(new Set(tools).size).toBe(tools.length);
  });

  it("keep prices out of the words the price sentence is added to", () => {
    for (const d of DECLARATIONS) {
      expect(d.description, d.name).not.toMatch(/credit|Free\./);
      expect(d.tool?.addendum ?? "", d.name).not.toMatch(/credit|Free\./);
    }
  });

  it("give an example each, valid against its input", () => {
    for (const d of DECLARATIONS) expect(d.input.safeParse(d.example).success, d.name).toBe(true);
  });

  it("serve each as the procedure <group>.<name>, with the declared operation", () => {
    for (const d of DECLARATIONS) {
      const meta = procedureMetas.find((m) => m.operation?.name === `${d.group}.${d.name}`);
      expect(meta?.operation, d.name).toEqual(operationOf(d));
      expect(meta?.openapi?.path, d.name).toBe(d.path);
    }
    const declaredNames = new Set(DECLARATIONS.map((d) => `${d.group}.${d.name}`));
    for (const meta of procedureMetas)
      if (meta.operation) expect(declaredNames.has(meta.operation.name), meta.operation.name).toBe(true);
  });
});

describe("the OpenAPI document", () => {
  it("has every operation at its path for GET and HEAD, with its summary, priced description and x-credits", () => {
    for (const d of DECLARATIONS) {
      for (const method of ["get", "head"] as const) {
        const entry = openApiOperation(d.path, method);
        expect(entry, `${method} ${d.path}`).toBeDefined();
        expect(entry?.["x-credits"]).toBe(d.credits);
        expect(String(entry?.description)).toContain(priceSentence(d.credits));
      }
      expect(openApiOperation(d.path, "get")?.summary).toBe(d.summary);
      expect(openApiOperation(d.path, "get")?.description).toBe(describeOperation(operationOf(d)));
    }
  });

  it("states every price in its prose, and no price the declarations do not have", () => {
    const prose = String(document.info.description);
    for (const d of DECLARATIONS.filter((x) => x.credits > 0)) expect(prose).toContain(`${d.name} ${d.credits}`);
    const stated = [...prose.matchAll(/(\w+) (\d+)[,;]/g)].map((m) => `${m[1]} ${m[2]}`);
    const declared = new Set(DECLARATIONS.map((d) => `${d.name} ${d.credits}`));
    for (const price of stated) expect(declared.has(price), price).toBe(true);
  });

  it("declares an ETag, If-None-Match and a 304 exactly where the reading caches", () => {
    for (const d of DECLARATIONS) {
      const entry = openApiOperation(d.path, "get");
      const etag = hasEtag(d.caching);
      expect(Boolean(entry?.responses["200"]?.headers?.ETag), d.name).toBe(etag);
      expect(Boolean(entry?.responses["304"]), d.name).toBe(etag);
      expect(
        (entry?.parameters ?? []).some((p) => p.in === "header" && p.name === "If-None-Match"),
        d.name,
      ).toBe(etag);
    }
  });

  it("has no path the declarations do not know", () => {
    const known = new Set<string>(DECLARATIONS.map((d) => d.path));
    for (const p of Object.keys(document.paths ?? {})) if (p !== "/openapi.json") expect(known.has(p), p).toBe(true);
  });
});

describe("the MCP tools", () => {
  it("are the declared tools, each described by its operation and ending with its price", () => {
    expect(TOOLS.map((t) => t.name)).toEqual(DECLARATIONS.flatMap((d) => (d.tool ? [d.tool.name] : [])));
    for (const d of DECLARATIONS) {
      if (!d.tool) continue;
      const tool = TOOLS.find((t) => t.name === d.tool?.name);
      expect(tool?.description).toBe(describeOperation(operationOf(d), d.tool.addendum));
      expect(tool?.description.endsWith(` ${priceSentence(d.credits)}`), d.name).toBe(true);
      expect(tool?.title).toBe(d.tool.title ?? d.summary);
    }
  });

  it("name, for an argument they do not take, a tool that takes it and not themselves", () => {
    for (const tool of TOOLS)
      for (const [argument, other] of Object.entries(tool.instead ?? {})) {
        expect(Object.hasOwn(tool.input.shape, argument), `${tool.name} takes ${argument}`).toBe(false);
        const named = TOOLS.find((t) => t.name === other);
        expect(named && Object.hasOwn(named.input.shape, argument), `${other} takes ${argument}`).toBe(true);
      }
  });

  it("say so when they need Market.Read.All, and take no argument they do not declare", () => {
    for (const tool of TOOLS) {
      expect(tool.description.includes("Needs Market.Read.All."), tool.name).toBe(tool.operation.scope !== null);
      expect(tool.input.safeParse({ stray: 1 }).success, tool.name).toBe(false);
    }
  });

  it("cover every metered operation that answers JSON (a file is REST's alone: MCP results are held to a token budget)", () => {
    for (const d of DECLARATIONS.filter((x) => x.credits > 0)) expect(Boolean(d.tool), d.name).toBe(!isDownload(d));
  });
});

describe("the docs", () => {
  const files = [
    "README.md",
    ...readdirSync(path.join(root, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const tables = operationTables(FIXED_NAMES);

  it("hold every generated table as the declarations make it (npm run docs:tables rewrites them)", () => {
    let blocks = 0;
    for (const file of files) {
      const text = read(file);
      blocks += tableBlocksIn(text).length;
      expect(withCurrentTables(text, tables), `${file}: run npm run docs:tables`).toBe(text);
    }
    expect(blocks).toBeGreaterThanOrEqual(Object.keys(tables).length);
  });

  it("give every operation its paragraph in docs/interface.md", () => {
    const interfaceDoc = read("docs/interface.md");
    for (const d of DECLARATIONS)
      expect(interfaceDoc, d.name).toMatch(
        new RegExp(`^### [^\\n]*\`/v1${d.path.replace(/[{}]/g, "\\$&")}\`${d.tool ? `, \`${d.tool.name}\`` : ""}`, "m"),
      );
  });

  it("state no price list, tool count or reading count by hand", () => {
    for (const file of files) {
      const text = read(file);
      expect(text, file).not.toMatch(/\b(six|seven|eight|nine|ten) tools\b/i);
      expect(text, file).not.toMatch(/snapshot 5, servicemax 3/);
      expect(text, file).not.toMatch(/everything else 0/);
    }
  });
});
