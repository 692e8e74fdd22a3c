/**
 * The typed client (clients/typescript) without a server: its committed types are what the
 * declarations generate now, its types refuse what the document does not offer, and its ETag
 * cache, problems and header reading behave, against a fetch of the test's own. Its calls against
 * the running app are in tests/app/client.test.ts.
 */
import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import { GENERATED_FILE, GENERATION_ORIGIN, typesOfDocument } from "@/clients/typescript/scripts/types";
import {
  callHeaders,
  createClient,
  isNotModified,
  type MarketPositioningClient,
  orThrow,
  type Problem,
  type ProblemCode,
  ProblemError,
} from "@/clients/typescript/src/index";
import type { ErrorCode } from "@/server/1-errors/codes";
import { DECLARATIONS } from "@/server/7-procedures/operations";
import { buildOpenApiDocument } from "@/server/8-rest/openapi";

const BASE_URL = "https://api.test/v1";
const DELTA = "/markets/{marketId}/delta";
const MARKET = "foundation-model-apis";

describe("the generated types", () => {
  it("are what the declarations generate now (else: npm run client:generate)", async () => {
    const generated = (await typesOfDocument(buildOpenApiDocument(GENERATION_ORIGIN))).split("\n");
    const committed = readFileSync(GENERATED_FILE, "utf8").split("\n");
    // Named by its first differing line: the whole diff of a stale file runs to thousands of lines.
    const line = committed.findIndex((text, index) => text !== generated[index]);
    const first = line === -1 ? committed.length : line;
    expect(
      { lines: committed.length, firstDifference: line === -1 ? undefined : committed[first] },
      `clients/typescript/src/openapi.ts is stale from line ${first + 1} (generated: ${JSON.stringify(generated[first])}): run npm run client:generate`,
    ).toEqual({ lines: generated.length, firstDifference: generated[first] });
  });

  it("change when an operation is added, so a stale file is caught", async () => {
    const document = buildOpenApiDocument(GENERATION_ORIGIN);
    const added = "/markets/{marketId}/added-without-regenerating";
    const paths = { ...document.paths, [added]: Object.values(document.paths ?? {})[0] };
    const generated = await typesOfDocument({ ...document, paths });
    expect(generated).toContain(`"${added}"`);
    expect(readFileSync(GENERATED_FILE, "utf8")).not.toContain(added);
  });

  it("name every declared operation's path", () => {
    const committed = readFileSync(GENERATED_FILE, "utf8");
    for (const declaration of DECLARATIONS) expect(committed, declaration.path).toContain(`"${declaration.path}": {`);
  });
});

/** A client whose fetch answers with `answer` and records every request it was sent. */
function fakeClient(
  answer: (request: Request) => Response,
  options: { token?: string; maxEntries?: number; maxBytes?: number } = {},
) {
  const sent: Request[] = [];
  const api = createClient({
    baseUrl: BASE_URL,
    token: options.token ?? "mps_test",
    fetch: async (request) => {
      sent.push(request.clone());
      return answer(request);
    },
    etagCache: { maxEntries: options.maxEntries, maxBytes: options.maxBytes },
  });
  return { api, sent };
}

const json = (body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) =>
  new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { "Content-Type": "application/json", ...init.headers },
  });

/** A server of one versioned body per URL: 304 to its current ETag, else 200 at 3 credits. */
function versionedServer() {
  const version = new Map<string, number>();
  const handler = (request: Request) => {
    const current = version.get(request.url) ?? 1;
    const etag = `W/"v${current}"`;
    if (request.headers.get("if-none-match") === etag)
      return new Response(null, {
        status: 304,
        headers: { ETag: etag, "X-Credits-Cost": "0", "X-Credits-Remaining": "97", "X-Request-Id": "second" },
      });
    return json(
      { url: request.url, version: current },
      { headers: { ETag: etag, "X-Credits-Cost": "3", "X-Credits-Remaining": "97", "X-Request-Id": "first" } },
    );
  };
  return { handler, bump: (url: string) => version.set(url, (version.get(url) ?? 1) + 1) };
}

