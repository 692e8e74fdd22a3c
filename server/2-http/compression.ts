/**
 * Compressed answers on /v1 and /mcp (RFC 9110 §8.4, §12.5.3): Brotli or gzip when the client
 * asks for one and the body is worth it — JSON, problem+json, text or a stream of events, at
 * least COMPRESS_MIN_BYTES. The compressed answer says so (`Content-Encoding`), tells caches it
 * varies by `Accept-Encoding`, and its ETag becomes weak: the compressed bytes are the same
 * representation's data, not the same bytes, and If-None-Match compares weakly, so a client's
 * stored validator matches either way. Compression runs off the event loop (zlib's thread pool).
 */
import { promisify } from "node:util";
import {
  type BrotliCompress,
  brotliCompress,
  constants,
  createBrotliCompress,
  createGzip,
  type Gzip,
  gzip,
} from "node:zlib";

export type ContentCoding = "br" | "gzip";

/** Below this many bytes a body goes as it is: the saving would not pay for the work. */
export const COMPRESS_MIN_BYTES = 1024;

/** Brotli at quality 4: most of the saving (about 5× on readings) at a fraction of the default 11's cost. */
const BROTLI_QUALITY = 4;

const COMPRESSIBLE = /^(application\/(json|problem\+json|[\w.+-]+\+json)|text\/)/i;

/**
 * The coding to answer with for this Accept-Encoding: the one of br and gzip the client weighs
 * highest (br when they tie), or null for none (no header, `identity`, or both at q=0).
 */
export function negotiateEncoding(acceptEncoding: string | null | undefined): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (!coding) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(coding.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: ContentCoding) => weights.get(coding) ?? weights.get("*") ?? 0;
  const [best] = (["br", "gzip"] as const).filter((c) => weightOf(c) > 0).sort((a, b) => weightOf(b) - weightOf(a));
  return best ?? null;
}

/** Whether a body of this type is compressed (a stream of events whatever its length so far). */
export function isCompressible(contentType: string | null | undefined, length: number): boolean {
  const type = contentType ?? "";
  return type.startsWith("text/event-stream") || (COMPRESSIBLE.test(type) && length >= COMPRESS_MIN_BYTES);
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export function compressBody(body: Buffer | string, coding: ContentCoding): Promise<Buffer> {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  return coding === "br"
    ? brotli(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    : gzipped(bytes);
}

/**
 * The compressed bytes of a body its strong ETag names (the same bytes every time it is asked for:
 * a cached reading), compressed once per coding; the last COMPRESSED_KEPT are kept. Without a
 * strong ETag the body is compressed afresh.
 */
const COMPRESSED_KEPT = 64;
const compressedByTag = new Map<string, Promise<Buffer>>();

export function compressNamedBody(
  body: Buffer | string,
  coding: ContentCoding,
  etag: string | undefined,
): Promise<Buffer> {
  if (!etag || etag.startsWith("W/")) return compressBody(body, coding);
  const key = `${coding} ${etag}`;
  let bytes = compressedByTag.get(key);
  if (bytes) {
    compressedByTag.delete(key); // re-inserted below: most recently used last
  } else {
    bytes = compressBody(body, coding);
    bytes.catch(() => compressedByTag.delete(key));
  }
  compressedByTag.set(key, bytes);
  while (compressedByTag.size > COMPRESSED_KEPT) compressedByTag.delete(compressedByTag.keys().next().value as string);
  return bytes;
}

/** A compressor for a stream written piece by piece (each piece flushed, so events arrive whole). */
export function compressingStream(coding: ContentCoding): BrotliCompress | Gzip {
  return coding === "br"
    ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
    : createGzip();
}

type Headers = Record<string, string | string[]>;

/** The header's name as `headers` spells it, whatever the case. */
const nameIn = (headers: Headers, name: string) =>
  Object.keys(headers).find((key) => key.toLowerCase() === name) ?? name;

/** A header's value, whatever the case `headers` spells its name in. */
export function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[nameIn(headers, name)];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** `Vary` with Accept-Encoding added, once. */
export function withVaryAcceptEncoding(headers: Headers): Headers {
  const key = nameIn(headers, "vary");
  const current = headers[key];
  const values = (Array.isArray(current) ? current.join(", ") : (current ?? "")).split(",").map((v) => v.trim());
  if (values.some((v) => v.toLowerCase() === "accept-encoding" || v === "*")) return headers;
  return { ...headers, [key]: [...values.filter(Boolean), "Accept-Encoding"].join(", ") };
}

/** A strong ETag made weak (`"x"` → `W/"x"`); a weak one or none stays. */
export const weakened = (etag: string) => (etag.startsWith("W/") ? etag : `W/${etag}`);

/** The headers of an answer sent with `coding`: its encoding, Vary, a weak ETag, and no length (set by the caller). */
export function compressedHeaders(headers: Headers, coding: ContentCoding): Headers {
  const out: Headers = withVaryAcceptEncoding(headers);
  out[nameIn(out, "content-encoding")] = coding;
  const etagKey = Object.keys(out).find((key) => key.toLowerCase() === "etag");
  if (etagKey) out[etagKey] = weakened(String(out[etagKey]));
  const lengthKey = Object.keys(out).find((key) => key.toLowerCase() === "content-length");
  if (lengthKey) delete out[lengthKey];
  return out;
}
