/**
 * One /v1 or /mcp call, said once at its end: a log line with its facts, and the request metrics.
 * The surfaces gather the facts (server/7-procedures/context.ts CallFacts, the MCP edge's exchange)
 * and hand them here; request headers are never among them.
 */

import type { Logger } from "pino";
import { accessLog, errorFields, log, NO_FAILURE, writeInfoLine } from "./logger";
import { type Surface, serviceMetrics } from "./metrics";

/** Names the metrics and logs use when no operation could be told (an unknown path, say). */
export const UNKNOWN_OPERATION = "unknown";

export interface ApiCall {
  surface: Surface;
  /** The id the answer carries (X-Request-Id, the problem's requestId). */
  requestId: string;
  /** The HTTP method. */
  method: string;
  /** The URL's path, never its query. */
  path: string;
  /** The operation's name (server/1-domain/operations.ts), an MCP method, or UNKNOWN_OPERATION. */
  operation: string;
  /** The organization billed, once the caller is known. */
  organizationId: string | null;
  /** The HTTP status. */
  status: number;
  /** The problem code of a failure. */
  problem: string | null;
  durationMs: number;
  /** A metered call's cost (0 for a 304) and the balance after it. */
  credits: { cost: number; balance: number } | null;
  /** MCP only: the JSON-RPC exchange and the tool call. */
  mcp?: {
    rpcMethod: string | null;
    tool: string | null;
    toolError: boolean | null;
    toolRequestId: string | null;
    rpcError: number | null;
  };
  /** What failed: an internal error is logged with its stack, others by message. */
  error?: unknown;
}

export function recordApiCall(call: ApiCall, metrics = serviceMetrics(), logger?: Logger): void {
  metrics.request(call.surface, call.operation, call.status, call.durationMs / 1000);
  const { mcp } = call;
  const failure = errorFields(call.problem, call.error);
  // Written out, not spread: the line's fields in the order of ApiCall, in one shape per surface.
  const line: Record<string, unknown> = {
    surface: call.surface,
    requestId: call.requestId,
    method: call.method,
    path: call.path,
    operation: call.operation,
    organizationId: call.organizationId,
    status: call.status,
    problem: call.problem,
    durationMs: Math.round(call.durationMs * 100) / 100,
    credits: call.credits,
  };
  if (mcp) {
    line.rpcMethod = mcp.rpcMethod;
    line.tool = mcp.tool;
    line.toolError = mcp.toolError;
    line.toolRequestId = mcp.toolRequestId;
    line.rpcError = mcp.rpcError;
  }
  if (failure !== NO_FAILURE) Object.assign(line, failure);
  // An error may carry anything (a cause's URL, a driver's parameters): that line is redacted.
  const to = logger ?? (failure === NO_FAILURE ? accessLog() : log());
  const message = `${call.method} ${call.path} ${call.status}`;
  const failed = call.status >= 500 || call.problem === "internal_error" || call.problem === "unavailable";
  if (failed) to.error(line, message);
  else if (failure === NO_FAILURE) writeInfoLine(to, line, message);
  else to.info(line, message);
}
