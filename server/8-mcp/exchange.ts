/**
 * A request to /mcp as the edge reads it, once, on entering the MCP room (`readMcpRequest`): its
 * method and headers through a small view, a POST's body read once and bounded, its JSON-RPC
 * message parsed, what the log line will say it asked for (method and tool), and how many of its
 * messages the edge counts against the rate limit; with the exchange the request's one log line
 * is written from (record.ts).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isJsonObject } from "../2-http/json-object";
import { nodeHeaders } from "../2-http/node-headers";
import { stampedOrigin } from "../2-http/origin";
import type { HeaderReader } from "../6-auth/caller";
import type { McpExchange, McpMessage } from "./call";
import { CHARTS_RESOURCE_URI } from "./views";

/** The largest MCP message read: tool calls and their arguments are a few hundred bytes. */
export const MCP_BODY_LIMIT = 1024 * 1024;

/** What the edge reads of a request: Node's message seen through a small view, its POST body read once. */
export interface McpRequest {
  method: string;
  /** The absolute URL, at the origin the server gave it (the public one comes from headers). */
  url: string;
  headers: HeaderReader;
  /** The public origin, when our server's door decided it already (server/2-http/origin.ts stampOrigin). */
  origin?: string;
  /** A POST's body; undefined for other methods and when it was larger than MCP_BODY_LIMIT. */
  body?: Buffer;
  /** A POST larger than MCP_BODY_LIMIT (its body was read and dropped). */
  tooLarge: boolean;
  /** A POST's body as JSON (one message or a batch), NOT_JSON when it is none; NOT_JSON for other methods. */
  message: unknown;
  /** How many of its messages the edge counts against the rate limit (messagesCountedAtTheEdge). */
  countedAtTheEdge: number;
  /** What the request did, gathered as it runs and said once its answer is sent (record.ts). */
  exchange: McpExchange;
  /** When it arrived (performance.now()). */
  started: number;
  /** The message as Node gave it, and its response: the SDK's Fetch request is made of them only when the SDK answers. */
  incoming: IncomingMessage;
  outgoing: ServerResponse;
  /** The origin the server gave the request. */
  serverOrigin: string;
}

/** The request to /mcp read once: headers, a POST's body and message, what it asks for and what the edge counts of it. */
export async function readMcpRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  serverOrigin: string,
): Promise<McpRequest> {
  const started = performance.now();
  const method = incoming.method ?? "GET";
  const body = method === "POST" ? await boundedBody(incoming, MCP_BODY_LIMIT) : undefined;
  const message = body ? parsedBody(body.toString("utf8")) : NOT_JSON;
  return {
    method,
    url: `${serverOrigin}${incoming.url ?? "/"}`,
    headers: nodeHeaders(incoming),
    origin: stampedOrigin(incoming),
    body: body ?? undefined,
    tooLarge: body === null,
    message,
    countedAtTheEdge: method === "POST" ? messagesCountedAtTheEdge(message) : 1,
    exchange: {
      requestId: randomUUID(),
      organizationId: null,
      message: body ? mcpMessageOf(message) : null,
      problem: null,
      tools: [],
    },
    started,
    incoming,
    outgoing,
    serverOrigin,
  };
}

/** The longest method or tool name kept in a log line (a client may send anything). */
const NAME_LIMIT = 100;

/**
 * A POST's body, or null when it is larger than `limit`: the rest is then read and dropped, not
 * cut off, since closing on a client still sending would reset the connection before it could
 * read the answer.
 */
export function boundedBody(incoming: IncomingMessage, limit: number): Promise<Buffer | null> {
  // Read by its events, not an async iterator: one promise per body, not one per chunk and more.
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (value: Buffer | null) => {
      // The error listener stays: a client that breaks off later must not make an unhandled 'error'.
      incoming.off("data", onData).off("end", onEnd);
      if (value === null) incoming.resume(); // what is left is read and dropped
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) finish(null);
      else chunks.push(chunk);
    };
    const onEnd = () => finish(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    // The client broke off while sending: what arrived is no message (answered as such).
    const onError = () => finish(Buffer.alloc(0));
    if (Number(incoming.headers["content-length"] ?? 0) > limit) {
      incoming.resume();
      resolve(null);
      return;
    }
    incoming.on("data", onData).on("end", onEnd).on("error", onError).on("aborted", onError);
  });
}

/** A POST's body as JSON, or NOT_JSON. */
export const NOT_JSON = Symbol("not JSON");

export function parsedBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** The method (and tool) of a POST's JSON-RPC message, from its parsed body. */
export function mcpMessageOf(body: unknown): McpMessage {
  if (body === NOT_JSON) return { rpcMethod: null, tool: null };
  if (Array.isArray(body)) return { rpcMethod: "batch", tool: null };
  if (!isJsonObject(body) || typeof body.method !== "string") return { rpcMethod: null, tool: null };
  const params = body.params;
  const tool =
    body.method === "tools/call" && isJsonObject(params) && typeof params.name === "string"
      ? params.name.slice(0, NAME_LIMIT)
      : null;
  return { rpcMethod: body.method.slice(0, NAME_LIMIT), tool };
}

/**
 * How many of a POST's JSON-RPC messages the edge counts against the caller's rate limit: every
 * message (each of a batch, notifications and responses too) but those a procedure counts when it
 * runs — tool calls, and reads of a reading link or the snapshot page. A body that is no JSON still
 * costs one: it was a request.
 */
export function messagesCountedAtTheEdge(body: unknown): number {
  if (body === NOT_JSON) return 1;
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return 1;
  return messages.filter((message) => !countedByAProcedure(message)).length;
}

function countedByAProcedure(message: unknown): boolean {
  if (!isJsonObject(message)) return false;
  if (message.method === "tools/call") return true;
  if (message.method !== "resources/read" || !isJsonObject(message.params)) return false;
  const uri = message.params.uri;
  // The chart view is a static page; every other resource is a reading a procedure serves.
  return typeof uri === "string" && !uri.startsWith(CHARTS_RESOURCE_URI);
}