const deltaOf = (api: MarketPositioningClient, country = "FR") =>
  api.GET(DELTA, { params: { path: { marketId: MARKET }, query: { country } } });

describe("the ETag cache", () => {
  it("sends the remembered ETag and answers a 304 with the remembered body, as a 200 marked not modified", async () => {
    const server = versionedServer();
    const { api, sent } = fakeClient(server.handler);
    const first = await deltaOf(api);
    expect(sent[0]?.headers.get("if-none-match")).toBeNull();
    expect(isNotModified(first.response)).toBe(false);
    const second = await deltaOf(api);
    expect(sent[1]?.headers.get("if-none-match")).toBe('W/"v1"');
    expect(second.response.status).toBe(200);
    expect(isNotModified(second.response)).toBe(true);
    expect(second.data).toEqual(first.data);
    // The headers are the 304's: what this call cost, not what the first did.
    expect(callHeaders(second.response)).toMatchObject({ creditsCost: 0, requestId: "second" });
    expect(api.etags?.size).toBe(1);
  });

  it("takes a new body and its ETag when the server has a newer one", async () => {
    const server = versionedServer();
    const { api, sent } = fakeClient(server.handler);
    await deltaOf(api);
    server.bump(sent[0]?.url as string);
    const newer = await deltaOf(api);
    expect(isNotModified(newer.response)).toBe(false);
    expect(newer.data).toMatchObject({ version: 2 });
    const again = await deltaOf(api);
    expect(sent[2]?.headers.get("if-none-match")).toBe('W/"v2"');
    expect(again.data).toMatchObject({ version: 2 });
  });

  it("hands the remembered bytes to any parseAs", async () => {
    const server = versionedServer();
    const { api } = fakeClient(server.handler);
    const first = await api.GET(DELTA, { params: { path: { marketId: MARKET } }, parseAs: "text" });
    const second = await api.GET(DELTA, { params: { path: { marketId: MARKET } }, parseAs: "text" });
    expect(isNotModified(second.response)).toBe(true);
    expect(second.data).toBe(first.data);
    expect(JSON.parse(second.data as string)).toMatchObject({ version: 1 });
  });

  it("keeps answers apart per URL and per token", async () => {
    const server = versionedServer();
    const { api, sent } = fakeClient(server.handler);
    await deltaOf(api, "FR");
    await deltaOf(api, "DE");
    expect(sent[1]?.headers.get("if-none-match")).toBeNull();
    // Another token, through the same cache: never answered from the first token's copy.
    await api.GET(DELTA, {
      params: { path: { marketId: MARKET }, query: { country: "FR" } },
      headers: { Authorization: "Bearer mps_other" },
    });
    expect(sent[2]?.headers.get("authorization")).toBe("Bearer mps_other");
    expect(sent[2]?.headers.get("if-none-match")).toBeNull();
    expect(api.etags?.size).toBe(3);
  });

  it("forgets the least recently used answer beyond maxEntries", async () => {
    const server = versionedServer();
    const { api, sent } = fakeClient(server.handler, { maxEntries: 2 });
    await deltaOf(api, "FR");
    await deltaOf(api, "DE");
    await deltaOf(api, "FR"); // FR is now the most recently used
    await deltaOf(api, "IT"); // evicts DE
    expect(api.etags?.size).toBe(2);
    await deltaOf(api, "FR");
    await deltaOf(api, "DE");
    const conditional = sent.map((request) => request.headers.get("if-none-match") !== null);
    expect(conditional).toEqual([false, false, true, false, true, false]);
  });

  it("holds at most maxBytes of bodies, the least recently used going first, and no body larger", async () => {
    const server = versionedServer();
    const { api, sent } = fakeClient(server.handler, { maxBytes: 200 });
    await deltaOf(api, "FR");
    // The JSON of { url, version }: two fit in 200 bytes, three do not.
    expect(api.etags?.bytes).toBeGreaterThan(200 / 3);
    expect(api.etags?.bytes).toBeLessThanOrEqual(100);
    await deltaOf(api, "DE");
    await deltaOf(api, "IT"); // three bodies do not fit: FR goes
    expect(api.etags?.size).toBe(2);
    expect(api.etags?.bytes).toBeLessThanOrEqual(200);
    await deltaOf(api, "FR");
    expect(sent[3]?.headers.get("if-none-match")).toBeNull();

    const { api: tiny } = fakeClient(server.handler, { maxBytes: 10 });
    await deltaOf(tiny);
    expect(tiny.etags?.size).toBe(0);
  });

  it("does not read a streamed body ahead of its caller, and so does not remember it", async () => {
    const server = versionedServer();
    const { api, sent } = fakeClient(server.handler);
    const streamed = await api.GET(DELTA, { params: { path: { marketId: MARKET } }, parseAs: "stream" });
    expect(await new Response(streamed.data).json()).toMatchObject({ version: 1 });
    expect(api.etags?.size).toBe(0);
    await api.GET(DELTA, { params: { path: { marketId: MARKET } } });
    expect(sent[1]?.headers.get("if-none-match")).toBeNull();
  });

  it("leaves a caller's own If-None-Match and its 304 to the caller, and HEAD alone", async () => {
    const server = versionedServer();
    const { api, sent } = fakeClient(server.handler);
    await deltaOf(api);
    const own = await api.GET(DELTA, {
      params: { path: { marketId: MARKET }, query: { country: "FR" }, header: { "If-None-Match": 'W/"v1"' } },
    });
    expect(own.response.status).toBe(304);
    expect(isNotModified(own.response)).toBe(false);
    const head = await api.HEAD(DELTA, { params: { path: { marketId: MARKET }, query: { country: "FR" } } });
    expect(sent[2]?.method).toBe("HEAD");
    expect(sent[2]?.headers.get("if-none-match")).toBeNull();
    expect(head.response.status).toBe(200);
  });

  it("is off when asked", async () => {
    const server = versionedServer();
    const sent: Request[] = [];
    const api = createClient({
      baseUrl: BASE_URL,
      token: "mps_test",
      etagCache: false,
      fetch: async (request) => {
        sent.push(request);
        return server.handler(request);
      },
    });
    await deltaOf(api);
    await deltaOf(api);
    expect(api.etags).toBeUndefined();
    expect(sent.map((request) => request.headers.get("if-none-match"))).toEqual([null, null]);
  });

  it("refuses a size that is not a positive integer", () => {
    expect(() => createClient({ baseUrl: BASE_URL, token: "t", etagCache: { maxEntries: 0 } })).toThrow(RangeError);
    expect(() => createClient({ baseUrl: BASE_URL, token: "t", etagCache: { maxBytes: 1.5 } })).toThrow(RangeError);
  });
});

