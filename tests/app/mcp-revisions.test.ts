/**
 * Protocol revisions on /mcp, over raw HTTP as a client of each era would send them: the
 * 2026-07-28 revision (no handshake; version and capabilities in each request's _meta, the
 * MCP-Protocol-Version, Mcp-Method and Mcp-Name headers, server/discover, cache hints) and the
 * 2025 revisions' initialize negotiation, with the refusals each revision prescribes.
 */
import { describe, expect, inject, it } from "vitest";

const base = inject("appUrl");
const accounts = inject("accounts");
const MODERN = "2026-07-28";

interface RpcAnswer {
  status: number;
  headers: Headers;
  body: {
    id?: unknown;
    result?: Record<string, unknown> & { _meta?: Record<string, unknown> };
    error?: { code: number; message: string; data?: Record<string, unknown> };
  };
}

/** The JSON-RPC answer of one POST, read from JSON or from the SSE stream the server may choose. */
async function post(body: unknown, headers: Record<string, string>, token = accounts.reader.token): Promise<RpcAnswer> {
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      Authorization: `Bearer ${token}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get("content-type")?.includes("text/event-stream")
    ? (text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice(6)))
        .find((message) => "result" in message || "error" in message) ?? {})
    : JSON.parse(text || "{}");
  return { status: response.status, headers: response.headers, body: json };
}

const modernMeta = (version = MODERN) => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "revision-tests", version: "1.0.0" },
});

function modern(
  method: string,
  params: Record<string, unknown> = {},
  options: { version?: string; name?: string } = {},
) {
  const version = options.version ?? MODERN;
  return post(
    { jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: modernMeta(version) } },
    {
      "MCP-Protocol-Version": version,
      "Mcp-Method": method,
      ...(options.name ? { "Mcp-Name": options.name } : {}),
    },
  );
}

describe("the 2026-07-28 revision", () => {
  it("answers server/discover with the versions, capabilities and identity of the server", async () => {
    const answer = await modern("server/discover");
    expect(answer.status).toBe(200);
    const result = answer.body.result as Record<string, unknown>;
    expect(result.supportedVersions).toContain(MODERN);
    expect(result.capabilities).toMatchObject({ tools: expect.any(Object) });
    expect(result.resultType).toBe("complete");
    const serverInfo = (result._meta as Record<string, unknown>)["io.modelcontextprotocol/serverInfo"] as Record<
      string,
      unknown
    >;
    expect(serverInfo).toMatchObject({ name: "market-positioning", title: "Market Positioning" });
    expect(serverInfo.icons).toEqual([expect.objectContaining({ mimeType: "image/svg+xml" })]);
  });

  it("lists the tools in a stable order with public cache hints, the same for every caller", async () => {
    const first = await modern("tools/list");
    const again = await modern("tools/list");
    const result = first.body.result as { tools: { name: string }[]; ttlMs: number; cacheScope: string };
    expect(result.cacheScope).toBe("public");
    expect(result.ttlMs).toBeGreaterThan(0);
    expect(result.tools.map((t) => t.name)).toEqual(
      (again.body.result as { tools: { name: string }[] }).tools.map((t) => t.name),
    );
  });

  it("calls a tool with the revision's headers, as the 2025 revisions do", async () => {
    const answer = await modern(
      "tools/call",
      { name: "service_markets_list", arguments: {} },
      { name: "service_markets_list" },
    );
    expect(answer.status).toBe(200);
    const result = answer.body.result as { isError?: boolean; structuredContent?: { markets?: unknown[] } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.markets?.length).toBeGreaterThan(0);
  });

  it("refuses an unsupported version with the versions it supports", async () => {
    const answer = await modern("tools/list", {}, { version: "2099-01-01" });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.code).toBe(-32022);
    expect(answer.body.error?.data).toMatchObject({
      requested: "2099-01-01",
      supported: expect.arrayContaining([MODERN]),
    });
  });

  it("refuses a request whose headers disagree with its body", async () => {
    const answer = await post(
      { jsonrpc: "2.0", id: 8, method: "tools/list", params: { _meta: modernMeta() } },
      { "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call" },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error?.code).toBe(-32020);
  });
});

describe("the 2025 revisions", () => {
  const initialize = (protocolVersion: string) =>
    post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion, capabilities: {}, clientInfo: { name: "old-client", version: "1.0.0" } },
      },
      {},
    );

  it.each(["2025-11-25", "2025-06-18", "2025-03-26"])("agrees to %s when a client asks for it", async (version) => {
    const answer = await initialize(version);
    expect(answer.status).toBe(200);
    expect(answer.body.result?.protocolVersion).toBe(version);
    expect(answer.body.result?.serverInfo).toMatchObject({ name: "market-positioning", title: "Market Positioning" });
  });

  it("offers its latest 2025 revision to a client asking for one it does not know", async () => {
    const answer = await initialize("2024-01-01");
    expect(answer.status).toBe(200);
    expect(answer.body.result?.protocolVersion).toBe("2025-11-25");
  });

  it("refuses a later request carrying an unsupported MCP-Protocol-Version header", async () => {
    const answer = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
      { "MCP-Protocol-Version": "1999-12-31" },
    );
    expect(answer.status).toBe(400);
  });
});

describe("the server's icon", () => {
  it("is served at /icon.svg, the same image serverInfo carries as a data: URI", async () => {
    const response = await fetch(`${base}/icon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    const svg = await response.text();
    const discovered = await modern("server/discover");
    const meta = (discovered.body.result?._meta ?? {}) as Record<string, { icons: { src: string }[] }>;
    const serverInfo = meta["io.modelcontextprotocol/serverInfo"];
    const dataUri = serverInfo?.icons[0]?.src ?? "";
    expect(Buffer.from(dataUri.replace("data:image/svg+xml;base64,", ""), "base64").toString()).toBe(svg);
    expect(svg).toMatch(/^<svg /);
  });
});

