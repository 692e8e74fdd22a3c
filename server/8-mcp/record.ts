/**
 * The one log line and the metrics of one request to /mcp, once its answer is sent (edge.ts): and,
 * since the SDK may stream its answer as server-sent events after the handler has returned, the
 * moment the answer's body was fully sent, with the JSON-RPC outcome read back from it when no tool
 * of ours ran to say it.
 */

import { isJsonObject } from "../2-http/json-object";
import { MCP_PATH } from "../2-http/paths";
import { recordApiCall, UNKNOWN_OPERATION } from "../3-observability/calls";
import { serviceMetrics } from "../3-observability/metrics";
import type { McpExchange, McpMessage } from "./call";
import { TOOLS } from "./tools";

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

/** One log line and the metrics of one request, once its answer is sent. */
export function recordExchange(
  method: string,
  status: number,
  exchange: McpExchange,
  body: Uint8Array[] | null,
  durationMs: number,
): void {
  const tool = exchange.tools[0];
  const { message } = exchange;
  // Without a tool of ours, the answer says how it went: a JSON-RPC error, or a tool error the SDK gave.
  const outcome = tool || !message ? { rpcError: null, toolError: null } : rpcOutcomeOf(body);
  const operation = tool?.operation ?? operationOfMessage(message) ?? UNKNOWN_OPERATION;
  const toolError = tool ? tool.isError : outcome.toolError;
  recordApiCall({
    surface: "mcp",
    requestId: exchange.requestId,
    method,
    path: MCP_PATH,
    operation,
    organizationId: exchange.organizationId,
    status,
    problem: exchange.problem ?? tool?.problem ?? null,
    durationMs,
    credits: tool?.credits ?? null,
    mcp: {
      rpcMethod: message?.rpcMethod ?? null,
      tool: tool?.tool ?? message?.tool ?? null,
      toolError,
      toolRequestId: tool?.requestId ?? null,
      rpcError: outcome.rpcError,
    },
    error: exchange.error ?? tool?.error,
  });
  if (message?.rpcMethod === "tools/call")
    serviceMetrics().toolCall(operation, tool ? (tool.problem ?? "ok") : "refused");
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
      if (!isJsonObject(item)) continue;
      if (isJsonObject(item.error) && typeof item.error.code === "number") outcome.rpcError ??= item.error.code;
      if (isJsonObject(item.result) && typeof item.result.isError === "boolean")
        outcome.toolError ??= item.result.isError;
    }
  }
  return outcome;
}
