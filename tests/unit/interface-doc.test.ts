/**
 * docs/fixed-names.json (the names the published interface fixes) against what the code serves,
 * and docs/interface.md against both: a renamed tool or path, or a changed price, fails here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { procedureMetas } from "@/server/7-routers/root";
import { TOOLS } from "@/server/8-mcp/tools";
import { API_PREFIX } from "@/server/8-rest/routes";
import { FIXED_NAMES, SPEC_TOOL_NAMES } from "../helpers/spec";

const interfaceDoc = readFileSync(path.resolve(import.meta.dirname, "../../docs/interface.md"), "utf8");

/** Every REST route a procedure serves: its /v1 path, method and price. */
const served = procedureMetas.flatMap(({ openapi, operation }) =>
  openapi && operation
    ? [{ path: `${API_PREFIX}${openapi.path}`, method: openapi.method, credits: operation.credits }]
    : [],
);
const servedAt = (restPath: string) => served.find((route) => route.path === restPath);

/** The cells of the table row of docs/interface.md whose first cell is `name`. */
const docRow = (name: string) =>
  interfaceDoc
    .split("\n")
    .find((line) => line.startsWith(`| \`${name}\` `))
    ?.split("|")
    .slice(1, -1)
    .map((cell) => cell.trim());

describe("docs/fixed-names.json", () => {
  it("lists each name once", () => {
    expect(new Set(FIXED_NAMES.mcpTools).size).toBe(FIXED_NAMES.mcpTools.length);
    expect(new Set(FIXED_NAMES.restPaths).size).toBe(FIXED_NAMES.restPaths.length);
    expect(SPEC_TOOL_NAMES).toHaveLength(6);
  });

  it("names MCP tools the server registers; the others are ours, marked chosen in docs/interface.md", () => {
    const registered = TOOLS.map((tool) => tool.name);
    expect(registered).toEqual(expect.arrayContaining(SPEC_TOOL_NAMES));
    for (const name of registered.filter((tool) => !SPEC_TOOL_NAMES.includes(tool)))
      expect(docRow(name)?.[2], name).toContain("(chosen)");
  });

  it("names only REST paths a procedure serves, for GET", () => {
    for (const restPath of FIXED_NAMES.restPaths) expect(servedAt(restPath)?.method, restPath).toBe("GET");
  });
});

describe("docs/interface.md", () => {
  it("has a row for every fixed MCP tool and every fixed REST path", () => {
    for (const name of [...FIXED_NAMES.mcpTools, ...FIXED_NAMES.restPaths]) expect(docRow(name), name).toBeDefined();
  });

  it("gives every served path its price from the code", () => {
    for (const route of served) expect(docRow(route.path)?.[3], route.path).toBe(String(route.credits));
  });

  it("gives every tool its REST twin and that twin's price", () => {
    for (const tool of TOOLS) {
      const rest = `${API_PREFIX}${tool.operation.path}`;
      const twin = servedAt(rest);
      expect(twin, tool.name).toBeDefined();
      const row = docRow(tool.name);
      expect(row?.[2], tool.name).toContain(`\`GET ${rest}\``);
      expect(row?.[3], tool.name).toBe(String(twin?.credits));
    }
  });
});
