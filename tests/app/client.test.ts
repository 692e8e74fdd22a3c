/**
 * The typed client (clients/typescript) against the running app: every operation the served
 * document lists is called through it — discovered from the document, called with its
 * declaration's example — and each answer is checked against the document; problems arrive
 * typed with their code; a repeated reading is answered from its ETag, free.
 */
import type { FetchOptions } from "openapi-fetch";
import { beforeAll, describe, expect, expectTypeOf, inject, it } from "vitest";
import {
  callHeaders,
  createClient,
  isNotModified,
  orThrow,
  type ProblemCode,
  ProblemError,
  type paths,
} from "@/clients/typescript/src/index";
import { DECLARATIONS } from "@/server/7-procedures/operations";
import { exampleParams } from "../helpers/examples";
import { responseValidator } from "../helpers/openapi-validator";

const base = inject("appUrl");
// The metered calls are billed to `french` (plenty of credits, home FR): the accounts suite counts
// `reader`'s balance to the credit. `tokens.noScope` is a token of `reader`'s organization.
const { french, reader, tokens } = inject("accounts");
const baseUrl = `${base}/v1`;
const MARKET = "foundation-model-apis";
const market = { marketId: MARKET };

/**
 * The arguments of each operation's call, by path: its declaration's example on the demo catalogue
 * (server/7-procedures/operations/), so a new operation is called without an edit here.
 */
const EXAMPLES: Record<string, object> = Object.fromEntries(
  DECLARATIONS.map((declaration) => [declaration.path, { params: exampleParams(declaration) }]),
);

/**
 * A few calls written out, typed by the generated types (a path the client does not know, a
 * misspelt parameter or a missing required one fails the type check); they also reach parameters
 * the examples leave out.
 */
const TYPED: { [Path in keyof paths]?: FetchOptions<paths[Path]["get"]> } = {
  "/markets/{marketId}/servicemax": { params: { path: market, query: { country: "FR", minSeal: 2 } } },
  "/markets/{marketId}/products/{productId}/history": { params: { path: { ...market, productId: "quillmere-atlas" } } },
  "/usage": { params: { query: { bucket: "day", groupBy: "operation" } } },
};

const CALLS: Record<string, object> = { ...EXAMPLES, ...TYPED };

interface DocumentOperation {
  "x-credits"?: number;
  responses: Record<string, { content?: Record<string, unknown> }>;
}
type Method = "get" | "head";
interface CallResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}
/** The client seen without its types, to call an operation the document names at run time. */
type UntypedClient = { request(method: Method, path: string, init: object): Promise<CallResult> };

// The document as served now, read before the tests are collected: one test per operation.
const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as {
  paths: Record<string, Partial<Record<Method, DocumentOperation>>>;
};
const OPERATIONS = Object.entries(document.paths).flatMap(([path, item]) =>
  (Object.keys(item) as Method[]).map((method) => ({ path, method, operation: item[method] as DocumentOperation })),
);

const isJsonType = (type: string) => /^application\/([\w.-]+\+)?json$/.test(type);
/** The media types an operation's 200 may have, bare ("text/csv"). */
const okTypesOf = (operation: DocumentOperation) => Object.keys(operation.responses["200"]?.content ?? {});

/** Every call the client made, as the operation it named: "get /markets/{marketId}". */
const called = new Set<string>();
const api = createClient({ baseUrl, token: french.token });
api.use({
  onRequest({ request, schemaPath }) {
    called.add(`${request.method.toLowerCase()} ${schemaPath}`);
  },
});

let validate: ReturnType<typeof responseValidator>;
beforeAll(() => {
  validate = responseValidator(document);
});

describe("every operation of the served document, through the client", () => {
  it("serves every path the client's types know (else they were generated from another document)", () => {
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(Object.keys(CALLS)));
    expect(OPERATIONS.length).toBeGreaterThan(0);
  });

  it.for(OPERATIONS.map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry] as const))(
    "%s",
    async ([name, { path, method, operation }]) => {
      const call = CALLS[path];
      if (!call) throw new Error(`no declaration's example for ${path}`);
      // A file (CSV, zip…) is read as bytes and checked by the type it came as; JSON as JSON.
      const types = okTypesOf(document.paths[path]?.get ?? operation);
      const parseAs = types.every(isJsonType) ? "json" : "arrayBuffer";
      const { data, response } = await (api as unknown as UntypedClient).request(method, path, { parseAs, ...call });
      expect(response.status, name).toBe(200);
      const apiPath = new URL(response.url).pathname.slice("/v1".length);
      const contentType = response.headers.get("content-type")?.split(";")[0]?.trim() ?? "";
      if (method === "head") {
        expect(data, name).toBeUndefined();
        validate(method, apiPath, { status: 200, headers: response.headers, text: "", body: undefined });
      } else if (parseAs === "json") {
        validate(method, apiPath, { status: 200, headers: response.headers, text: JSON.stringify(data), body: data });
      } else {
        // A file: its type one the document lists, some bytes, and JSON that parses when it says JSON.
        expect(types, `${name} answered ${contentType}`).toContain(contentType);
        const bytes = data as ArrayBuffer;
        expect(bytes.byteLength, name).toBeGreaterThan(0);
        const text = new TextDecoder().decode(bytes);
        if (isJsonType(contentType)) expect(() => JSON.parse(text), name).not.toThrow();
        validate(method, apiPath, { status: 200, headers: response.headers, text, body: text });
      }
      // Priced as the document says (HEAD is metered as GET), read through the client's helper.
      expect(callHeaders(response).creditsCost, name).toBe(operation["x-credits"]);
    },
  );

  it("called each of them through the client, and nothing the document does not list", () => {
    const documented = OPERATIONS.map(({ path, method }) => `${method} ${path}`);
    expect([...called].sort()).toEqual([...documented].sort());
  });
});

