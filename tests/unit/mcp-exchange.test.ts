/** How the MCP edge tells what a POST asked for and how its answer ended, for logs and metrics. */
import { describe, expect, it } from "vitest";
import { mcpMessageOf, NOT_JSON, parsedBody } from "@/server/8-mcp/exchange";
import { operationOfMessage, rpcOutcomeOf, whenSent } from "@/server/8-mcp/record";

const post = (body: string) => mcpMessageOf(parsedBody(body));
const bytes = (text: string) => [new TextEncoder().encode(text)];

describe("the message of a POST", () => {
  it("reads the JSON-RPC method and, for tools/call, the tool", () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "service_markets_list" },
    });
    expect(post(body)).toEqual({ rpcMethod: "tools/call", tool: "service_markets_list" });
    expect(post('{"jsonrpc":"2.0","id":1,"method":"initialize"}')).toEqual({ rpcMethod: "initialize", tool: null });
  });

  it("says nothing it cannot read: no JSON, no method, a batch", () => {
    expect(parsedBody("{not json")).toBe(NOT_JSON);
    expect(post("{not json")).toEqual({ rpcMethod: null, tool: null });
    expect(post('{"id":1}')).toEqual({ rpcMethod: null, tool: null });
    expect(post("[]")).toEqual({ rpcMethod: "batch", tool: null });
    const long = post(JSON.stringify({ method: "x".repeat(500) }));
    expect(long?.rpcMethod).toHaveLength(100);
  });

  it("counts a message under a tool's operation, a known MCP method, or nothing", () => {
    expect(operationOfMessage({ rpcMethod: "tools/call", tool: "service_market_get_delta" })).toBe("readings.delta");
    expect(operationOfMessage({ rpcMethod: "tools/call", tool: "no_such_tool" })).toBe("tools/call");
    expect(operationOfMessage({ rpcMethod: "tools/list", tool: null })).toBe("tools/list");
    expect(operationOfMessage({ rpcMethod: "made/up", tool: null })).toBeNull();
    expect(operationOfMessage({ rpcMethod: null, tool: null })).toBeNull();
    expect(operationOfMessage(null)).toBeNull();
  });
});

describe("the outcome read back from an answer", () => {
  it("finds a JSON-RPC error or a tool error, in JSON or in server-sent events", () => {
    expect(rpcOutcomeOf(bytes('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}'))).toEqual({
      rpcError: -32602,
      toolError: null,
    });
    const events = 'event: message\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[],"isError":true}}\n\n';
    expect(rpcOutcomeOf(bytes(events))).toEqual({ rpcError: null, toolError: true });
    expect(rpcOutcomeOf(bytes('data: {"result":{"tools":[]}}\n\n'))).toEqual({ rpcError: null, toolError: null });
    expect(rpcOutcomeOf(bytes("data: {broken\n\n"))).toEqual({ rpcError: null, toolError: null });
    expect(rpcOutcomeOf(null)).toEqual({ rpcError: null, toolError: null });
  });
});

describe("whenSent", () => {
  it("passes the body through unchanged and tells once, with its bytes, when it was sent", async () => {
    const ended: (Uint8Array[] | null)[] = [];
    const original = new Response("data: one\n\ndata: two\n\n", {
      status: 201,
      headers: { "Content-Type": "text/event-stream", "X-Extra": "1" },
    });
    const response = whenSent(original, (body) => ended.push(body));
    expect(ended).toEqual([]);
    expect(response.status).toBe(201);
    expect(response.headers.get("x-extra")).toBe("1");
    expect(await response.text()).toBe("data: one\n\ndata: two\n\n");
    expect(ended).toHaveLength(1);
    expect(Buffer.concat(ended[0] ?? []).toString()).toBe("data: one\n\ndata: two\n\n");
  });

  it("tells when the client goes away, and at once when there is no body", async () => {
    const ended: unknown[] = [];
    const stream = new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("x")) });
    const response = whenSent(new Response(stream), (body) => ended.push(body));
    await response.body?.cancel();
    expect(ended).toHaveLength(1);
    whenSent(new Response(null, { status: 202 }), (body) => ended.push(body));
    expect(ended).toEqual([expect.anything(), []]);
  });

  it("keeps no bytes of a large answer", async () => {
    let kept: Uint8Array[] | null | undefined;
    const response = whenSent(new Response("x".repeat(20_000)), (body) => {
      kept = body;
    });
    expect((await response.text()).length).toBe(20_000);
    expect(kept).toBeNull();
  });
});