describe("problems", () => {
  const problem: Problem = {
    type: "https://api.test/docs/errors#not_found",
    title: "Not found",
    status: 404,
    code: "not_found",
    detail: 'No market "nope".',
    requestId: "r-1",
  };

  it("are typed with the server's own codes, derived from the document", () => {
    expectTypeOf<ProblemCode>().toEqualTypeOf<ErrorCode>();
  });

  it("come back as the error of a call, and thrown as a ProblemError by orThrow", async () => {
    const { api } = fakeClient(() =>
      json(problem, { status: 404, headers: { "Content-Type": "application/problem+json" } }),
    );
    const result = await deltaOf(api);
    expectTypeOf(result.error).toEqualTypeOf<Problem | undefined>();
    expect(result.error?.code).toBe("not_found");
    const thrown = await deltaOf(api)
      .then(orThrow)
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ProblemError);
    const refused = thrown as ProblemError;
    expectTypeOf(refused.code).toEqualTypeOf<ProblemCode | undefined>();
    expect(refused).toMatchObject({ status: 404, code: "not_found", problem });
    expect(refused.message).toBe('404 not_found: No market "nope".');
  });

  it("throw without a problem when the answer has no problem body", async () => {
    const { api } = fakeClient(() => new Response("<html>bad gateway</html>", { status: 502 }));
    const thrown = (await deltaOf(api)
      .then(orThrow)
      .catch((error: unknown) => error)) as ProblemError;
    expect(thrown).toBeInstanceOf(ProblemError);
    expect(thrown.status).toBe(502);
    expect(thrown.problem).toBeUndefined();
    expect(thrown.code).toBeUndefined();
  });

  it("let orThrow return the data of a success", async () => {
    const { api } = fakeClient(() => json({ markets: [] }));
    const markets = await api.GET("/markets").then(orThrow);
    expectTypeOf(markets.markets).toBeArray();
    expect(markets).toEqual({ markets: [] });
  });
});

