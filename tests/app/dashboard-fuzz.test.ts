/**
 * Every dashboard procedure of the router, called over HTTP at /api/trpc with a session cookie and
 * hostile input: an input valid in every field but one, that one replaced by a huge or negative
 * number, a fraction, the wrong type, a long or quoting string, or another organization's ids;
 * and whole inputs of the wrong shape. No answer may carry what only the server should know: SQL
 * text or parameters, a database's name, a stack frame or a source path. Every failure is the
 * documented problem with a stable code, and none is the service's own failure (5xx).
 */
import { describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { appRouter } from "@/server/7-routers/root";
import { SESSION_COOKIE } from "../helpers/accounts";

const base = inject("appUrl");
const { dashboardFuzz, victim } = inject("accounts");

/** What only the server should know: SQL and its parameters, the database, stack frames, sources. */
const LEAKS = [
  /\bselect\b[\s\S]{0,200}\bfrom\b/i,
  /insert into|update \S+ set|delete from|params:|syntax error|violates|postgres|pglite|drizzle/i,
  /\bat .*\(.*:\d+:\d+\)|node_modules|\.ts:\d+/,
];

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  exclusiveMinimum?: number;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  format?: string;
}

/** Values that pass a field's own checks, by its name where its type says too little. */
const NAMED: Record<string, unknown> = {
  marketId: "foundation-model-apis",
  productId: "quillmere-atlas",
  country: "FR",
  homeCountry: "FR",
  email: "fuzzed@example.com",
  url: "https://hooks.example.com/fuzz",
  name: "Fuzzed",
  release: 1,
};

function validValue(name: string, schema: JsonSchema): unknown {
  if (name in NAMED) return NAMED[name];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return validValue(name, schema.anyOf.find((s) => s.type !== "null") ?? {});
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "integer" || type === "number") return schema.minimum ?? (schema.exclusiveMinimum ?? 0) + 1;
  if (type === "boolean") return false;
  if (type === "array") return [];
  if (type === "object") return validObject(schema);
  return "x";
}

function validObject(schema: JsonSchema): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([key, field]) => [key, validValue(key, field)]),
  );
}

/** What goes in one field in place of a valid value. */
const HOSTILE_VALUES: unknown[] = [
  99_999_999_999,
  2 ** 53 + 2,
  -(2 ** 31) - 1,
  1.5,
  "1e400",
  "x".repeat(5000),
  "' OR '1'='1'; --",
  {},
  [1, "two"],
  null,
  true,
  victim.id,
  victim.userId,
];

/** Whole inputs of the wrong shape. */
const HOSTILE_INPUTS: unknown[] = [undefined, null, "x", 99_999_999_999, [], { extra: 1e308 }];

function inputSchema(procedure: unknown): JsonSchema {
  const inputs = (procedure as { _def: { inputs?: z.ZodType[] } })._def.inputs ?? [];
  const [first] = inputs;
  if (!first) return {};
  try {
    return z.toJSONSchema(first, { io: "input", unrepresentable: "any" }) as JsonSchema;
  } catch {
    return {};
  }
}

/** The dashboard's procedures: those with no REST route (the /v1 fuzz suites cover the others). */
interface ProcedureDef {
  _def: { type: string; meta?: { operation?: unknown } };
}
const PROCEDURES = Object.entries(appRouter._def.procedures as Record<string, unknown>)
  .map(([path, procedure]) => ({ path, def: (procedure as ProcedureDef)._def, schema: inputSchema(procedure) }))
  .filter(({ def }) => !def.meta?.operation)
  .map(({ path, def, schema }) => ({ path, mutation: def.type === "mutation", schema }));

async function call(path: string, mutation: boolean, input: unknown): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = { Cookie: `${SESSION_COOKIE}=${dashboardFuzz.session}` };
  const response = mutation
    ? await fetch(`${base}/api/trpc/${path}`, {
        method: "POST",
        headers: { ...headers, Origin: base, "Content-Type": "application/json" },
        body: input === undefined ? "" : JSON.stringify(input),
      })
    : await fetch(
        `${base}/api/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
        {
          headers,
        },
      );
  return { status: response.status, body: await response.text() };
}

describe("the dashboard's procedures, fuzzed over HTTP", () => {
  it("walks the router: every procedure that is not on REST", () => {
    expect(PROCEDURES.length).toBeGreaterThan(40);
    expect(PROCEDURES.map((p) => p.path)).toContain("embeds.create");
  });

  it("never answers SQL, a database's words, a stack frame or a source path", async () => {
    const leaks: string[] = [];
    const internal: string[] = [];
    let calls = 0;
    for (const { path, mutation, schema } of PROCEDURES) {
      const valid = validObject(schema);
      const inputs = [
        ...HOSTILE_INPUTS,
        ...Object.keys(valid).flatMap((key) => HOSTILE_VALUES.map((value) => ({ ...valid, [key]: value }))),
      ];
      for (const input of inputs) {
        const answer = await call(path, mutation, input);
        calls += 1;
        if (answer.status < 400) continue;
        const where = `${path} ${JSON.stringify(input)?.slice(0, 120)} → ${answer.status}`;
        for (const pattern of LEAKS)
          if (pattern.test(answer.body)) leaks.push(`${where}: ${answer.body.slice(0, 400)}`);
        const problem = (JSON.parse(answer.body) as { error?: { problem?: { code?: string; detail?: string } } }).error
          ?.problem;
        expect(problem?.code, where).toMatch(/^[a-z_]+$/);
        if (answer.status >= 500 && problem?.code !== "unavailable")
          internal.push(`${where}: ${problem?.code} ${problem?.detail}`);
      }
    }
    expect(calls).toBeGreaterThan(500);
    expect(leaks).toEqual([]);
    // A hostile input is the caller's mistake, never the service's failure.
    expect(internal).toEqual([]);
  }, 600_000);

  it("answers an out-of-range release of a new embed as the caller's 400, not the database's error", async () => {
    const answer = await call("embeds.create", true, {
      marketId: "foundation-model-apis",
      reading: "delta",
      release: 99_999_999_999,
    });
    expect(answer.status).toBe(400);
    const problem = (JSON.parse(answer.body) as { error: { problem: { code: string; issues: { path: string }[] } } })
      .error.problem;
    expect(problem.code).toBe("invalid_request");
    expect(problem.issues.map((issue) => issue.path)).toEqual(["release"]);
  });
});
