/** server/8-mcp/tool-schemas.ts: JSON Schema converted once per schema, and only our own payloads trusted. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { convertedOnce, markValidated } from "@/server/8-mcp/tool-schemas";

const schema = z.object({ marketId: z.string().min(1), score: z.number().min(0).max(100) });
const TARGET = { target: "draft-2020-12" };

type Standard = {
  validate(value: unknown): { value?: unknown; issues?: unknown[] } | Promise<unknown>;
  jsonSchema: { input(o: object): unknown; output(o: object): unknown };
};
const standardOf = (s: z.ZodType) => s["~standard"] as unknown as Standard;

describe("tool schemas for the MCP SDK", () => {
  it("converts to the JSON Schema zod gives, once per direction and target", () => {
    const fast = standardOf(convertedOnce(schema));
    const first = fast.jsonSchema.output(TARGET);
    expect(first).toEqual(standardOf(schema).jsonSchema.output(TARGET));
    expect(fast.jsonSchema.output(TARGET)).toBe(first);
    expect(fast.jsonSchema.input(TARGET)).toEqual(standardOf(schema).jsonSchema.input(TARGET));
    expect(fast.jsonSchema.input(TARGET)).not.toBe(first);
  });

  it("still validates what it was not told is validated, and is the same schema to zod", () => {
    const wrapped = convertedOnce(schema);
    const fast = standardOf(wrapped);
    expect(fast.validate({ marketId: "", score: 101 })).toMatchObject({ issues: expect.any(Array) });
    expect(fast.validate({ marketId: "m", score: 50 })).toEqual({ value: { marketId: "m", score: 50 } });
    expect(wrapped.safeParse({ marketId: "m", score: -1 }).success).toBe(false);
  });

  it("does not validate again a payload its procedure validated", () => {
    const fast = standardOf(convertedOnce(schema));
    // Marked, a payload is taken as it is: proof that the second validation is skipped.
    const marked = markValidated({ marketId: "", score: 101 });
    expect(fast.validate(marked)).toEqual({ value: marked });
    expect(fast.validate({ ...marked })).toMatchObject({ issues: expect.any(Array) });
  });
});