describe("call headers", () => {
  it("read price, balance, rate limit, retry and request id as numbers and strings", () => {
    const headers = {
      "X-Request-Id": "r-9",
      "X-Credits-Cost": "3",
      "X-Credits-Remaining": "997",
      "RateLimit-Limit": "600",
      "RateLimit-Remaining": "599",
      "RateLimit-Reset": "42",
      "Retry-After": "30",
      ETag: '"abc"',
    };
    expect(callHeaders(new Response(null, { headers }))).toEqual({
      requestId: "r-9",
      creditsCost: 3,
      creditsRemaining: 997,
      rateLimit: { limit: 600, remaining: 599, resetSeconds: 42 },
      retryAfterSeconds: 30,
      etag: '"abc"',
    });
    expect(callHeaders(new Response(null))).toEqual({
      requestId: undefined,
      creditsCost: undefined,
      creditsRemaining: undefined,
      rateLimit: undefined,
      retryAfterSeconds: undefined,
      etag: undefined,
    });
  });
});

/**
 * What the types refuse, checked by `npm run typecheck` (CI's first step): each @ts-expect-error
 * fails the type check when its line compiles, and each line beside it shows the call it spoils
 * compiles. Never run: only compiled.
 */
function callsTheTypesRefuse(api: MarketPositioningClient) {
  api.GET(DELTA, { params: { path: { marketId: MARKET } } });
  // @ts-expect-error a path the document does not have
  api.GET("/markets/{marketId}/detla", { params: { path: { marketId: MARKET } } });
  // @ts-expect-error a path parameter by the wrong name
  api.GET(DELTA, { params: { path: { market: MARKET } } });
  // @ts-expect-error a required path parameter left out
  api.GET(DELTA, {});
  api.GET(DELTA, { params: { path: { marketId: MARKET }, query: { view: "bars", release: 2 } } });
  // @ts-expect-error a value outside the parameter's enum
  api.GET(DELTA, { params: { path: { marketId: MARKET }, query: { view: "pie" } } });
  // @ts-expect-error a parameter of the wrong type
  api.GET(DELTA, { params: { path: { marketId: MARKET }, query: { release: "2" } } });
  api.GET("/markets/{marketId}/whatif", { params: { path: { marketId: MARKET }, query: { weights: "a:1" } } });
  // @ts-expect-error a required query parameter left out
  api.GET("/markets/{marketId}/whatif", { params: { path: { marketId: MARKET } } });
  // @ts-expect-error a method the API does not serve
  api.POST("/markets");
}

describe("the types", () => {
  it("give each answer its document schema", async () => {
    const { api } = fakeClient(() => json({ products: [{ available: true }] }));
    const delta = await deltaOf(api).then(orThrow);
    expectTypeOf(delta.products[0]?.available).toEqualTypeOf<boolean | undefined>();
    // @ts-expect-error a field the Delta does not have
    expect(delta.productz).toBeUndefined();
    expect(delta.products[0]?.available).toBe(true);
    expectTypeOf(callsTheTypesRefuse).parameter(0).toEqualTypeOf<MarketPositioningClient>();
  });
});
