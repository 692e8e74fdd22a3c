/**
 * The contract, answer by answer: every operation with its declared example, and for every reading
 * of every product a matrix of its documented narrowing parameters (limit, a cursor a page gave,
 * productIds, fields alone and with the rest, countries), called over REST and as its MCP tool.
 * Each REST answer must validate against the served OpenAPI document (Ajv, JSON Schema 2020-12);
 * each tool's structuredContent against the same document's schema for that operation, and
 * against the output schema tools/list gives for the tool. A documented parameter yields a
 * documented answer, on both surfaces.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DECLARATIONS } from "@/server/7-procedures/operations";
import { type CheckedResponse, responseValidator } from "../helpers/openapi-validator";

const base = inject("appUrl");
const { schemaFuzz } = inject("accounts");

// biome-ignore lint/suspicious/noExplicitAny: walking JSON documents
type Json = Record<string, any>;

let document: Json;
let validate: ReturnType<typeof responseValidator>;
let client: Client;
let toolSchemas: Map<string, Json>;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as Json;
  validate = responseValidator(document);
  ajv.addSchema(document, "openapi");
  client = new Client({ name: "mps-contract", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${schemaFuzz.token}` } },
    }),
  );
  const { tools } = await client.listTools();
  toolSchemas = new Map(tools.map((tool) => [tool.name, tool.outputSchema as Json]));
});
afterAll(() => client?.close());

const query = (args: Record<string, unknown>, path: string) =>
  new URLSearchParams(
    Object.entries(args)
      .filter(([key, value]) => value !== undefined && !path.includes(`{${key}}`))
      .map(([key, value]) => [key, String(value)]),
  ).toString();

async function rest(path: string, args: Record<string, unknown>): Promise<CheckedResponse> {
  const url = path.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(String(args[key])));
  const search = query(args, path);
  const response = await fetch(`${base}/v1${url}${search ? `?${search}` : ""}`, {
    headers: { Authorization: `Bearer ${schemaFuzz.token}` },
  });
  const text = await response.text();
  const json = /json/.test(response.headers.get("content-type") ?? "");
  return { status: response.status, headers: response.headers, text, body: json && text ? JSON.parse(text) : null };
}

/** The combinations of narrowing parameters a reading of every product documents, beside its example. */
function matrix(example: Record<string, unknown>, inputKeys: string[], sample: Json): Record<string, unknown>[] {
  const products = (sample.products ?? sample.capabilityIndex?.products ?? sample.max?.products ?? []) as Json[];
  const ids = products.slice(0, 2).map((p) => p.productId as string);
  const field = Object.keys(products[0] ?? {}).find((key) => !["productId", "name"].includes(key));
  const combos: Record<string, unknown>[] = [example];
  if (inputKeys.includes("limit")) combos.push({ ...example, limit: 2 });
  if (inputKeys.includes("productIds") && ids.length) combos.push({ ...example, productIds: ids.join(",") });
  if (inputKeys.includes("fields") && field) {
    combos.push({ ...example, fields: field });
    combos.push({ ...example, fields: field, limit: 2 });
    if (ids.length) combos.push({ ...example, fields: `${field},productId`, productIds: ids.join(",") });
  }
  if (inputKeys.includes("countries")) combos.push({ ...example, countries: "FR,DE", limit: 3 });
  return combos;
}

describe("every documented parameter yields a documented answer", () => {
  it("over REST and MCP, for every operation and its narrowing matrix", async () => {
    let checked = 0;
    let sparse = 0;
    for (const declaration of DECLARATIONS) {
      const example = declaration.example as Record<string, unknown>;
      const inputKeys = Object.keys(declaration.input.shape);
      const first = await rest(declaration.path, example);
      expect(first.status, `${declaration.path} ${JSON.stringify(example)}`).toBe(200);
      const combos =
        "narrowing" in declaration && declaration.narrowing ? matrix(example, inputKeys, first.body) : [example];
      for (const args of combos) {
        // Page two: the cursor the first page gave.
        const runs = [args];
        if (args.limit !== undefined) {
          const page = await rest(declaration.path, args);
          const cursor = page.body?.page?.nextCursor as string | null | undefined;
          if (cursor) runs.push({ ...args, cursor });
        }
        for (const run of runs) {
          const answer = await rest(declaration.path, run);
          const what = `${declaration.path} ${JSON.stringify(run)}`;
          expect(answer.status, what).toBe(200);
          expect(
            () =>
              validate(
                "GET",
                declaration.path.replace(/\{(\w+)\}/g, (_, k: string) => String(run[k])),
                answer,
              ),
            what,
          ).not.toThrow();
          if (run.fields !== undefined) {
            sparse += 1;
            expect(answer.body.fields, what).toEqual(expect.arrayContaining(["productId", "name"]));
          }
          checked += 1;
          if (!declaration.tool) continue;
          const result = (await client.callTool({ name: declaration.tool.name, arguments: run })) as {
            isError?: boolean;
            structuredContent?: Json;
          };
          expect(result.isError ?? false, `${declaration.tool.name} ${JSON.stringify(run)}`).toBe(false);
          const structured = result.structuredContent as Json;
          const pointer = `openapi#/paths/${declaration.path.replace(/~/g, "~0").replace(/\//g, "~1")}/get/responses/200/content/application~1json/schema`;
          expect(
            ajv.validate({ $ref: pointer }, structured),
            `${declaration.tool.name} vs the document: ${ajv.errorsText()}`,
          ).toBe(true);
          const outline = toolSchemas.get(declaration.tool.name);
          expect(outline, declaration.tool.name).toBeDefined();
          expect(
            ajv.validate(outline as Json, structured),
            `${declaration.tool.name} vs its outputSchema: ${ajv.errorsText()}`,
          ).toBe(true);
          checked += 1;
        }
      }
    }
    console.log(`[contract] ${checked} answers validated, ${sparse} of them sparse`);
    expect(sparse).toBeGreaterThan(10);
  }, 300_000);

  it("declares the sparse answer as a variant of its own, which a complete answer does not match", async () => {
    const snapshot = await rest("/markets/{marketId}/snapshot", { marketId: "foundation-model-apis" });
    const schema =
      document.paths["/markets/{marketId}/snapshot"].get.responses["200"].content["application/json"].schema;
    expect(JSON.stringify(schema)).toContain("SparseSnapshot");
    expect(ajv.validate({ $ref: "openapi#/components/schemas/SparseSnapshot" }, snapshot.body)).toBe(false);
    const narrowed = await rest("/markets/{marketId}/snapshot", {
      marketId: "foundation-model-apis",
      fields: "scores",
    });
    expect(ajv.validate({ $ref: "openapi#/components/schemas/Snapshot" }, narrowed.body)).toBe(false);
    expect(ajv.validate({ $ref: "openapi#/components/schemas/SparseSnapshot" }, narrowed.body)).toBe(true);
    expect(Object.keys(narrowed.body.products[0]).sort()).toEqual(["name", "productId", "scores"]);
  });
});
