/**
 * ETag reuse: readings are immutable per release, and a 304 costs no credits. This openapi-fetch
 * middleware remembers the ETag and body of each successful GET (per URL and Authorization) and
 * sends If-None-Match the next time; when the service answers 304 it hands the caller the
 * remembered body as a 200, so callers need no code of their own for it. `isNotModified(response)`
 * tells such an answer apart.
 */
import type { Middleware, MiddlewareCallbackParams } from "openapi-fetch";

export interface EtagCacheOptions {
  /** How many answers to remember at most; the least recently used goes first. Default 256. */
  maxEntries?: number;
  /**
   * How many body bytes to hold at most, all answers together; the least recently used go first,
   * and a body larger than this is not remembered. Default 32 MiB.
   */
  maxBytes?: number;
}

export type EtagCache = Middleware & {
  /** Answers remembered now. */
  readonly size: number;
  /** Body bytes held now. */
  readonly bytes: number;
  /** Forgets every remembered answer. */
  clear(): void;
};

interface Remembered {
  etag: string;
  body: ArrayBuffer;
  contentType: string | null;
}

export const DEFAULT_MAX_ENTRIES = 256;
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/** Responses built from a remembered body after a 304 (see isNotModified). */
const notModifiedAnswers = new WeakSet<Response>();

/**
 * Whether the service answered this call 304 Not Modified and the body is the one remembered from
 * an earlier call (which is why it cost nothing). Its headers are the 304's own.
 */
export function isNotModified(response: Response): boolean {
  return notModifiedAnswers.has(response);
}

// A 304 carries no body: what describes the remembered one is set from it instead.
const BODY_HEADERS = ["content-length", "content-encoding", "transfer-encoding", "content-type"];

const positiveInteger = (name: string, value: number) => {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
};

export function etagCache(options: EtagCacheOptions = {}): EtagCache {
  const maxEntries = positiveInteger("maxEntries", options.maxEntries ?? DEFAULT_MAX_ENTRIES);
  const maxBytes = positiveInteger("maxBytes", options.maxBytes ?? DEFAULT_MAX_BYTES);
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, Remembered>();
  let bytes = 0;
  // Requests this cache made conditional, each with the answer its If-None-Match names (a 304 to a
  // caller's own If-None-Match is theirs to handle).
  const conditioned = new WeakMap<Request, Remembered>();

  // One organization's answer must never be handed to another's token.
  const keyOf = (request: Request) => `${request.headers.get("authorization") ?? ""}\n${request.url}`;

  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.body.byteLength;
  };

  const remember = (key: string, entry: Remembered) => {
    forget(key);
    if (entry.body.byteLength > maxBytes) return;
    entries.set(key, entry);
    bytes += entry.body.byteLength;
    while (entries.size > maxEntries || bytes > maxBytes) forget(entries.keys().next().value as string);
  };

  return {
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
    onRequest({ request }: MiddlewareCallbackParams) {
      if (request.method !== "GET" || request.headers.has("if-none-match")) return undefined;
      const entry = entries.get(keyOf(request));
      if (!entry) return undefined;
      const headers = new Headers(request.headers);
      headers.set("If-None-Match", entry.etag);
      const conditional = new Request(request, { headers });
      conditioned.set(conditional, entry);
      return conditional;
    },
    async onResponse({ request, response, options: { parseAs } }: MiddlewareCallbackParams & { response: Response }) {
      if (request.method !== "GET") return undefined;
      const key = keyOf(request);
      if (response.status === 200) {
        const etag = response.headers.get("etag");
        // A caller who streams the body gets it as it comes: it is not read here first.
        if (etag && parseAs !== "stream") {
          const body = await response.clone().arrayBuffer();
          remember(key, { etag, body, contentType: response.headers.get("content-type") });
        } else forget(key);
        return undefined;
      }
      const entry = response.status === 304 ? conditioned.get(request) : undefined;
      if (!entry) return undefined;
      remember(key, entry);
      const headers = new Headers(response.headers);
      for (const name of BODY_HEADERS) headers.delete(name);
      if (entry.contentType) headers.set("content-type", entry.contentType);
      headers.set("content-length", String(entry.body.byteLength));
      const answer = new Response(entry.body.slice(0), { status: 200, statusText: "OK", headers });
      notModifiedAnswers.add(answer);
      return answer;
    },
  };
}
