/**
 * Output validated and serialised once per immutable payload (server/procedures/validated-once.ts),
 * and the REST adapter writing that JSON text (patches/trpc-to-openapi+3.3.0.patch).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { initTRPC } from "@trpc/server";
import { createOpenApiNodeHttpHandler, type OpenApiMeta } from "trpc-to-openapi";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SERIALIZED_JSON, validatedOnce } from "@/server/procedures/validated-once";

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

describe("the trpc-to-openapi patch", () => {
  it("writes a payload's own JSON text as the REST body, and any other payload as JSON", async () => {
    const t = initTRPC.meta<OpenApiMeta>().create();
    const router = t.router({
      // z.custom passes the procedure's own object through to the adapter. Its kept text differs
      // from its fields, so the body shows which of the two was written.
      cached: t.procedure
        .meta({ openapi: { method: "GET", path: "/cached" } })
        .input(z.object({}))
        .output(z.custom<{ score: number }>(() => true).meta({ type: "object" }))
        .query(() => Object.defineProperty({ score: 1 }, SERIALIZED_JSON, { value: '{"score":2}' })),
      plain: t.procedure
        .meta({ openapi: { method: "GET", path: "/plain" } })
        .input(z.object({}))
        .output(z.custom<{ score: number }>(() => true).meta({ type: "object" }))
        .query(() => ({ score: 3 })),
    });
    const handler = createOpenApiNodeHttpHandler({ router, createContext: () => ({}) } as never);
    const server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${base}/cached`)).text()).toBe('{"score":2}');
      expect(await (await fetch(`${base}/plain`)).text()).toBe('{"score":3}');
    } finally {
      server.close();
    }
  });
});
