/**
 * A tool's output schema as tools/list carries it: an outline. Every agent pays for tools/list on
 * every connection, and the complete output schemas were 36 of its 50 KB. The outline keeps what a
 * client needs to read a result — the result's fields with their types, and the fields (with
 * types) of the items of its lists (the products of a reading), enums and nullability — and names
 * a nested object without describing it (a product's `rankOdds`, the answer's `page`), leaving out
 * deeper structure, required lists (1.2 KB of tools/list: a result has every field its outline
 * names unless the field's note says when), descriptions and numeric bounds. The complete schema of every payload is in the OpenAPI document (GET /v1/openapi.json),
 * and the server still validates each result against it. Pure.
 */

type Json = Record<string, unknown>;

/** The release numbers' bound (PostgreSQL's integer): one no real argument nears, stated in the OpenAPI document. */
const MAX_RELEASE = 2_147_483_647;

/**
 * Parameters many tools take with the same meaning, defined once in the server instructions
 * (instructions.ts) rather than in every tool that takes them: the market and release a reading
 * reads, the country whose controls it engages, the gates, and the narrowing of a list of products.
 */
export const PARAMETERS_DEFINED_ONCE = new Set([
  "marketId",
  "productId",
  "release",
  "country",
  "minSeal",
  "requireControls",
  "limit",
  "cursor",
  "productIds",
  "fields",
  "countries",
]);

/** How many levels of properties the outline keeps. */
export const OUTLINE_DEPTH = 2;

/**
 * The fields an agent needs to page, judge how sure a result is and explain it, said in a few words
 * wherever they appear (the terms behind them are the server instructions'); every other field is
 * named and typed only.
 */
export const OUTLINE_NOTES: Record<string, string> = {
  page: "When narrowed; nextCursor: next page (null: last).",
  fields: "When fields was asked: those kept.",
  rank: "Competition rank; an unavailable product's is tied last: no standing.",
  rankInterval: "Best–worst rank in 90% of draws.",
  rankOdds: "P(top 1, 3, 5) over the draws; tieGroup: tied.",
  seal: "SEAL 0–4 of the engaged offering; level null: not assessable.",
  gate: "Your gates: passed, and each gate failed.",
  available: "False: no offering meets every control; no score there.",
  movedUp: "Places gained (positive: moved up).",
};

function outlined(schema: Json, defs: Json, depth: number, root = false, item = false, name?: string): Json {
  const ref = typeof schema.$ref === "string" ? schema.$ref : undefined;
  const node = ref ? ((defs[ref.split("/").pop() ?? ""] as Json | undefined) ?? {}) : schema;
  const out: Json = {};
  for (const key of ["type", "enum", "const"]) if (node[key] !== undefined) out[key] = node[key];
  if (name !== undefined && OUTLINE_NOTES[name]) out.description = OUTLINE_NOTES[name];
  for (const key of ["anyOf", "oneOf"])
    if (Array.isArray(node[key])) out[key] = (node[key] as Json[]).map((s) => outlined(s, defs, depth, false, item));
  // Alternatives that are bare types (an object or null) say the same as one list of types, shorter.
  const alternatives = out.anyOf as Json[] | undefined;
  if (alternatives?.every((s) => Object.keys(s).length === 1 && typeof s.type === "string") && out.type === undefined) {
    out.type = alternatives.map((s) => s.type);
    delete out.anyOf;
  }
  if (depth <= 0) return out;
  // The result's own fields, and a list's items' fields; a nested object is named, not described.
  if (node.properties && typeof node.properties === "object" && (root || item)) {
    out.properties = Object.fromEntries(
      Object.entries(node.properties as Record<string, Json>).map(([field, s]) => [
        field,
        outlined(s, defs, depth - 1, false, false, field),
      ]),
    );
  }
  // An array's items are read as part of the array: they keep its depth.
  if (node.items && typeof node.items === "object") out.items = outlined(node.items as Json, defs, depth, false, true);
  if (node.additionalProperties && typeof node.additionalProperties === "object")
    out.additionalProperties = outlined(node.additionalProperties as Json, defs, depth - 1);
  return out;
}

/** The outline of a JSON Schema (draft 2020-12, `$defs` at its root), `depth` levels of properties deep. */
export function outlineSchema(schema: Json, depth = OUTLINE_DEPTH): Json {
  return outlined(schema, (schema.$defs as Json | undefined) ?? {}, depth, true);
}

/**
 * An input schema as tools/list carries it: what a caller needs to choose its arguments — types,
 * descriptions, required, numeric ranges, enums — without what only documentation or the server's
 * own checks use: the examples (each tool's description and the OpenAPI document give those), the
 * `$schema` line, bounds that only say "a safe integer", and the strings' `pattern` and
 * `maxLength` (a slug's or a list's spelling, a length no real argument nears): the server still
 * checks them, and its error names the argument and what it must be. Those took 1.6 KB of tools/list.
 */
export function compactInput(schema: Json): Json {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    return Object.fromEntries(
      Object.entries(node as Json)
        .filter(
          ([key, value]) =>
            key !== "example" &&
            key !== "examples" &&
            key !== "$schema" &&
            key !== "pattern" &&
            key !== "maxLength" &&
            key !== "exclusiveMinimum" &&
            !(key === "maximum" && (value === Number.MAX_SAFE_INTEGER || value === MAX_RELEASE)),
        )
        .map(([key, value]) => [key, key === "properties" ? walkProperties(value as Json) : walk(value)]),
    );
  };
  // Under `properties` the keys are parameter names, never keywords: a parameter named "example" stays.
  // Parameters the instructions define once lose their description here.
  const walkProperties = (properties: Json): Json =>
    Object.fromEntries(
      Object.entries(properties).map(([name, value]) => {
        const kept = walk(value) as Json;
        if (PARAMETERS_DEFINED_ONCE.has(name)) delete kept.description;
        return [name, kept];
      }),
    );
  return walk(schema) as Json;
}
