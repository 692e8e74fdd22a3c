/** The one log line and the metrics of one request to /mcp, once its answer is sent (edge.ts). */
import { MCP_PATH } from "../http/paths";
import { recordApiCall, UNKNOWN_OPERATION } from "../observability/calls";
import { serviceMetrics } from "../observability/metrics";
import type { McpExchange } from "./call";
import { operationOfMessage, rpcOutcomeOf } from "./exchange";

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
