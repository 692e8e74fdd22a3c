/**
 * Fetch's Request and Response on Node's HTTP server, without Next.js's request pipeline: the MCP
 * edge (server/8-mcp/edge.ts) hands the SDK a Fetch Request and writes its Response this way.
 * Next spends 0.5–1 ms of CPU on every request before a route handler runs; for a metered API call
 * whose own work is a cached reading and a batched debit, that was most of the cost, and during
 * one organization's burst it was everyone's queue.
 */

import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Writable } from "node:stream";
import {
  type ContentCoding,
  compressBody,
  compressedHeaders,
  compressingStream,
  headerValue,
  isCompressible,
  negotiateEncoding,
} from "../2-http/compression";

export type FetchHandler = (request: Request) => Promise<Response>;

/** Methods whose request may carry a body Node streams to us. */
const WITHOUT_BODY = new Set(["GET", "HEAD"]);

async function drain(rest: AsyncIterator<Buffer>): Promise<void> {
  for (let read = await rest.next(); !read.done; read = await rest.next());
}

/**
 * The body as a stream of what Node reads. A handler that stops reading early (MCP refusing a
 * message over its limit) cancels it: the rest is then read and dropped — through the same
 * iterator, since resume() does nothing while one reads — so the client can finish sending and
 * read the answer, where destroying the stream would reset the connection under it.
 */
function bodyOf(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  const rest: AsyncIterator<Buffer> = incoming[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await rest.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: () => void drain(rest).catch(() => undefined),
  });
}

/**
 * The request as a Fetch Request, at `origin` (the URL's host is never read from the client); its
 * body the one given when it was already read, else streamed from Node.
 */
export function fetchRequestOf(
  incoming: IncomingMessage,
  origin: string,
  signal: AbortSignal,
  readBody?: Buffer,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const method = incoming.method ?? "GET";
  const body = WITHOUT_BODY.has(method) ? undefined : (readBody ?? bodyOf(incoming));
  return new Request(`${origin}${incoming.url ?? "/"}`, {
    method,
    headers,
    signal,
    ...(body === undefined ? {} : { body, duplex: "half" }),
  } as RequestInit);
}

/**
 * Writes a Fetch Response: buffered when it is a document, streamed when it is a stream of events
 * still being made (one whose length is known is complete: it is sent as a document); compressed
 * (server/2-http/compression.ts) when the client accepts a coding and the body is worth it.
 */
export async function sendFetchResponse(
  answer: Response,
  outgoing: ServerResponse,
  method: string,
  acceptEncoding?: string,
): Promise<void> {
  let headers: Record<string, string | string[]> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  const coding = answer.headers.has("content-encoding") ? null : negotiateEncoding(acceptEncoding);
  if (!answer.body || method === "HEAD") {
    outgoing.writeHead(answer.status, headers).end();
    await answer.body?.cancel().catch(() => undefined);
    return;
  }
  if (answer.headers.get("content-type")?.startsWith("text/event-stream") && !answer.headers.has("content-length")) {
    if (coding) headers = compressedHeaders(headers, coding);
    outgoing.writeHead(answer.status, headers);
    outgoing.flushHeaders();
    await streamEvents(answer.body, outgoing, coding);
    return;
  }
  await sendDocument(outgoing, answer.status, headers, Buffer.from(await answer.arrayBuffer()), acceptEncoding);
}

/**
 * Writes a complete body — one buffer, or parts written in order without joining them — compressed
 * when the client accepts a coding and the body is worth it.
 */
export async function sendDocument(
  outgoing: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  body: Buffer | Buffer[],
  acceptEncoding: string | undefined,
): Promise<void> {
  const coding = acceptEncoding && !headerValue(headers, "content-encoding") ? negotiateEncoding(acceptEncoding) : null;
  let [sent, parts] = [headers, Array.isArray(body) ? body : [body]];
  if (coding && isCompressible(headerValue(headers, "content-type"), byteLengthOf(parts))) {
    sent = compressedHeaders(headers, coding);
    parts = [await compressBody(Buffer.concat(parts), coding)];
  }
  outgoing.writeHead(status, { ...sent, [lengthKeyOf(sent)]: String(byteLengthOf(parts)) });
  outgoing.cork();
  for (let i = 0; i < parts.length - 1; i += 1) outgoing.write(parts[i]);
  outgoing.end(parts.at(-1));
}

function byteLengthOf(parts: Buffer[]): number {
  let sum = 0;
  for (const part of parts) sum += part.byteLength;
  return sum;
}

/** The name the headers give Content-Length, in whatever case; "content-length" when they have none. */
function lengthKeyOf(headers: Record<string, string | string[]>): string {
  for (const key in headers) if (key.length === 14 && key.toLowerCase() === "content-length") return key;
  return "content-length";
}

/**
 * Writes a stream of events as it comes, each chunk as soon as it is read (through a compressor
 * flushed after each, when `coding`), waiting when the client reads slower; a client that leaves
 * cancels the stream (its producer stops), a stream that fails ends the connection.
 */
async function streamEvents(
  body: ReadableStream<Uint8Array>,
  outgoing: ServerResponse,
  coding: ContentCoding | null,
): Promise<void> {
  const reader = body.getReader();
  const left = new Promise<"left">((resolve) => outgoing.once("close", () => resolve("left")));
  const compressor = coding ? compressingStream(coding) : null;
  compressor?.on("error", () => outgoing.destroy());
  compressor?.pipe(outgoing);
  const sink: Writable = compressor ?? outgoing;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), left]);
      if (next === "left") {
        await reader.cancel().catch(() => undefined);
        compressor?.destroy();
        return;
      }
      if (next.done) break;
      const room = sink.write(next.value);
      compressor?.flush();
      if (!room)
        if ((await Promise.race([once(sink, "drain").then(() => "drained" as const), left])) === "left") {
          await reader.cancel().catch(() => undefined);
          compressor?.destroy();
          return;
        }
    }
    sink.end();
  } catch {
    compressor?.destroy();
    outgoing.destroy();
  }
}

/**
 * Answers one request with `handle`. A client that goes away aborts the Request's signal, so work
 * that listens for it stops. A handler that throws rejects this (it never should: the API handlers
 * turn every failure into their own protocol's error); the caller answers it.
 */
export async function serveFetch(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  origin: string,
  handle: FetchHandler,
  readBody?: Buffer,
): Promise<void> {
  const abort = new AbortController();
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) abort.abort();
  });
  const answer = await handle(fetchRequestOf(incoming, origin, abort.signal, readBody));
  await sendFetchResponse(answer, outgoing, incoming.method ?? "GET", incoming.headers["accept-encoding"]);
}