describe("tokens spent for something", () => {
  /** A result's cost the way the budget counts it: bytes of the whole JSON-RPC answer ÷ 4. */
  const tokensOf = (answer: RpcAnswer) => Math.ceil(Buffer.byteLength(JSON.stringify(answer.body)) / 4);

  it("answers the first call of every session, the geographies, in at most 2,500 tokens", async () => {
    const answer = await modern(
      "tools/call",
      { name: "service_geographies_list", arguments: {} },
      { name: "service_geographies_list" },
    );
    expect(answer.status).toBe(200);
    console.log(`[mcp] service_geographies_list: ${tokensOf(answer)} tokens (detail=ids)`);
    expect(tokensOf(answer)).toBeLessThanOrEqual(2500);
    const full = await modern(
      "tools/call",
      { name: "service_geographies_list", arguments: { detail: "full" } },
      { name: "service_geographies_list" },
    );
    // The descriptions are there on request, and cost what they did.
    expect(tokensOf(full)).toBeGreaterThan(tokensOf(answer) * 2);
  });

  it("carries no icon on results: the server names itself with it once, on server/discover", async () => {
    const listed = await modern("tools/list");
    const called = await modern(
      "tools/call",
      { name: "service_markets_list", arguments: {} },
      { name: "service_markets_list" },
    );
    for (const answer of [listed, called]) {
      const serverInfo = answer.body.result?._meta?.["io.modelcontextprotocol/serverInfo"] as Record<string, unknown>;
      expect(serverInfo).toMatchObject({ name: "market-positioning", version: expect.any(String) });
      expect(serverInfo.icons).toBeUndefined();
      expect(JSON.stringify(answer.body)).not.toContain("data:image/svg+xml");
    }
  });

  it("sends the chart view, under 150 KB with no validator inside, public for an hour", async () => {
    const answer = await modern("resources/read", { uri: "ui://service/charts" }, { name: "ui://service/charts" });
    const result = answer.body.result as { contents: { text: string }[]; ttlMs: number; cacheScope: string };
    const html = result.contents[0]?.text ?? "";
    console.log(`[mcp] chart view: ${Buffer.byteLength(html)} bytes`);
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(150 * 1024);
    expect(html).not.toMatch(/ajv|cfworker|zod/i);
    expect(result).toMatchObject({ cacheScope: "public", ttlMs: 3_600_000 });
  });

  it("marks the snapshot's embedded page for the person, not the model", async () => {
    const answer = await modern(
      "tools/call",
      { name: "service_market_get_snapshot", arguments: { marketId: "speech-to-text" } },
      { name: "service_market_get_snapshot" },
    );
    const content = (answer.body.result as { content: { type: string; annotations?: { audience: string[] } }[] })
      .content;
    const page = content.find((c) => c.type === "resource");
    expect(page?.annotations?.audience).toEqual(["user"]);
  });

  it("answers an argument its schema refuses with the problem every tool error carries", async () => {
    for (const args of [
      { marketId: "foundation-model-apis", country: "Germany" },
      { marketId: "foundation-model-apis", minSeal: 9 },
      { marketId: "NOT A SLUG" },
    ]) {
      const answer = await modern(
        "tools/call",
        { name: "service_market_get_servicemax", arguments: args },
        { name: "service_market_get_servicemax" },
      );
      const result = answer.body.result as {
        isError: boolean;
        content: { text: string }[];
        _meta: { problem: { code: string; issues: { path: string }[] } };
      };
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(result._meta.problem.code).toBe("invalid_request");
      expect(result._meta.problem.issues.length).toBeGreaterThan(0);
      expect(JSON.parse(result.content[0]?.text ?? "{}")).toMatchObject({ code: "invalid_request", status: 400 });
      expect(result.content[0]?.text).not.toContain("Input validation error");
    }
  });
});
