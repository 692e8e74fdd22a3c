/**
 * An error tells the caller where to find what it lacked, in the terms of the surface it called:
 * REST names a path, MCP names a tool (an agent on MCP has no REST). Over real HTTP and through the
 * MCP SDK client, for an unknown country, market and product; an unknown release says which
 * releases there are. Expected wording is built from the declarations' paths and tool names.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DECLARED } from "@/server/7-procedures/operations";
import { callToolWithToken, type ToolResult } from "../helpers/mcp";

const base = inject("appUrl");
const { reader } = inject("accounts");
const MARKET = "foundation-model-apis";

async function rest(pathAndQuery: string): Promise<{ status: number; code: string; detail: string }> {
  const response = await fetch(`${base}/v1${pathAndQuery}`, { headers: { Authorization: `Bearer ${reader.token}` } });
  const body = (await response.json()) as { code: string; detail: string };
  return { status: response.status, code: body.code, detail: body.detail };
}

async function tool(name: string, args: Record<string, unknown>): Promise<{ code: string; detail: string }> {
  const result: ToolResult = await callToolWithToken(base, reader.token, name, args);
  expect(result.isError, JSON.stringify(result)).toBe(true);
  const problem = result._meta?.problem as { code: string; detail: string };
  // The text the model reads is the same problem body.
  expect(JSON.parse(result.content[0]?.text ?? "{}").detail).toBe(problem.detail);
  return problem;
}

const restName = (d: { path: string }) => `GET /v1${d.path}`;
const toolName = (d: { tool?: { name: string } }) => `The tool ${d.tool?.name}`;
/** A declaration's tool name; every declaration these tests call has one. */
function toolOf(d: { tool?: { name: string } }): string {
  if (!d.tool) throw new Error("no tool declared");
  return d.tool.name;
}

describe("errors point to the operation that answers, in each surface's terms", () => {
  let latest: number;
  beforeAll(async () => {
    const response = await fetch(`${base}/v1/markets/${MARKET}/changelog`, {
      headers: { Authorization: `Bearer ${reader.token}` },
    });
    latest = ((await response.json()) as { releases: { release: number }[] }).releases[0]?.release ?? 0;
    expect(latest).toBeGreaterThan(1);
  });
  afterAll(() => undefined);

  it("an unknown country: GET /v1/geographies on REST, service_geographies_list on MCP", async () => {
    const onRest = await rest(`/markets/${MARKET}/servicemax?country=ZZ`);
    expect(onRest).toMatchObject({ status: 400, code: "invalid_request" });
    expect(onRest.detail).toContain(`${restName(DECLARED.geographiesList)} lists the valid countries.`);
    expect(onRest.detail).not.toMatch(/service_/);
    const onMcp = await tool(toolOf(DECLARED.servicemax), { marketId: MARKET, country: "ZZ" });
    expect(onMcp.code).toBe("invalid_request");
    expect(onMcp.detail).toContain(`${toolName(DECLARED.geographiesList)} lists the valid countries.`);
    expect(onMcp.detail).not.toMatch(/\/v1|GET /);
  });

  it("an unknown market: the markets list, by path or by tool", async () => {
    const onRest = await rest(`/markets/no-such-market/snapshot`);
    expect(onRest).toMatchObject({ status: 404, code: "not_found" });
    expect(onRest.detail).toContain(restName(DECLARED.marketsList));
    const onMcp = await tool(toolOf(DECLARED.snapshot), { marketId: "no-such-market" });
    expect(onMcp.code).toBe("not_found");
    expect(onMcp.detail).toContain(toolName(DECLARED.marketsList));
    expect(onMcp.detail).not.toMatch(/\/v1|GET /);
  });

  it("an unknown product: the market's products list (free), by path or by tool", async () => {
    const onRest = await rest(`/markets/${MARKET}/products/no-such-product`);
    expect(onRest).toMatchObject({ status: 404, code: "not_found" });
    expect(onRest.detail).toContain(`${restName(DECLARED.products)} lists the market's products`);
    const onMcp = await tool(toolOf(DECLARED.product), { marketId: MARKET, productId: "no-such-product" });
    expect(onMcp.detail).toContain(`${toolName(DECLARED.products)} lists the market's products`);
    expect(onMcp.detail).not.toMatch(/\/v1|GET /);
  });

  it("an unknown release says which releases the market has", async () => {
    const onRest = await rest(`/markets/${MARKET}/snapshot?release=${latest + 5}`);
    expect(onRest).toMatchObject({ status: 404, code: "not_found" });
    expect(onRest.detail).toBe(`Market "${MARKET}" has no release ${latest + 5}: its releases are 1 to ${latest}.`);
    const onMcp = await tool(toolOf(DECLARED.snapshot), { marketId: MARKET, release: latest + 5 });
    expect(onMcp.detail).toBe(onRest.detail);
  });
});

describe("the terms, defined once when an agent connects", () => {
  it("sends instructions that name real tools and define every term the tools use", async () => {
    const client = new Client({ name: "mps-tests", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${reader.token}` } },
      }),
    );
    try {
      const instructions = client.getInstructions() ?? "";
      const { tools } = await client.listTools();
      const served = new Set(tools.map((t) => t.name));
      const named = [...instructions.matchAll(/service_[a-z_]+/g)].map((m) => m[0]);
      expect(named.length).toBeGreaterThanOrEqual(3);
      expect(named.filter((name) => !served.has(name))).toEqual([]);
      for (const term of [
        "Innovation (I)",
        "Band",
        "Not settled",
        "unavailable",
        "Capability Index",
        "Max",
        "Delta",
        "Distance",
        "SEAL level",
        "Gates (minSeal, requireControls)",
        "Rank odds",
        "tie group",
        "Restated",
      ])
        expect(instructions, term).toContain(term);
      // Defined there, not again in every tool: no description repeats the band-settling rule.
      expect(tools.filter((t) => (t.description ?? "").includes("95% of the sensitivity")).map((t) => t.name)).toEqual(
        [],
      );
    } finally {
      await client.close();
    }
  });
});
