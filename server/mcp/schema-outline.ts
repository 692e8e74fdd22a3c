/**
 * A tool's output schema as tools/list carries it: an outline. Every agent pays for tools/list on
 * every connection, and the complete output schemas were 36 of its 50 KB. The outline keeps what a
 * client needs to read and check a result — the result's fields with their types and required
 * ones, and the fields (with types) of the items of its lists (the products of a reading), enums
 * and nullability — and names a nested object without describing it (a product's `rankOdds`, the
 * answer's `page`), leaving out deeper structure, nested required lists, descriptions and numeric
 * bounds. The complete schema of every payload is in the OpenAPI document (GET /v1/openapi.json),
 * and the server still validates each result against it. Pure.
 */

type Json = Record<string, unknown>;

/** How many levels of properties the outline keeps. */
export const OUTLINE_DEPTH = 2;

function outlined(schema: Json, defs: Json, depth: number, root = false, item = false): Json {
  const ref = typeof schema.$ref === "string" ? schema.$ref : undefined;
  const node = ref ? ((defs[ref.split("/").pop() ?? ""] as Json | undefined) ?? {}) : schema;
  const out: Json = {};
  for (const key of ["type", "enum", "const"]) if (node[key] !== undefined) out[key] = node[key];
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
      Object.entries(node.properties as Record<string, Json>).map(([name, s]) => [name, outlined(s, defs, depth - 1)]),
    );
    // Which fields are always there is said for the result itself; below it the OpenAPI document says it.
    if (root && Array.isArray(node.required)) out.required = node.required;
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
            !(key === "maximum" && value === Number.MAX_SAFE_INTEGER),
        )
        .map(([key, value]) => [key, key === "properties" ? walkProperties(value as Json) : walk(value)]),
    );
  };
  // Under `properties` the keys are parameter names, never keywords: a parameter named "example" stays.
  const walkProperties = (properties: Json): Json =>
    Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, walk(value)]));
  return walk(schema) as Json;
}
