/**
 * Every public document agrees with the wire. For each declared operation, called with its
 * example over real HTTP: the price the answer charges (`X-Credits-Cost`) is the price in the
 * served OpenAPI document (its extension and its prose), in the MCP tool's description and its
 * result's `_meta`, in the docs' tables and on the dashboard's credits page; an ETag is declared
 * exactly when one is sent (and then a 304 is free); every method served is documented.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import Ajv2020 from "ajv/dist/2020";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { AnyDeclaration } from "@/server/7-procedures/declaration";
import { DECLARATIONS } from "@/server/7-procedures/operations";
import { dashboardCall } from "../helpers/dashboard";
import { examplePath } from "../helpers/examples";
import type { ToolResult } from "../helpers/mcp";

const base = inject("appUrl");
const { reader } = inject("accounts");
const auth = { Authorization: `Bearer ${reader.token}` };
const root = path.resolve(import.meta.dirname, "../..");
const interfaceDoc = readFileSync(path.join(root, "docs/interface.md"), "utf8");
const readme = readFileSync(path.join(root, "README.md"), "utf8");

type Json = Record<string, unknown>;
let document: { info: { description: string }; paths: Record<string, Record<string, Json>> };
let tools: { name: string; description?: string; outputSchema?: Record<string, unknown> }[];
let listedBytes: number;
let client: Client;
let prices: { operation: string; credits: number }[];

/** The REST URL of a declaration's example: path parameters in the path, the rest as the query. */
const exampleUrl = (declaration: AnyDeclaration) => `${base}/v1${examplePath(declaration)}`;

/** The cells of the markdown table row whose first cell is `first`. */
const row = (text: string, first: string) =>
  text
    .split("\n")
    .find((line) => line.startsWith(`| ${first} `))
    ?.split("|")
    .slice(1, -1)
    .map((cell) => cell.trim());

const priceSentence = (credits: number) =>
  credits === 0 ? "Free." : `Costs ${credits} credit${credits === 1 ? "" : "s"}.`;

beforeAll(async () => {
  document = await (await fetch(`${base}/v1/openapi.json`)).json();
  client = new Client({ name: "mps-wire-agreement", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: auth } }));
  const listed = await client.listTools();
  tools = listed.tools;
  listedBytes = Buffer.byteLength(JSON.stringify(listed));
  prices = ((await dashboardCall(base, reader.session, "credits.summary")).data as { prices: typeof prices }).prices;
});

afterAll(() => client?.close());

describe("tools/list", () => {
  it("is at most 24 kB (24,000 bytes): every agent pays for it on every connection", () => {
    console.log(`[mcp] tools/list: ${listedBytes} bytes for ${tools.length} tools`);
    expect(tools.length).toBe(DECLARATIONS.filter((d) => d.tool).length);
    expect(listedBytes).toBeLessThanOrEqual(24_000);
  });
});

describe.each(DECLARATIONS.map((d) => [`${d.group}.${d.name}`, d] as const))("%s", (name, declaration) => {
  let answer: Response;
  let cost: number;
  beforeAll(async () => {
    answer = await fetch(exampleUrl(declaration), { headers: auth });
    await answer.arrayBuffer();
    cost = Number(answer.headers.get("x-credits-cost"));
  });

  it("answers its example with 200 and a price", () => {
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-credits-cost")).toMatch(/^\d+$/);
  });

  it("costs what the OpenAPI document says, in its extension and its prose", () => {
    const get = document.paths[declaration.path]?.get;
    expect(get?.["x-credits"]).toBe(cost);
    expect(String(get?.description)).toMatch(new RegExp(`${priceSentence(cost).replace(".", "\\.")}$`));
    if (cost > 0) expect(document.info.description).toContain(`${declaration.name} ${cost}`);
  });

  it("costs what the docs' tables and the credits page say", () => {
    expect(row(interfaceDoc, `\`/v1${declaration.path}\``)?.[3]).toBe(String(cost));
    expect(row(readme, `\`/v1${declaration.path}\``)?.[2]).toBe(String(cost));
    expect(row(interfaceDoc, `\`${name}\``)?.[3]).toBe(String(cost));
    expect(prices.find((p) => p.operation === name)?.credits).toBe(cost);
  });

  it("costs what its MCP tool says and charges", async () => {
    if (!declaration.tool) {
      expect(tools.map((t) => t.name)).not.toContain(`service_${declaration.group}_${declaration.name}`);
      return;
    }
    const tool = tools.find((t) => t.name === declaration.tool?.name);
    expect(tool?.description?.endsWith(priceSentence(cost))).toBe(true);
    const result = (await client.callTool({
      name: declaration.tool.name,
      arguments: declaration.example as Record<string, unknown>,
    })) as ToolResult;
    expect(result.isError ?? false).toBe(false);
    expect(result._meta?.credits?.cost).toBe(cost);
    // The outline tools/list gives of its output is one the result meets.
    const validate = new Ajv2020({ strict: false }).compile(tool?.outputSchema ?? {});
    expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);
  });

  it("sends an ETag exactly when the document declares one, and then answers 304 for free", async () => {
    const get = document.paths[declaration.path]?.get as { responses: Record<string, { headers?: Json }> };
    const declared = Boolean(get.responses["200"]?.headers?.ETag);
    const etag = answer.headers.get("etag");
    expect(etag !== null).toBe(declared);
    expect(Boolean(get.responses["304"])).toBe(declared);
    if (!etag) return;
    const again = await fetch(exampleUrl(declaration), { headers: { ...auth, "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("x-credits-cost")).toBe("0");
  });

  it("documents every method it serves", async () => {
    const options = await fetch(exampleUrl(declaration), { method: "OPTIONS", headers: auth });
    const allowed = (options.headers.get("allow") ?? "").split(/,\s*/).filter(Boolean);
    expect(allowed.length).toBeGreaterThan(0);
    const documented = Object.keys(document.paths[declaration.path] ?? {}).map((m) => m.toUpperCase());
    for (const method of allowed) expect(documented, method).toContain(method);
    const head = await fetch(exampleUrl(declaration), { method: "HEAD", headers: auth });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-credits-cost")).toBe(String(cost));
    expect(await head.text()).toBe("");
  });
});
