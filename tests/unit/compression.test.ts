/**
 * Content negotiation and the headers of a compressed answer (server/2-http/compression.ts), by
 * RFC 9110 §12.5.3 and §8.8.1; the HTTP behaviour is tested against the running app in
 * tests/app/compression.test.ts.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  COMPRESS_MIN_BYTES,
  compressBody,
  compressedHeaders,
  compressNamedBody,
  isCompressible,
  negotiateEncoding,
  withVaryAcceptEncoding,
} from "@/server/2-http/compression";

describe("which coding an Accept-Encoding asks for", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["identity", null],
    ["gzip", "gzip"],
    ["br", "br"],
    ["gzip, deflate, br", "br"],
    ["gzip;q=1.0, br;q=0.5", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0, gzip;q=0", null],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["deflate", null],
    ["GZIP", "gzip"],
    ["br;q=abc, gzip", "gzip"],
  ])("%s → %s", (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe("what is worth compressing", () => {
  it("JSON and text from 1 KiB, a stream of events always, never an image", () => {
    expect(isCompressible("application/json", COMPRESS_MIN_BYTES)).toBe(true);
    expect(isCompressible("application/json; charset=utf-8", COMPRESS_MIN_BYTES - 1)).toBe(false);
    expect(isCompressible("application/problem+json", 5000)).toBe(true);
    expect(isCompressible("text/html; charset=utf-8", 5000)).toBe(true);
    expect(isCompressible("text/event-stream", 0)).toBe(true);
    expect(isCompressible("image/png", 50_000)).toBe(false);
    expect(isCompressible(undefined, 50_000)).toBe(false);
  });
});

describe("the headers of a compressed answer", () => {
  it("say the coding, vary by Accept-Encoding once, weaken the ETag and drop the old length", () => {
    expect(
      compressedHeaders(
        { Vary: "Authorization", ETag: '"abc"', "Content-Length": "5000", "Content-Type": "application/json" },
        "br",
      ),
    ).toEqual({
      Vary: "Authorization, Accept-Encoding",
      ETag: 'W/"abc"',
      "Content-Type": "application/json",
      "content-encoding": "br",
    });
    expect(withVaryAcceptEncoding({ vary: "Authorization, Accept-Encoding" })).toEqual({
      vary: "Authorization, Accept-Encoding",
    });
    expect(withVaryAcceptEncoding({})).toEqual({ vary: "Accept-Encoding" });
    expect(compressedHeaders({ etag: 'W/"x"' }, "gzip")).toMatchObject({ etag: 'W/"x"', "content-encoding": "gzip" });
  });

  it("compresses to bytes that decompress to the body", async () => {
    const body = JSON.stringify({ products: Array.from({ length: 200 }, (_, i) => ({ id: `p-${i}`, score: i / 3 })) });
    const br = await compressBody(body, "br");
    const gz = await compressBody(body, "gzip");
    expect(brotliDecompressSync(br).toString()).toBe(body);
    expect(gunzipSync(gz).toString()).toBe(body);
    expect(br.byteLength).toBeLessThan(body.length / 3);
  });
});

describe("a body named by a strong ETag", () => {
  it("is compressed once per coding and served from then on; without a strong ETag, afresh", async () => {
    const body = "x".repeat(5000);
    const first = compressNamedBody(body, "br", '"tag-1"');
    expect(compressNamedBody("another body under the same name", "br", '"tag-1"')).toBe(first);
    expect(brotliDecompressSync(await first).toString()).toBe(body);
    expect(compressNamedBody(body, "gzip", '"tag-1"')).not.toBe(first);
    const weak = compressNamedBody(body, "br", 'W/"tag-1"');
    expect(weak).not.toBe(first);
    expect(compressNamedBody(body, "br", 'W/"tag-1"')).not.toBe(weak);
    expect(compressNamedBody(body, "br", undefined)).not.toBe(compressNamedBody(body, "br", undefined));
  });
});
