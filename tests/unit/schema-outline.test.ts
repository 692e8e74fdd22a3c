/**
 * The outline of an output schema that tools/list carries (server/8-mcp/schema-outline.ts): the
 * result's fields and its lists' items' fields, a nested object named but not described,
 * references followed, nullability (as a list of types where that says it) and enums kept, descriptions and bounds left out. Expected
 * outlines are written out by hand.
 */
import { describe, expect, it } from "vitest";
import { MCP_INSTRUCTIONS } from "@/server/8-mcp/instructions";
import { compactInput, outlineSchema, PARAMETERS_DEFINED_ONCE } from "@/server/8-mcp/schema-outline";

const schema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  description: "A reading.",
  properties: {
    release: { type: "integer", exclusiveMinimum: 0, maximum: 9007199254740991, description: "The release." },
    state: { type: "string", enum: ["off", "on"] },
    products: { type: "array", items: { $ref: "#/$defs/Product" } },
    country: { anyOf: [{ type: "string" }, { type: "null" }] },
    view: { anyOf: [{ type: "string", enum: ["map"] }, { type: "null" }] },
    bands: { type: "object", additionalProperties: { type: "number", minimum: 0 } },
  },
  required: ["release", "products"],
  additionalProperties: false,
  $defs: {
    Product: {
      type: "object",
      properties: {
        name: { type: "string" },
        scores: { type: "object", properties: { innovation: { type: "number" } }, required: ["innovation"] },
      },
      required: ["name", "scores"],
      additionalProperties: false,
    },
  },
};

describe("the outline of an output schema", () => {
  it("keeps two levels of field names and types, items as deep as their array, enums and nullability; no required lists", () => {
    expect(outlineSchema(schema)).toEqual({
      type: "object",
      properties: {
        release: { type: "integer" },
        state: { type: "string", enum: ["off", "on"] },
        products: {
          type: "array",
          items: {
            type: "object",
            properties: { name: { type: "string" }, scores: { type: "object" } },
          },
        },
        // Bare alternatives become one list of types; alternatives with more to say stay alternatives.
        country: { type: ["string", "null"] },
        view: { anyOf: [{ type: "string", enum: ["map"] }, { type: "null" }] },
        // A record's values are a level of their own, as named properties are.
        bands: { type: "object", additionalProperties: { type: "number" } },
      },
    });
  });

  it("names a nested object without describing it, however deep it may go, and describes a list's items", () => {
    const deeper = outlineSchema(schema, 3) as { properties: Record<string, unknown> };
    expect(deeper.properties.products).toEqual({
      type: "array",
      items: {
        type: "object",
        properties: { name: { type: "string" }, scores: { type: "object" } },
      },
    });
    expect(deeper.properties.bands).toEqual({ type: "object", additionalProperties: { type: "number" } });
    expect(outlineSchema(schema, 0)).toEqual({ type: "object" });
  });
});

describe("an input schema as tools/list carries it", () => {
  it("keeps types, descriptions, ranges, enums and required; leaves out examples, patterns, lengths, exclusive and safe-integer bounds, and what the instructions define", () => {
    const input = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        marketId: { type: "string", maxLength: 64, pattern: "^[a-z]+$", description: "Defined once.", example: "m" },
        marketName: { type: "string", maxLength: 64, description: "Not defined once.", example: "m" },
        limit: { type: "integer", minimum: 1, maximum: 1000, description: "At most this many." },
        release: { type: "integer", exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        to: { type: "integer", minimum: 1, maximum: 2147483647, description: "The later release." },
        cursor: { type: "string", description: "Defined once, in the server instructions." },
        view: { type: "string", enum: ["map", "bars"], default: "map", examples: ["bars"] },
        // A parameter's name is never taken for a keyword.
        pattern: { type: "string", description: "A parameter named pattern." },
      },
      required: ["marketId"],
    };
    expect(compactInput(input)).toEqual({
      type: "object",
      properties: {
        marketId: { type: "string" },
        marketName: { type: "string", description: "Not defined once." },
        limit: { type: "integer", minimum: 1, maximum: 1000 },
        release: { type: "integer" },
        to: { type: "integer", minimum: 1, description: "The later release." },
        cursor: { type: "string" },
        view: { type: "string", enum: ["map", "bars"], default: "map" },
        pattern: { type: "string", description: "A parameter named pattern." },
      },
      required: ["marketId"],
    });
  });
});

describe("parameters defined once", () => {
  it.for([...PARAMETERS_DEFINED_ONCE])(
    "%s is defined in the server instructions, since no tool describes it",
    (name) => {
      expect(MCP_INSTRUCTIONS).toMatch(new RegExp(`\\b${name}\\b \\(`));
    },
  );
});
