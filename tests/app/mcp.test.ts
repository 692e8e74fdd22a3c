/**
 * The MCP server over real HTTP with the SDK's own client: the six tools, each answering the REST
 * body for the same arguments and token, tool errors with the REST codes, and credits debited as
 * REST debits them.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dashboardCall } from "../helpers/dashboard";
import { scopeRefusal } from "../helpers/mcp";
import { SERVED_TOOL_NAMES } from "../helpers/spec";

const base = inject("appUrl");
const accounts = inject("accounts");

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "mps-tests", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const rest = async (path: string, token: string) => {
  const response = await fetch(`${base}/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json(), headers: response.headers };
};

/** Each tool, its arguments, and the REST path for the same question. */
const CASES: [string, Record<string, unknown>, string][] = [
  // The tool's default is the compact answer (each country's control ids); REST's is every control in full.
  ["service_geographies_list", {}, "/geographies?detail=ids"],
  ["service_geographies_list", { detail: "full" }, "/geographies"],
  ["service_markets_list", {}, "/markets"],
  ["service_market_get_snapshot", { marketId: "foundation-model-apis" }, "/markets/foundation-model-apis/snapshot"],
  [
    "service_market_get_snapshot",
    { marketId: "foundation-model-apis", release: 1 },
    "/markets/foundation-model-apis/snapshot?release=1",
  ],
  ["service_market_get_capaindex", { marketId: "managed-kubernetes" }, "/markets/managed-kubernetes/capaindex"],
  [
    "service_market_get_servicemax",
    { marketId: "object-storage", country: "fr" },
    "/markets/object-storage/servicemax?country=fr",
  ],
  ["service_market_get_servicemax", { marketId: "object-storage" }, "/markets/object-storage/servicemax"],
  [
    "service_market_get_delta",
    { marketId: "foundation-model-apis", country: "CH", view: "bars" },
    "/markets/foundation-model-apis/delta?country=CH&view=bars",
  ],
];

