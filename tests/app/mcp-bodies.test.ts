/**
 * /mcp bodies of every size and pace, over real HTTP: the bridge reads a small body whole before
 * the handlers see it and streams a large one, so both must answer exactly as before — a body
 * sent in pieces, one past the buffered size, and one past the SDK's own limit — and a paid tool
 * call is charged once whichever way its body came.
 */
import { request } from "node:http";
import { describe, expect, inject, it } from "vitest";
import { dashboardCall } from "../helpers/dashboard";

const base = inject("appUrl");
const accounts = inject("accounts");

const HEADERS = {
  Authorization: `Bearer ${accounts.uncertain.token}`,
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2025-06-18",
};

/** A capaindex tools/call, padded with `padding` characters in its _meta (which the server ignores). */
const toolCall = (padding: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 9,
    method: "tools/call",
    params: {
      name: "service_market_get_capaindex",
      arguments: { marketId: "foundation-model-apis" },
      _meta: { padding: "x".repeat(padding) },
    },
  });

/**
 * POSTs `body` in `pieces` writes, `pauseMs` apart (with its Content-Length, or chunked without
 * one); resolves with the status and text of the answer.
 */
function postInPieces(
  body: string,
  pieces: number,
  pauseMs: number,
  { chunked = false } = {},
): Promise<{ status: number; text: string }> {
  const url = new URL(`${base}/mcp`);
  const bytes = Buffer.from(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: chunked ? HEADERS : { ...HEADERS, "Content-Length": bytes.length },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        incoming.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    const size = Math.ceil(bytes.length / pieces);
    let sent = 0;
    const next = () => {
      outgoing.write(bytes.subarray(sent, sent + size));
      sent += size;
      if (sent < bytes.length) setTimeout(next, pauseMs);
      else outgoing.end();
    };
    next();
  });
}

const balance = async () =>
  ((await dashboardCall(base, accounts.uncertain.session, "credits.summary")).data as { balance: number }).balance;

/** The tool result in an answer that may be JSON or a stream of events. */
function resultOf(text: string): { structuredContent?: { products?: unknown[] }; isError?: boolean } | undefined {
  const json = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((line) => line.startsWith("data: "))
        ?.slice(6) ?? "{}");
  return (JSON.parse(json) as { result?: ReturnType<typeof resultOf> }).result;
}

describe("/mcp request bodies", () => {
  it.each([
    ["whole, in one write", 0, 1],
    ["in eight pieces, 20 ms apart", 0, 8],
    ["past the size read whole (200 KiB), streamed", 200 * 1024, 4],
  ])("answers a tool call sent %s, charging it once", async (_, padding, pieces) => {
    const before = await balance();
    const answer = await postInPieces(toolCall(padding), pieces, 20);
    expect(answer.status).toBe(200);
    const result = resultOf(answer.text);
    expect(result?.isError).toBeFalsy();
    expect(result?.structuredContent?.products?.length).toBeGreaterThan(0);
    expect(await balance()).toBe(before - 2);
  });

  it.each([
    ["with its Content-Length", false],
    ["chunked, its size unsaid", true],
  ])("refuses a message over 1 MiB sent %s with 413 problem+json, uncharged", async (_, chunked) => {
    const before = await balance();
    const answer = await postInPieces(toolCall(2 * 1024 * 1024), 16, 0, { chunked });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toMatchObject({ status: 413, code: "request_too_large" });
    expect(await balance()).toBe(before);
  });
});