describe("problems", () => {
  it("answer an unknown market with not_found, typed and thrown with its code", async () => {
    const unknown = await api.GET("/markets/{marketId}/delta", {
      params: { path: { marketId: "no-such-market" }, query: { country: "FR" } },
    });
    expect(unknown.response.status).toBe(404);
    expectTypeOf(unknown.error?.code).toEqualTypeOf<ProblemCode | undefined>();
    expect(unknown.error).toMatchObject({ status: 404, code: "not_found", type: `${base}/docs/errors#not_found` });
    expect(unknown.error?.requestId).toBe(callHeaders(unknown.response).requestId);

    const thrown = await api
      .GET("/markets/{marketId}", { params: { path: { marketId: "no-such-market" } } })
      .then(orThrow)
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ProblemError);
    expect((thrown as ProblemError).code).toBe("not_found");
    expect((thrown as ProblemError).problem?.detail).toContain("no-such-market");
  });

  it("answer a token without the reading's scope with insufficient_scope", async () => {
    const unscoped = createClient({ baseUrl, token: tokens.noScope });
    const refused = await unscoped.GET("/markets/{marketId}/capaindex", { params: { path: market } });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ code: "insufficient_scope", scope: "Market.Read.All" });
    expect(callHeaders(refused.response).creditsCost ?? 0).toBe(0);
    // The same token may call what needs no scope.
    const organization = await unscoped.GET("/organization").then(orThrow);
    expect(organization.organizationId).toBe(reader.id);
  });

  it("answer a country that is not one with invalid_request naming it", async () => {
    const invalid = await api.GET("/markets/{marketId}/servicemax", {
      params: { path: market, query: { country: "XX" } },
    });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error?.code).toBe("invalid_request");
    expect(invalid.error?.issues?.map((issue) => issue.path)).toEqual(["country"]);
  });

  it("let a caller switch on the code", async () => {
    const advice = async (marketId: string): Promise<string> => {
      try {
        const snapshot = await api
          .GET("/markets/{marketId}/snapshot", { params: { path: { marketId } } })
          .then(orThrow);
        return `release ${snapshot.release}`;
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error;
        switch (error.code) {
          case "not_found":
            return "list the markets first";
          case "insufficient_credits":
            return "buy credits";
          default:
            return `failed: ${error.code}`;
        }
      }
    };
    expect(await advice("no-such-market")).toBe("list the markets first");
    expect(await advice(MARKET)).toMatch(/^release \d+$/);
  });
});

describe("ETag reuse", () => {
  it("sends If-None-Match the second time, gets a free 304 and answers the same body", async () => {
    const wire: { ifNoneMatch: string | null; status: number }[] = [];
    const cached = createClient({
      baseUrl,
      token: french.token,
      fetch: async (request) => {
        const response = await fetch(request);
        wire.push({ ifNoneMatch: request.headers.get("if-none-match"), status: response.status });
        return response;
      },
    });
    const call = () => cached.GET("/markets/{marketId}/capaindex", { params: { path: market, query: { release: 2 } } });

    const first = await call();
    const second = await call();

    expect(wire).toEqual([
      { ifNoneMatch: null, status: 200 },
      { ifNoneMatch: callHeaders(first.response).etag, status: 304 },
    ]);
    expect(isNotModified(first.response)).toBe(false);
    expect(callHeaders(first.response).creditsCost).toBe(2);
    expect(second.response.status).toBe(200);
    expect(isNotModified(second.response)).toBe(true);
    expect(second.data).toEqual(first.data);
    expect(second.data?.release).toBe(2);
    expect(callHeaders(second.response).creditsCost).toBe(0);

    // The ledger has the first call's debit and nothing for the second (other suites spend from
    // the same organization meanwhile, so its balance alone would not say which call cost what).
    const firstId = callHeaders(first.response).requestId;
    const secondId = callHeaders(second.response).requestId;
    expect(secondId).toBeDefined();
    expect(secondId).not.toBe(firstId);
    const entries = await ledgerSince(firstId as string);
    expect(entries.find((entry) => entry.requestId === firstId)).toMatchObject({ kind: "debit", amount: -2 });
    expect(entries.filter((entry) => entry.requestId === secondId)).toEqual([]);
  });
});

describe("downloads", () => {
  it("read a release's table as CSV text, typed by parseAs, and reuse its ETag", async () => {
    const table = () =>
      api.GET("/markets/{marketId}/export/files/{file}", {
        params: { path: { ...market, file: "products.csv" }, query: { release: 3 } },
        parseAs: "text",
      });
    const first = await table();
    expectTypeOf(first.data).toEqualTypeOf<string | undefined>();
    expect(first.response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(first.data?.split("\r\n")[0]).toMatch(/^product_id,/);
    expect(callHeaders(first.response).creditsCost).toBe(3);
    const again = await table();
    expect(isNotModified(again.response)).toBe(true);
    expect(again.data).toBe(first.data);
    expect(callHeaders(again.response).creditsCost).toBe(0);
  });
});

/** The organization's ledger from the newest entry back to the one of `requestId`, page by page. */
async function ledgerSince(requestId: string) {
  const entries: { requestId: string | null; kind: string; amount: number }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const ledger = await api.GET("/ledger", { params: { query: { limit: 100, cursor } } }).then(orThrow);
    entries.push(...ledger.entries);
    if (ledger.entries.some((entry) => entry.requestId === requestId) || !ledger.nextCursor) return entries;
    cursor = ledger.nextCursor;
  }
  throw new Error(`no ledger entry for request ${requestId}`);
}
