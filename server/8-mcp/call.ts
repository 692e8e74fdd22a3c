/**
 * What the MCP edge (edge.ts) learns of one request and hands each tool call: the caller it
 * authenticated, and the facts gathered for the request's one log line (record.ts).
 */
import type { Database } from "../../db/client";
import type { ErrorCode } from "../1-errors/codes";
import type { Authenticate, Caller } from "../6-auth/caller";

/** What a POST asked for, as its log line says it. */
export interface McpMessage {
  /** The JSON-RPC method, or "batch" for an array; null when the body is not a JSON-RPC message. */
  rpcMethod: string | null;
  /** For tools/call: the tool's name. */
  tool: string | null;
}

/** What one tool call did, for the POST's log line and the metrics. */
export interface ToolFacts {
  tool: string;
  operation: string;
  /** The tool call's own request id (in its _meta and the credits ledger). */
  requestId: string;
  isError: boolean;
  problem: ErrorCode | null;
  credits: { cost: number; balance: number } | null;
  error?: unknown;
}

/** What one HTTP request to /mcp did, gathered as it runs and said once its answer is sent. */
export interface McpExchange {
  requestId: string;
  organizationId: string | null;
  message: McpMessage | null;
  /** The edge's own refusal (401, 405, 503…). */
  problem: ErrorCode | null;
  error?: unknown;
  tools: ToolFacts[];
}

/** What the edge hands each tool call (through the SDK's AuthInfo.extra). */
export interface McpCall {
  db: Database;
  caller: Caller;
  /** The caller as a procedure's context asks for it: made once per request, not per tool call. */
  authenticated: Authenticate;
  origin: string;
  exchange: McpExchange;
}
