/**
 * Serves a Fetch handler (Request → Response) on Node's HTTP server directly, without Next.js's
 * request pipeline: /v1 and /mcp are answered this way in production (server/startup/http-server.ts).
 * Next spends 0.5–1 ms of CPU on every request before a route handler runs; for a metered API call
 * whose own work is a cached reading and a batched debit, that was most of the cost, and during
 * one organization's burst it was everyone's queue.
 */

import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";

export type FetchHandler = (request: Request) => Promise<Response>;

/** Methods whose request may carry a body Node streams to us. */
const WITHOUT_BODY = new Set(["GET", "HEAD"]);

/**
 * A body up to this size is read whole before the Request is made: MCP's handlers read a POST's
 * body three times over (our log line, mcp-handler, the SDK), each through a clone, and a clone
 * of bytes in hand is a copy where a clone of a live stream is a tee. Larger bodies stream as they
 * come (the SDK refuses them past 4 MiB with its own 413).
 */
const BUFFERED_BODY_BYTES = 64 * 1024;

async function drain(rest: AsyncIterator<Buffer>): Promise<void> {
  for (let read = await rest.next(); !read.done; read = await rest.next());
}

/**
 * The body as bytes when it ends within BUFFERED_BODY_BYTES; else a stream of what was read and
 * the rest still to come, so nothing is lost and nothing large is held.
 */
async function bodyOf(incoming: IncomingMessage): Promise<Uint8Array | ReadableStream<Uint8Array>> {
  const chunks: Buffer[] = [];
  let size = 0;
  // One iterator throughout: leaving a for-await loop would destroy the stream, and its rest with it.
  const rest: AsyncIterator<Buffer> = incoming[Symbol.asyncIterator]();
  for (let read = await rest.next(); !read.done; read = await rest.next()) {
    const chunk = read.value;
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size > BUFFERED_BODY_BYTES) {
      return new ReadableStream<Uint8Array>({
        start(controller) {
          for (const read of chunks) controller.enqueue(read);
        },
        async pull(controller) {
          const next = await rest.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        // The rest is read and dropped (through the same iterator: resume() does nothing while one
        // reads), so the client can finish sending and read the answer (a 413, say).
        cancel: () => void drain(rest).catch(() => undefined),
      });
    }
  }
  return Buffer.concat(chunks, size);
}

/** The request as a Fetch Request, at `origin` (the URL's host is never read from the client). */
export async function fetchRequestOf(incoming: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const method = incoming.method ?? "GET";
  const body = WITHOUT_BODY.has(method) ? undefined : await bodyOf(incoming);
  return new Request(`${origin}${incoming.url ?? "/"}`, {
    method,
    headers,
    signal,
    ...(body === undefined ? {} : { body, duplex: "half" }),
  } as RequestInit);
}

/** Writes a Fetch Response: buffered when it is a document, streamed when it is a stream of events. */
export async function sendFetchResponse(answer: Response, outgoing: ServerResponse, method: string): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  if (!answer.body || method === "HEAD") {
    outgoing.writeHead(answer.status, headers).end();
    await answer.body?.cancel().catch(() => undefined);
    return;
  }
  if (answer.headers.get("content-type")?.startsWith("text/event-stream")) {
    outgoing.writeHead(answer.status, headers);
    outgoing.flushHeaders();
    await streamEvents(answer.body, outgoing);
    return;
  }
  const bytes = Buffer.from(await answer.arrayBuffer());
  headers["content-length"] = String(bytes.byteLength);
  outgoing.writeHead(answer.status, headers).end(bytes);
}

/**
 * Writes a stream of events as it comes, each chunk as soon as it is read, waiting when the client
 * reads slower; a client that leaves cancels the stream (its producer stops), a stream that fails
 * ends the connection.
 */
async function streamEvents(body: ReadableStream<Uint8Array>, outgoing: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const left = new Promise<"left">((resolve) => outgoing.once("close", () => resolve("left")));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), left]);
      if (next === "left") {
        await reader.cancel().catch(() => undefined);
        return;
      }
      if (next.done) break;
      if (!outgoing.write(next.value))
        if ((await Promise.race([once(outgoing, "drain").then(() => "drained" as const), left])) === "left") {
          await reader.cancel().catch(() => undefined);
          return;
        }
    }
    outgoing.end();
  } catch {
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
): Promise<void> {
  const abort = new AbortController();
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) abort.abort();
  });
  let request: Request;
  try {
    request = await fetchRequestOf(incoming, origin, abort.signal);
  } catch {
    // The client went away while sending its body (or it broke off): there is no one to answer.
    outgoing.destroy();
    return;
  }
  const answer = await handle(request);
  await sendFetchResponse(answer, outgoing, incoming.method ?? "GET");
}
