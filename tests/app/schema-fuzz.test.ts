/**
 * Every parameter of every operation, fuzzed from the schema the served OpenAPI document declares
 * for it: its bounds and one past them, its enum and a value outside it, strings its pattern
 * generates (fast-check) and strings it refuses, lengths at and past its maxLength. Over REST
 * and, for operations with a tool, over MCP with the same argument. Nothing may answer 5xx or an
 * internal_error; a value the schema refuses is the caller's 400 invalid_request on REST and a
 * tool error carrying invalid_request on MCP.
 */
import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { DECLARATIONS } from "@/server/7-procedures/operations";

const base = inject("appUrl");
const { schemaFuzz } = inject("accounts");
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

interface Schema {
  type?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  enum?: string[];
  format?: string;
}
interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema: Schema;
}
interface Document {
  paths: Record<string, { get: { parameters?: Parameter[] } }>;
}

/** A value to send, and whether the schema accepts it (null: it depends on how a query is read). */
interface Case {
  value: string;
  valid: boolean | null;
}

function integerCases({ minimum = 0, maximum = Number.MAX_SAFE_INTEGER }: Schema): Case[] {
  return [
    ...[minimum, maximum, Math.floor((minimum + maximum) / 2)].map((n) => ({ value: String(n), valid: true })),
    ...[minimum - 1, maximum + 1, 2 ** 31, 2 ** 53 + 2, -(2 ** 31) - 1].map((n) => ({
      value: String(n),
      valid: false,
    })),
    ...["1.5", "abc", "0x10", "NaN", "Infinity", "1".repeat(400)].map((value) => ({ value, valid: false })),
    { value: "1e3", valid: null },
  ];
}

function stringCases(schema: Schema): Case[] {
  if (schema.enum)
    return [
      ...schema.enum.map((value) => ({ value, valid: true })),
      { value: "not-one-of-them", valid: false },
      { value: `${schema.enum[0]}x`, valid: false },
    ];
  if (schema.format === "date-time")
    return [
      { value: "2026-11-01T00:00:00Z", valid: true },
      { value: "2000-01-01T00:00:00Z", valid: true },
      { value: "0001-01-01T00:00:00Z", valid: false },
      { value: "1999-12-31T23:59:59Z", valid: false },
      { value: "9999-12-31T23:59:59Z", valid: true },
      { value: "2026-13-01T00:00:00Z", valid: false },
      { value: "+275760-09-13T00:00:00Z", valid: false },
      { value: "yesterday", valid: false },
    ];
  const pattern = schema.pattern ? new RegExp(schema.pattern) : null;
  const generated = pattern
    ? fc.sample(fc.stringMatching(pattern, { size: "small" }), { seed: SEED, numRuns: 6 })
    : fc.sample(fc.string({ maxLength: 30 }), { seed: SEED, numRuns: 6 });
  const fits = (value: string) => (!pattern || pattern.test(value)) && value.length <= (schema.maxLength ?? Infinity);
  const cases: Case[] = generated.map((value) => ({ value, valid: fits(value) }));
  if (schema.maxLength !== undefined) {
    const filler = generated.find((v) => v.length > 0 && fits(v)) ?? "a";
    const long = filler.repeat(Math.ceil((schema.maxLength + 1) / filler.length));
    cases.push({ value: long.slice(0, schema.maxLength + 1), valid: false });
  }
  for (const value of ["<script>alert(1)</script>", "ÉÉ", "a\u0000b", "../../etc/passwd", "'; drop table x; --"])
    cases.push({ value, valid: fits(value) });
  return cases;
}

const casesOf = (schema: Schema): Case[] => (schema.type === "integer" ? integerCases(schema) : stringCases(schema));

/** A value the parameter accepts, so each call varies one parameter at a time. */
const SAFE: Record<string, string> = {
  marketId: "foundation-model-apis",
  productId: "quillmere-atlas",
  file: "snapshot.csv",
  weights: "reasoning-benchmark:2",
};

