/**
 * What one POST to /mcp was and how it ended, for its log line and metrics: the JSON-RPC method
 * (and tool) it asked for, and — since the SDK may stream its answer as server-sent events after
 * the handler has returned — the moment the answer's body was fully sent, with the JSON-RPC
 * outcome read back from it when no tool of ours ran to say it; and its body, read once, bounded.
 */

import type { IncomingMessage } from "node:http";
import { TOOLS } from "./tools";
import { CHARTS_RESOURCE_URI } from "./views";

/** JSON-RPC methods of MCP, as metric labels; anything else a client sends is counted as unknown. */
const MCP_METHODS = new Set([
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "subscriptions/listen",
  "server/discover",
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
]);

/** The longest method or tool name kept in a log line (a client may send anything). */
const NAME_LIMIT = 100;

export interface McpMessage {
  /** The JSON-RPC method, or "batch" for an array; null when the body is not a JSON-RPC message. */
  rpcMethod: string | null;
  /** For tools/call: the tool's name. */
  tool: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

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
  if (!isObject(body) || typeof body.method !== "string") return { rpcMethod: null, tool: null };
  const params = body.params;
  const tool =
    body.method === "tools/call" && isObject(params) && typeof params.name === "string"
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
  if (!isObject(message)) return false;
  if (message.method === "tools/call") return true;
  if (message.method !== "resources/read" || !isObject(message.params)) return false;
  const uri = message.params.uri;
  // The chart view is a static page; every other resource is a reading a procedure serves.
  return typeof uri === "string" && !uri.startsWith(CHARTS_RESOURCE_URI);
}

/**
 * The operation a message is counted under when no tool of ours ran: a known tool's operation
 * (its arguments were refused before it ran), else a known MCP method, else null.
 */
export function operationOfMessage(message: McpMessage | null): string | null {
  if (!message?.rpcMethod) return null;
  const tool = message.tool ? TOOLS.find((t) => t.name === message.tool) : undefined;
  if (tool) return tool.operation.name;
  return MCP_METHODS.has(message.rpcMethod) ? message.rpcMethod : null;
}

/** How much of an answer is kept to read its outcome back: refusals and errors are small. */
const KEPT_BYTES = 16_384;

/**
 * The same response, whose body tells `ended` when it has been sent in full (or the client went
 * away), with its bytes when they were few enough to keep.
 */
export function whenSent(response: Response, ended: (body: Uint8Array[] | null) => void): Response {
  const source = response.body;
  if (!source) {
    ended([]);
    return response;
  }
  const reader = source.getReader();
  const kept: Uint8Array[] = [];
  let size = 0;
  let over = false;
  const finish = () => {
    if (over) return;
    over = true;
    ended(size <= KEPT_BYTES ? kept : null);
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          finish();
          return;
        }
        size += value.byteLength;
        if (size <= KEPT_BYTES) kept.push(value);
        controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        finish();
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export interface RpcOutcome {
  /** A JSON-RPC error's code. */
  rpcError: number | null;
  /** Whether a tool result said isError. */
  toolError: boolean | null;
}

/** Reads the JSON-RPC answer back from a body (JSON, or server-sent events carrying JSON). */
export function rpcOutcomeOf(body: Uint8Array[] | null): RpcOutcome {
  const outcome: RpcOutcome = { rpcError: null, toolError: null };
  if (!body || body.length === 0) return outcome;
  const text = Buffer.concat(body).toString("utf8").trim();
  const payloads = /^[[{]/.test(text)
    ? [text]
    : text
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5));
  for (const payload of payloads) {
    let message: unknown;
    try {
      message = JSON.parse(payload);
    } catch {
      continue;
    }
    for (const item of Array.isArray(message) ? message : [message]) {
      if (!isObject(item)) continue;
      if (isObject(item.error) && typeof item.error.code === "number") outcome.rpcError ??= item.error.code;
      if (isObject(item.result) && typeof item.result.isError === "boolean") outcome.toolError ??= item.result.isError;
    }
  }
  return outcome;
}