describe("MCP tools over Streamable HTTP", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(accounts.reader.token);
  });
  afterAll(() => client?.close());

  it("lists the six fixed tools and ours, with input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(SERVED_TOOL_NAMES);
    const delta = tools.find((t) => t.name === "service_market_get_delta");
    expect(Object.keys(delta?.inputSchema.properties ?? {}).sort()).toEqual([
      "country",
      "cursor",
      "fields",
      "limit",
      "marketId",
      "minSeal",
      "productIds",
      "release",
      "requireControls",
      "view",
    ]);
    expect(delta?.inputSchema.required).toEqual(["marketId"]);
    expect(delta?.outputSchema?.properties).toHaveProperty("products");
    expect(delta?.annotations?.readOnlyHint).toBe(true);
    for (const tool of tools) expect(tool.description?.length ?? 0).toBeGreaterThan(60);
    // The three chart tools declare the MCP Apps view; the others do not.
    const withApp = tools.filter(
      (t) => (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri === "ui://service/charts",
    );
    expect(withApp.map((t) => t.name).sort()).toEqual([
      "service_market_get_capaindex",
      "service_market_get_delta",
      "service_market_get_servicemax",
    ]);
    const view = await client.readResource({ uri: "ui://service/charts" });
    expect(view.contents[0]?.mimeType).toBe("text/html;profile=mcp-app");
    // Self-contained: the script is inline and nothing is loaded from anywhere.
    expect((view.contents[0] as { text: string }).text).not.toMatch(/<script[^>]+src=|<link[^>]+href=|@import/i);
  });

  for (const [tool, args, path] of CASES)
    it(`${tool}(${JSON.stringify(args)}) answers the body of GET /v1${path}`, async () => {
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError).toBeFalsy();
      const expected = await rest(path, accounts.reader.token);
      expect(expected.status).toBe(200);
      expect(result.structuredContent).toEqual(expected.body);
      const text = (result.content as { type: string; text: string }[])[0];
      expect(text?.type).toBe("text");
      expect(text?.text.length).toBeGreaterThan(20);
    });

  it("embeds the snapshot as a self-contained HTML table at ui://service/snapshot/{marketId}?release=…", async () => {
    const result = await client.callTool({
      name: "service_market_get_snapshot",
      arguments: { marketId: "object-storage" },
    });
    const embedded = (
      result.content as { type: string; resource?: { uri: string; mimeType: string; text: string } }[]
    ).find((c) => c.type === "resource")?.resource;
    const { release } = (await rest("/markets/object-storage/snapshot", accounts.reader.token)).body as {
      release: number;
    };
    expect(embedded?.uri).toBe(`ui://service/snapshot/object-storage?release=${release}`);
    expect(embedded?.mimeType).toBe("text/html");
    const html = embedded?.text ?? "";
    const snapshot = result.structuredContent as {
      name: string;
      methodology: string;
      products: { name: string; scores: { innovation: number }; bands: { innovation: string } }[];
    };
    expect(html).toContain(`<h1>${snapshot.name}</h1>`);
    expect(html.match(/<tr><th scope="row">/g)?.length).toBe(snapshot.products.length + 3); // products + 3 axes of bands
    const first = snapshot.products[0];
    expect(html).toContain(`${first?.scores.innovation}<span class="band">${first?.bands.innovation}</span>`);
    // Verbatim methodology (HTML-escaped only), and nothing that loads or runs anything.
    const escaped = snapshot.methodology
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#39;");
    expect(html).toContain(`<blockquote>${escaped}</blockquote>`);
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\//i);

    // Its own URI names the same page back.
    const again = await client.readResource({ uri: embedded?.uri as string });
    expect(again.contents[0]).toMatchObject({ uri: embedded?.uri, mimeType: "text/html", text: html });

    const before = (await dashboardCall(base, accounts.reader.session, "credits.summary")).data as { balance: number };
    const read = await client.readResource({ uri: "ui://service/snapshot/object-storage" });
    expect(read.contents[0]).toMatchObject({
      uri: "ui://service/snapshot/object-storage",
      mimeType: "text/html",
      text: html,
    });
    const after = (await dashboardCall(base, accounts.reader.session, "credits.summary")).data as { balance: number };
    expect(after.balance).toBe(before.balance - 5);
    await expect(client.readResource({ uri: "ui://service/snapshot/no-such-market" })).rejects.toThrow(/not_found/);
  });

  it("debits each reading as REST does, and says so in _meta", async () => {
    const before = (await dashboardCall(base, accounts.reader.session, "credits.summary")).data as { balance: number };
    const prices: [string, Record<string, unknown>, number][] = [
      ["service_market_get_snapshot", { marketId: "speech-to-text" }, 5],
      ["service_market_get_delta", { marketId: "speech-to-text", country: "FR" }, 3],
      ["service_market_get_servicemax", { marketId: "speech-to-text", country: "FR" }, 3],
      ["service_market_get_capaindex", { marketId: "speech-to-text" }, 2],
      ["service_markets_list", {}, 0],
    ];
    let balance = before.balance;
    for (const [name, args, price] of prices) {
      const result = await client.callTool({ name, arguments: args });
      balance -= price;
      expect(result._meta).toMatchObject({ credits: { cost: price, remaining: balance } });
    }
    const after = (await dashboardCall(base, accounts.reader.session, "credits.summary")).data as { balance: number };
    expect(after.balance).toBe(before.balance - 13);
  });

  it("answers bad input and unknown things with tool errors carrying the REST code and detail", async () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      [
        "service_market_get_delta",
        { marketId: "foundation-model-apis", country: "XX" },
        "invalid_request",
        "/markets/foundation-model-apis/delta?country=XX",
      ],
      ["service_market_get_snapshot", { marketId: "no-such-market" }, "not_found", "/markets/no-such-market/snapshot"],
      [
        "service_market_get_snapshot",
        { marketId: "foundation-model-apis", release: 99 },
        "not_found",
        "/markets/foundation-model-apis/snapshot?release=99",
      ],
      [
        "service_market_get_capaindex",
        { marketId: "vector-databases" },
        "not_found",
        "/markets/vector-databases/capaindex",
      ],
    ];
    for (const [name, args, code, path] of cases) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      const problem = JSON.parse((result.content as { text: string }[])[0]?.text ?? "{}");
      const expected = await rest(path, accounts.reader.token);
      // The same detail, except where it points to the operation to look things up with: REST
      // names its path, MCP its tool (tests/app/error-pointers.test.ts checks the wording).
      const withoutPointer = (detail: string) => detail.replace(/ (GET \/v1\S*|The tool service_\w+) [^.]*\.$/, "");
      expect({ code: problem.code, detail: withoutPointer(problem.detail) }).toEqual({
        code: expected.body.code,
        detail: withoutPointer(expected.body.detail),
      });
      expect(problem.detail.includes("/v1"), problem.detail).toBe(false);
      expect(problem.code).toBe(code);
    }
  });

  it("refuses malformed arguments without crashing or charging", async () => {
    const before = (await dashboardCall(base, accounts.reader.session, "credits.summary")).data as { balance: number };
    for (const args of [
      { marketId: "Not A Slug" },
      { marketId: 42 },
      {},
      { marketId: "x".repeat(500) },
      { marketId: "a", release: -1 },
    ]) {
      const result = await client.callTool({
        name: "service_market_get_snapshot",
        arguments: args as Record<string, unknown>,
      });
      expect(result.isError).toBe(true);
    }
    const after = (await dashboardCall(base, accounts.reader.session, "credits.summary")).data as { balance: number };
    expect(after.balance).toBe(before.balance);
  });
});

