/**
 * Each operation's price and words are written once (server/domain/operations.ts): the OpenAPI
 * document and the MCP tools must say the same, and every priced text must carry the right price.
 */
import { describe, expect, it } from "vitest";
import { describeOperation, OPERATIONS, priceSentence } from "@/server/domain/operations";
import { TOOLS } from "@/server/mcp/tools";
import { buildOpenApiDocument } from "@/server/rest/openapi";

const document = buildOpenApiDocument("https://api.example.org");
const operations = Object.values(OPERATIONS);

describe("the operation table", () => {
  it("names each operation and path once", () => {
    expect(new Set(operations.map((o) => o.name)).size).toBe(operations.length);
    expect(new Set(operations.map((o) => o.path)).size).toBe(operations.length);
  });

  it("says a price one way", () => {
    expect(priceSentence(0)).toBe("Free.");
    expect(priceSentence(1)).toBe("Costs 1 credit.");
    expect(priceSentence(5)).toBe("Costs 5 credits.");
  });

  it("keeps prices out of the descriptions it derives them into", () => {
    for (const operation of operations) expect(operation.description, operation.name).not.toMatch(/credit|Free\./);
  });
});

describe("the OpenAPI document", () => {
  it("has every operation at its path, with the table's summary and priced description", () => {
    for (const operation of operations) {
      const entry = document.paths?.[operation.path]?.get;
      expect(entry, operation.path).toBeDefined();
      expect(entry?.summary).toBe(operation.summary);
      expect(entry?.description).toBe(`${operation.description} ${priceSentence(operation.credits)}`);
    }
  });

  it("has no GET the table does not know", () => {
    const paths = Object.entries(document.paths ?? {}).filter(([, item]) => item?.get);
    const known = new Set<string>(operations.map((o) => o.path));
    for (const [path] of paths) if (path !== "/openapi.json") expect(known.has(path), path).toBe(true);
  });
});

describe("the MCP tools", () => {
  it("describe each operation as the table does, ending with its price", () => {
    for (const tool of TOOLS) {
      expect(tool.description.startsWith(tool.operation.description), tool.name).toBe(true);
      expect(tool.description.endsWith(` ${priceSentence(tool.operation.credits)}`), tool.name).toBe(true);
    }
  });

  it("add to the table's words only what is the tool's own", () => {
    const snapshotTool = TOOLS.find((tool) => tool.name === "service_market_get_snapshot");
    expect(snapshotTool?.description).toBe(
      describeOperation(
        OPERATIONS.snapshot,
        "Also returns the snapshot as a readable HTML table (resource ui://service/snapshot/{marketId}).",
      ),
    );
    const others = TOOLS.filter((tool) => tool !== snapshotTool);
    for (const tool of others) expect(tool.description, tool.name).toBe(describeOperation(tool.operation));
  });

  it("cover every metered operation", () => {
    const metered = operations.filter((o) => o.credits > 0).map((o) => o.name);
    expect(TOOLS.map((t) => t.operation.name)).toEqual(expect.arrayContaining(metered));
  });
});
