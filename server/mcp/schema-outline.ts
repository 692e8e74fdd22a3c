/**
 * A tool's output schema as tools/list carries it: an outline. Every agent pays for tools/list on
 * every connection, and the complete output schemas were 36 of its 50 KB. The outline keeps what a
 * client needs to read and check a result — the field names and types of the top two levels
 * (array items as deep as their array), which of them are required, enums and nullability — and
 * leaves out deeper structure, descriptions and numeric bounds. The complete schema of every
 * payload is in the OpenAPI document (GET /v1/openapi.json), and the server still validates each
 * result against it. Pure.
 */

type Json = Record<string, unknown>;

/** How many levels of properties the outline keeps. */
export const OUTLINE_DEPTH = 2;

function outlined(schema: Json, defs: Json, depth: number): Json {
  const ref = typeof schema.$ref === "string" ? schema.$ref : undefined;
  const node = ref ? ((defs[ref.split("/").pop() ?? ""] as Json | undefined) ?? {}) : schema;
  const out: Json = {};
  for (const key of ["type", "enum", "const"]) if (node[key] !== undefined) out[key] = node[key];
  for (const key of ["anyOf", "oneOf"])
    if (Array.isArray(node[key])) out[key] = (node[key] as Json[]).map((s) => outlined(s, defs, depth));
  if (depth <= 0) return out;
  if (node.properties && typeof node.properties === "object") {
    out.properties = Object.fromEntries(
      Object.entries(node.properties as Record<string, Json>).map(([name, s]) => [name, outlined(s, defs, depth - 1)]),
    );
    if (Array.isArray(node.required)) out.required = node.required;
  }
  // An array's items are read as part of the array: they keep its depth.
  if (node.items && typeof node.items === "object") out.items = outlined(node.items as Json, defs, depth);
  if (node.additionalProperties && typeof node.additionalProperties === "object")
    out.additionalProperties = outlined(node.additionalProperties as Json, defs, depth - 1);
  return out;
}

/** The outline of a JSON Schema (draft 2020-12, `$defs` at its root), `depth` levels of properties deep. */
export function outlineSchema(schema: Json, depth = OUTLINE_DEPTH): Json {
  return outlined(schema, (schema.$defs as Json | undefined) ?? {}, depth);
}