/** The argument an MCP tool gets for a query value: a number where the schema is an integer. */
const argument = (schema: Schema, value: string): unknown =>
  schema.type === "integer" && /^-?\d+$/.test(value) && Number.isFinite(Number(value)) ? Number(value) : value;

interface Outcome {
  where: string;
  status: number;
  code: string | null;
  valid: boolean | null;
  parameter: string;
}

async function restCall(path: string, parameters: Parameter[], varied: Parameter, value: string): Promise<Outcome> {
  let url = path;
  const query = new URLSearchParams();
  for (const parameter of parameters) {
    if (parameter.in === "header") continue;
    const chosen = parameter === varied ? value : SAFE[parameter.name];
    if (chosen === undefined) continue;
    if (parameter.in === "path") url = url.replace(`{${parameter.name}}`, encodeURIComponent(chosen));
    else query.set(parameter.name, chosen);
  }
  const search = query.toString();
  const response = await fetch(`${base}/v1${url}${search ? `?${search}` : ""}`, {
    headers: { Authorization: `Bearer ${schemaFuzz.token}` },
  });
  const body = await response.text();
  const code = response.status >= 400 ? ((JSON.parse(body) as { code?: string }).code ?? null) : null;
  return { where: `GET ${url}?${search}`, status: response.status, code, valid: null, parameter: varied.name };
}

async function toolCall(tool: string, parameters: Parameter[], varied: Parameter, value: string): Promise<Outcome> {
  const args: Record<string, unknown> = {};
  for (const parameter of parameters) {
    if (parameter.in === "header") continue;
    const chosen = parameter === varied ? value : SAFE[parameter.name];
    if (chosen !== undefined) args[parameter.name] = argument(parameter.schema, chosen);
  }
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${schemaFuzz.token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } }),
  });
  const text = await response.text();
  const json = text.startsWith("{") ? text : (text.match(/^data: (.*)$/m)?.[1] ?? "{}");
  const answer = JSON.parse(json) as {
    result?: { isError?: boolean; _meta?: { problem?: { code: string } }; content?: { text?: string }[] };
    error?: { data?: { code?: string } };
  };
  // Every tool error carries its problem, an argument the schema refuses included.
  const code = answer.result?.isError
    ? (answer.result._meta?.problem?.code ?? "unknown")
    : (answer.error?.data?.code ?? null);
  return {
    where: `${tool} ${JSON.stringify(args).slice(0, 200)}`,
    status: response.status,
    code,
    valid: null,
    parameter: varied.name,
  };
}

describe("every declared parameter, fuzzed from its declared schema", () => {
  it("never answers 5xx, and refuses what the schema refuses as invalid_request, on REST and MCP", async () => {
    const document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as Document;
    const outcomes: Outcome[] = [];
    for (const declaration of DECLARATIONS) {
      const parameters = document.paths[declaration.path]?.get.parameters ?? [];
      expect(parameters.length + (declaration.path.includes("{") ? 0 : 1), declaration.path).toBeGreaterThan(0);
      for (const varied of parameters.filter((p) => p.in !== "header")) {
        for (const { value, valid } of casesOf(varied.schema)) {
          outcomes.push({ ...(await restCall(declaration.path, parameters, varied, value)), valid });
          if (declaration.tool)
            outcomes.push({ ...(await toolCall(declaration.tool.name, parameters, varied, value)), valid });
        }
      }
    }
    console.log(`[schema-fuzz] seed ${SEED}: ${outcomes.length} calls over ${DECLARATIONS.length} operations`);
    const failures = outcomes.filter((o) => o.status >= 500 || o.code === "internal_error" || o.code === "unknown");
    expect(failures.map((o) => `${o.where} → ${o.status} ${o.code}`)).toEqual([]);
    const accepted = outcomes.filter((o) => o.valid === false && o.code !== "invalid_request");
    expect(accepted.map((o) => `${o.parameter}: ${o.where} → ${o.status} ${o.code}`)).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(500);
  }, 600_000);
});