describe("MCP with other tokens", () => {
  it("refuses readings to a token without the scope with 403 and a scope challenge, and serves the free tools", async () => {
    const client = await connect(accounts.tokens.noScope);
    try {
      // A client with no way to step up (a bare bearer token) is told which scope it lacks.
      await expect(
        client.callTool({ name: "service_market_get_snapshot", arguments: { marketId: "object-storage" } }),
      ).rejects.toMatchObject({ name: "InsufficientScopeError", requiredScope: "Market.Read.All" });
      expect((await client.callTool({ name: "service_markets_list", arguments: {} })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const refusal = await scopeRefusal(base, accounts.tokens.noScope, "service_market_get_snapshot", {
      marketId: "object-storage",
    });
    expect(refusal.status).toBe(403);
    expect(refusal.challenge).toMatch(/^Bearer .*error="insufficient_scope".*scope="Market\.Read\.All"/);
    expect(refusal.challenge).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    expect(refusal.code).toBe("insufficient_scope");
  });

  it("answers insufficient_credits with cost and balance when the balance is short", async () => {
    const client = await connect(accounts.broke.token);
    try {
      const result = await client.callTool({
        name: "service_market_get_snapshot",
        arguments: { marketId: "object-storage" },
      });
      expect(result.isError).toBe(true);
      expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? "{}")).toMatchObject({
        code: "insufficient_credits",
        cost: 5,
        balance: 0,
      });
    } finally {
      await client.close();
    }
  });

  it("answers 401 problem+json with a Bearer challenge to no, bad, expired or revoked tokens", async () => {
    for (const authorization of [
      undefined,
      "Bearer nope",
      `Bearer ${accounts.tokens.expired}`,
      `Bearer ${accounts.tokens.revoked}`,
    ]) {
      const response = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...(authorization ? { Authorization: authorization } : {}),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      const challenge = response.headers.get("www-authenticate") as string;
      expect(challenge).toMatch(/^Bearer realm="market-positioning", /);
      expect(challenge).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
      expect(challenge).toContain('scope="Market.Read.All"');
      // RFC 6750 §3.1: an error code only when credentials were sent.
      expect(challenge.includes('error="invalid_token"')).toBe(authorization !== undefined);
      expect((await response.json()).code).toBe("unauthorized");
    }
    await expect(connect(`mps_${"B".repeat(43)}`)).rejects.toThrow();
  });
});
