/**
 * /v1's own dispatch (server/8-rest/dispatch.ts) against trpc-to-openapi's Node handler, which it
 * replaced at run time: for every REST procedure of the app, a probe procedure with the same
 * metadata and the same input schema answers the input it was given, parsed. Both dispatchers
 * route the same URLs to the probes; their answers must be the same (or fail alike).
 */
import { initTRPC } from "@trpc/server";
import fc from "fast-check";
import { createOpenApiNodeHttpHandler, type OpenApiMeta } from "trpc-to-openapi";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ApiContext } from "@/server/7-procedures/context";
import { appRouter } from "@/server/7-routers/root";
import { dispatchRest, restRoutesOf } from "@/server/8-rest/dispatch";

type AnyProcedure = { _def: { meta?: OpenApiMeta; inputs: z.ZodType[]; type: string } };

const t = initTRPC.meta<OpenApiMeta>().create();
const appProcedures = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>).filter(
  ([, procedure]) => procedure._def.meta?.openapi && procedure._def.type === "query",
);
const probes = Object.fromEntries(
  appProcedures.map(([name, procedure]) => {
    const base = t.procedure.meta({ openapi: procedure._def.meta?.openapi } as OpenApiMeta);
    const schema = procedure._def.inputs[0];
    const probe = (schema ? base.input(schema) : base)
      .output(z.unknown())
      .query(({ input }) => ({ name, input: input ?? null }));
    return [name.replace(".", "__"), probe];
  }),
);
// No /v1 input takes an array or a boolean today; a probe that does keeps those rules held too.
// Each dispatcher gets its own instance: coercion is set on the schema, and must be each one's doing.
const SYNTHETIC = "/probe/{id}/items";
const syntheticProbe = () =>
  t.procedure
    .meta({ openapi: { method: "GET", path: SYNTHETIC } })
    .input(
      z.object({
        id: z.string(),
        tags: z.array(z.string()).optional(),
        sizes: z.array(z.number()).max(3).optional(),
        flag: z.boolean().optional(),
        n: z.number().int().optional(),
      }),
    )
    .output(z.unknown())
    .query(({ input }) => ({ name: "synthetic", input }));
const probeRouter = t.router({ ...probes, synthetic__probe: syntheticProbe() });
const probeRoutes = restRoutesOf(t.router({ ...probes, synthetic__probe: syntheticProbe() }) as never);
const openApiHandler = createOpenApiNodeHttpHandler({ router: probeRouter } as never) as unknown as (
  req: unknown,
  res: unknown,
) => Promise<void>;

/** trpc-to-openapi's answer to a GET of `pathAndQuery` (below /v1): status and JSON. */
function theirs(pathAndQuery: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve) => {
    const answer = { status: 200, body: undefined as unknown };
    // What the handler reads of a request, and a Request only so that it takes the signal from it.
    const request = Object.create(Request.prototype, {
      method: { value: "GET" },
      url: { value: pathAndQuery },
      headers: { value: new Headers() },
      signal: { value: new AbortController().signal },
    });
    void openApiHandler(request, {
      setHeader: () => undefined,
      set statusCode(code: number) {
        answer.status = code;
      },
      end: (body: string) => {
        if (process.env.DEBUG_DISPATCH) console.log(pathAndQuery, answer.status, body.slice(0, 600));
        resolve({ status: answer.status, body: JSON.parse(body) });
      },
    });
  });
}

/** Ours, as the same status and JSON (a failure as its status: its words are the edge's business). */
async function ours(pathAndQuery: string): Promise<{ status: number; body: unknown }> {
  const url = new URL(pathAndQuery, "http://localhost");
  const dispatched = await dispatchRest(url.pathname, url.searchParams, {} as ApiContext, probeRoutes);
  if (dispatched.kind === "no-route") return { status: 404, body: undefined };
  if (dispatched.kind === "failed")
    return { status: dispatched.error.code === "BAD_REQUEST" ? 400 : 500, body: undefined };
  return { status: 200, body: JSON.parse(JSON.stringify(dispatched.data)) };
}

/** Compares the two on a URL; trpc-to-openapi failed on names inherited from Object.prototype, which the edge dropped first. */
async function expectSame(pathAndQuery: string) {
  const url = new URL(pathAndQuery, "http://localhost");
  for (const name of [...new Set(url.searchParams.keys())]) if (name in Object.prototype) url.searchParams.delete(name);
  const [expected, actual] = await Promise.all([theirs(`${url.pathname}${url.search}`), ours(pathAndQuery)]);
  expect({ url: pathAndQuery, status: actual.status }).toEqual({ url: pathAndQuery, status: expected.status });
  if (expected.status === 200) expect(actual.body).toEqual(expected.body);
}

const REST_PATHS = [...appProcedures.map(([, procedure]) => procedure._def.meta?.openapi?.path as string), SYNTHETIC];

describe("the /v1 dispatch", () => {
  it("has a route for every REST procedure and tells them apart", () => {
    expect(probeRoutes.length).toBe(appProcedures.length + 1);
    expect(REST_PATHS.length).toBeGreaterThan(10);
  });

  it("routes and reads inputs as trpc-to-openapi did, for chosen URLs", async () => {
    const cases = [
      "/markets",
      "/markets/",
      "/MARKETS/foundation-model-apis/Snapshot",
      "/markets/foundation-model-apis/snapshot?country=FR&release=2",
      "/markets/foundation-model-apis/snapshot?release=abc",
      "/markets/foundation-model-apis/snapshot?release=1.5&release=2",
      "/markets/foundation-model-apis/snapshot?country=",
      "/markets/a%20b%2Fc/snapshot?country=DE",
      "/markets/m/delta?productIds=a&productIds=b&limit=10",
      "/markets/m/delta?productIds=a&fields=name",
      "/markets/m/delta?toString=1&country=FR&constructor=&__proto__=x",
      "/markets/m/delta?limit=-1&limit=",
      "/markets/m/max?gates=a,b&weights=1",
      "/geographies?x=1",
      "/probe/x/items?tags=a",
      "/probe/x/items?tags=a&tags=b&sizes=1&sizes=2&flag=true&n=3",
      "/probe/x/items?sizes=1&sizes=2&sizes=3&sizes=4&flag=maybe&n=1.5",
      "/probe/x/items?id=other&n=",
      "/nothing/here",
      "/markets/m/nope",
      "/markets/m/snapshot/extra",
    ];
    for (const path of cases) await expectSame(path);
  });

  it("routes and reads inputs as trpc-to-openapi did, for generated URLs", async () => {
    const segment = fc.stringMatching(/^[a-zA-Z0-9._~%-]{1,12}$/);
    const value = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer({ min: -5, max: 500 }).map(String),
      fc.constant("true"),
    );
    const names = fc.constantFrom(
      "country",
      "release",
      "from",
      "to",
      "limit",
      "cursor",
      "productIds",
      "countries",
      "fields",
      "gates",
      "weights",
      "format",
      "tags",
      "sizes",
      "flag",
      "n",
      "id",
      "valueOf",
      "unknown",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...REST_PATHS),
        fc.array(segment, { minLength: 3, maxLength: 3 }),
        fc.array(fc.tuple(names, value), { maxLength: 6 }),
        async (path, ids, query) => {
          let i = 0;
          const filled = path.replace(/\{[^}]+\}/g, () => ids[i++ % ids.length] as string);
          const search = new URLSearchParams(query).toString();
          await expectSame(`${filled}${search ? `?${search}` : ""}`);
        },
      ),
      { numRuns: 300 },
    );
  });
});
