import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answerBytes, answerJson, SERIALIZED_JSON, validatedOnce } from "@/server/7-procedures/validated-once";

function countingSchema() {
  let runs = 0;
  const schema = validatedOnce(
    z
      .object({ score: z.number().max(100) })
      .refine(() => ++runs > 0)
      .meta({ id: `Counted${Math.random()}` }),
  );
  return { schema, runs: () => runs };
}

describe("validatedOnce", () => {
  it("validates an object once and gives the same validated copy, with its JSON, every time after", async () => {
    const { schema, runs } = countingSchema();
    const payload = { score: 42, extra: "stripped" };
    const first = await schema.parseAsync(payload);
    const second = await schema.parseAsync(payload);
    expect(runs()).toBe(1);
    expect(second).toBe(first);
    expect(first).toEqual({ score: 42 });
    expect((first as Record<symbol, unknown>)[SERIALIZED_JSON]).toBe('{"score":42}');
    // The JSON text is not part of the value: it never shows up when the value is written.
    expect(JSON.stringify(first)).toBe('{"score":42}');
    expect(Object.keys(first)).toEqual(["score"]);
  });

  it("validates another object, even an equal one, and remembers no failure", async () => {
    const { schema, runs } = countingSchema();
    await schema.parseAsync({ score: 1 });
    await schema.parseAsync({ score: 1 });
    expect(runs()).toBe(2);
    const wrong = { score: 101 };
    await expect(schema.parseAsync(wrong)).rejects.toThrow();
    await expect(schema.parseAsync(wrong)).rejects.toThrow();
  });
});

describe("an answer's JSON as the surfaces write it", () => {
  it("is the kept text of an answer validated once, and any other answer written now", () => {
    // The kept text differs from the fields, so the result shows which of the two was written.
    const kept = Object.defineProperty({ score: 1 }, SERIALIZED_JSON, { value: '{"score":2}' });
    expect(answerJson(kept)).toBe('{"score":2}');
    expect(answerJson({ score: 3 })).toBe('{"score":3}');
    expect(answerJson([1, "é"])).toBe('[1,"é"]');
  });

  it("is one Buffer per kept answer, encoded once, and a fresh one for any other", () => {
    const kept = Object.defineProperty({ name: "Zürich ☃" }, SERIALIZED_JSON, { value: '{"name":"Zürich ☃ kept"}' });
    const first = answerBytes(kept);
    expect(first.toString("utf8")).toBe('{"name":"Zürich ☃ kept"}');
    expect(answerBytes(kept)).toBe(first);
    const plain = { name: "Zürich ☃" };
    expect(answerBytes(plain).toString("utf8")).toBe('{"name":"Zürich ☃"}');
    expect(answerBytes(plain)).not.toBe(answerBytes(plain));
  });
});
