/** Which POSTs to /mcp are the common tool call answered without an MCP server (server/8-mcp/fast-call.ts). */
import { describe, expect, it } from "vitest";
import { fastCallOf } from "@/server/8-mcp/fast-call";

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
};
const CALL = {
  jsonrpc: "2.0",
  id: 3,
  method: "tools/call",
  params: { name: "service_market_get_delta", arguments: { marketId: "foundation-model-apis", country: "fr" } },
};
const decide = (headers: Record<string, string | undefined>, message: unknown) =>
  fastCallOf(
    new Headers(Object.entries({ ...HEADERS, ...headers }).filter(([, v]) => v !== undefined) as [string, string][]),
    message,
  );

const MODERN_HEADERS = {
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": CALL.params.name,
};
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "agent", version: "1.0.0" },
};
const MODERN_CALL = { ...CALL, params: { ...CALL.params, _meta: ENVELOPE } };

describe("the common tool call of 2026-07-28", () => {
  it("carries exactly its envelope, and headers that agree with the body", () => {
    expect(decide(MODERN_HEADERS, MODERN_CALL)).toMatchObject({ modern: true, id: 3 });
    expect(decide({}, CALL)?.modern).toBe(false);
  });

  it("goes to the SDK with anything more or less, or headers that disagree", () => {
    const withMeta = (meta: Record<string, unknown>) => ({ ...CALL, params: { ...CALL.params, _meta: meta } });
    const cases: [string, Record<string, string | undefined>, unknown][] = [
      ["no envelope", MODERN_HEADERS, CALL],
      [
        "another version in the envelope",
        MODERN_HEADERS,
        withMeta({ ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2025-06-18" }),
      ],
      ["a progress token beside it", MODERN_HEADERS, withMeta({ ...ENVELOPE, progressToken: 1 })],
      ["no client info", MODERN_HEADERS, withMeta({ ...ENVELOPE, "io.modelcontextprotocol/clientInfo": undefined })],
      [
        "capabilities that are not an object",
        MODERN_HEADERS,
        withMeta({ ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": [] }),
      ],
      ["another Mcp-Name", { ...MODERN_HEADERS, "mcp-name": "service_markets_list" }, MODERN_CALL],
      ["no Mcp-Method", { ...MODERN_HEADERS, "mcp-method": undefined }, MODERN_CALL],
      ["the envelope on a 2025 revision", {}, MODERN_CALL],
    ];
    for (const [what, headers, message] of cases) expect(decide(headers, message), what).toBeUndefined();
  });
});

describe("the common tool call", () => {
  it("is a plain tools/call of one of our tools with valid arguments, its arguments parsed as the schema parses them", () => {
    const fast = decide({}, CALL);
    expect(fast?.definition.name).toBe("service_market_get_delta");
    expect(fast?.id).toBe(3);
    expect(fast?.args).toMatchObject({ marketId: "foundation-model-apis", country: "FR", view: "map" });
    expect(decide({ "mcp-protocol-version": "2025-03-26" }, { ...CALL, id: "a" })?.id).toBe("a");
    expect(decide({}, { ...CALL, params: { ...CALL.params, _meta: {} } })).toBeDefined();
  });

  it("is nothing else: those go to the SDK", () => {
    const cases: [string, Record<string, string | undefined>, unknown][] = [
      ["2026-07-28 without its envelope", { "mcp-protocol-version": "2026-07-28" }, CALL],
      ["no revision header", { "mcp-protocol-version": undefined }, CALL],
      ["an unknown revision", { "mcp-protocol-version": "2024-01-01" }, CALL],
      ["no event stream accepted", { accept: "application/json" }, CALL],
      ["another content type", { "content-type": "text/plain" }, CALL],
      ["another method", {}, { ...CALL, method: "tools/list" }],
      ["a batch", {}, [CALL]],
      ["a notification", {}, { ...CALL, id: undefined }],
      ["a null id", {}, { ...CALL, id: null }],
      ["a progress token", {}, { ...CALL, params: { ...CALL.params, _meta: { progressToken: 1 } } }],
      ["a task request", {}, { ...CALL, params: { ...CALL.params, task: { ttl: 1000 } } }],
      ["an unknown tool", {}, { ...CALL, params: { name: "nope", arguments: {} } }],
      ["arguments the schema refuses", {}, { ...CALL, params: { ...CALL.params, arguments: { marketId: 1 } } }],
      ["arguments that are not an object", {}, { ...CALL, params: { ...CALL.params, arguments: [] } }],
      ["not JSON-RPC 2.0", {}, { ...CALL, jsonrpc: "1.0" }],
    ];
    for (const [what, headers, message] of cases) expect(decide(headers, message), what).toBeUndefined();
  });
});
