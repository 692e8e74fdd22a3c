/**
 * Compressed answers on /v1 and /mcp, over raw HTTP (Node's client, which decompresses nothing by
 * itself): Brotli or gzip as asked, the bytes decompress to exactly the uncompressed answer, caches
 * told it varies by Accept-Encoding, the ETag weak and still answering If-None-Match either way,
 * a small body sent as it is, the same price; an MCP tool result's stream of events compressed too.
 */
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, inject, it } from "vitest";

const base = inject("appUrl");
const { reader } = inject("accounts");
const AVAILABILITY = "/v1/markets/foundation-model-apis/availability";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

function raw(path: string, headers: Record<string, string>, method = "GET", body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers: { Authorization: `Bearer ${reader.token}`, ...headers } });
    req.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const decoded = (answer: Raw) =>
  answer.headers["content-encoding"] === "br"
    ? brotliDecompressSync(answer.bytes)
    : answer.headers["content-encoding"] === "gzip"
      ? gunzipSync(answer.bytes)
      : answer.bytes;

describe("compressed answers on /v1", () => {
  it("sends the reading in the coding asked for, decompressing to exactly the plain answer, at the same price", async () => {
    const plain = await raw(AVAILABILITY, { "Accept-Encoding": "identity" });
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/Accept-Encoding/);
    for (const coding of ["br", "gzip"] as const) {
      const answer = await raw(AVAILABILITY, { "Accept-Encoding": coding });
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBe(coding);
      expect(Number(answer.headers["content-length"])).toBe(answer.bytes.byteLength);
      expect(decoded(answer).equals(plain.bytes)).toBe(true);
      expect(answer.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 4);
      expect(String(answer.headers.vary)).toMatch(/Accept-Encoding/);
      expect(answer.headers["x-credits-cost"]).toBe(plain.headers["x-credits-cost"]);
      console.log(
        `[compression] availability: ${plain.bytes.byteLength} bytes plain, ${answer.bytes.byteLength} ${coding}`,
      );
    }
  });

  it("weakens the ETag of a compressed answer, and If-None-Match matches either form for free", async () => {
    const plain = await raw(AVAILABILITY, {});
    const strong = String(plain.headers.etag);
    expect(strong).toMatch(/^"/);
    const compressed = await raw(AVAILABILITY, { "Accept-Encoding": "br" });
    expect(compressed.headers.etag).toBe(`W/${strong}`);
    for (const [held, coding] of [
      [strong, "br"],
      [`W/${strong}`, "br"],
      [`W/${strong}`, "identity"],
    ] as const) {
      const again = await raw(AVAILABILITY, { "Accept-Encoding": coding, "If-None-Match": held });
      expect(again.status, `${held} with ${coding}`).toBe(304);
      expect(again.bytes.byteLength).toBe(0);
      expect(again.headers["x-credits-cost"]).toBe("0");
    }
  });

  it("sends a small body as it is, and a HEAD says what its GET would be", async () => {
    const missing = await raw("/v1/markets/no-such-market", { "Accept-Encoding": "br" });
    expect(missing.status).toBe(404);
    expect(missing.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(missing.bytes.toString()).code).toBe("not_found");
    const head = await raw(AVAILABILITY, { "Accept-Encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("gzip");
    expect(head.bytes.byteLength).toBe(0);
  });
});

describe("compressed answers on /mcp", () => {
  it("compresses a tool result's stream of events, which decompresses to the same result", async () => {
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "service_market_get_availability", arguments: { marketId: "foundation-model-apis" } },
    });
    const headers = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-11-25",
    };
    const resultOf = (answer: Raw) => {
      const text = decoded(answer).toString();
      const data = text.split("\n").find((line) => line.startsWith("data: "));
      return JSON.parse(data?.slice(6) ?? "{}").result as { structuredContent: unknown; isError?: boolean };
    };
    const plain = await raw("/mcp", { ...headers, "Accept-Encoding": "identity" }, "POST", call);
    const gzipped = await raw("/mcp", { ...headers, "Accept-Encoding": "gzip" }, "POST", call);
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const [a, b] = [resultOf(plain), resultOf(gzipped)];
    expect(b.isError ?? false).toBe(false);
    expect(b.structuredContent).toEqual(a.structuredContent);
    console.log(
      `[compression] MCP availability: ${plain.bytes.byteLength} bytes plain, ${gzipped.bytes.byteLength} gzip`,
    );
    expect(gzipped.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 4);
  });
});
