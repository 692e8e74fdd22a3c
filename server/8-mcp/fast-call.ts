/**
 * The plain tool call, answered by the edge (edge.ts) without building an MCP server for it. A stateless MCP endpoint
 * builds a new server and transport for every POST (mcp-handler and the SDK): registering the
 * tools, connecting, routing the message, validating, framing the answer. A CPU profile put that
 * at more than half of a metered snapshot call, and the bare SDK alone, with one tool and no work,
 * ran at 0.7–0.9× our REST call: MCP could not reach REST's speed through it.
 *
 * So the most common message of all — one `tools/call` of one of our tools, with valid arguments —
 * is told here (`answerPlainCall`: checked, run and framed in one entry), and answered by the same
 * tool run the SDK's handler calls (results.ts), framed exactly as the SDK frames it: for a 2025 revision one `message` event; for 2026-07-28, whose request carries its envelope
 * (version, capabilities, client) in `_meta` and its method and tool in headers, one JSON body whose
 * `_meta` says who the server is and whose `resultType` is "complete". Anything else — another
 * method, a batch, anything more in `_meta` (a progress token, a task request), arguments the schema
 * refuses or the tool does not take, an unknown tool, an envelope or header that does not agree, no or an unknown revision
 * header, an Accept without both kinds — goes to the SDK as before, so every refusal and every
 * protocol rule stays the SDK's. A test holds the two paths to the same answers for every tool on
 * every revision.
 */

import { isJsonObject } from "../2-http/json-object";
import type { McpCall } from "./call";
import { RESULT_SERVER_INFO } from "./identity";
import { RESULT_JSON, runCheckedTool } from "./results";
import type { ToolDefinition } from "./tools";
import { TOOLS, unknownArguments } from "./tools";

const MODERN = "2026-07-28";

/** The revisions answered here. */
export const FAST_REVISIONS: ReadonlySet<string> = new Set(["2025-03-26", "2025-06-18", "2025-11-25", MODERN]);

const TOOLS_BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));

/** The keys a plain tool call's params may have. */
const PLAIN_PARAMS = new Set(["name", "arguments", "_meta"]);

/** The 2026-07-28 request envelope, in `params._meta`: all of it, and nothing else, for a call answered here. */
const ENVELOPE = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
} as const;

export interface FastCall {
  id: string | number;
  definition: ToolDefinition;
  /** The arguments as the tool's input schema parsed them (what the SDK hands its handler), none unknown. */
  args: unknown;
  modern: boolean;
}

type HeaderReader = { get(name: string): string | null };

/** Whether `_meta` is what a call answered here may carry: nothing (2025), or exactly a well-formed envelope (2026-07-28). */
function plainMeta(meta: unknown, modern: boolean): boolean {
  if (!modern) return meta === undefined || (isJsonObject(meta) && Object.keys(meta).length === 0);
  if (!isJsonObject(meta) || Object.keys(meta).length !== 3) return false;
  const info = meta[ENVELOPE.clientInfo];
  return (
    meta[ENVELOPE.protocolVersion] === MODERN &&
    isJsonObject(meta[ENVELOPE.clientCapabilities]) &&
    isJsonObject(info) &&
    typeof info.name === "string" &&
    typeof info.version === "string"
  );
}

/** The call when this POST is the common case answered here; undefined for everything else. */
export function fastCallOf(headers: HeaderReader, message: unknown): FastCall | undefined {
  const revision = headers.get("mcp-protocol-version") ?? "";
  if (!FAST_REVISIONS.has(revision)) return undefined;
  const modern = revision === MODERN;
  const accept = headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  if (!/^application\/json\s*(;|$)/i.test(headers.get("content-type") ?? "")) return undefined;
  if (!isJsonObject(message) || message.jsonrpc !== "2.0" || message.method !== "tools/call") return undefined;
  const { id, params } = message;
  if (typeof id !== "string" && !(typeof id === "number" && Number.isSafeInteger(id))) return undefined;
  if (!isJsonObject(params) || Object.keys(params).some((key) => !PLAIN_PARAMS.has(key))) return undefined;
  if (!plainMeta(params._meta, modern)) return undefined;
  if (modern && (headers.get("mcp-method") !== "tools/call" || headers.get("mcp-name") !== params.name))
    return undefined;
  const definition = typeof params.name === "string" ? TOOLS_BY_NAME.get(params.name) : undefined;
  if (!definition) return undefined;
  if (params.arguments !== undefined && !isJsonObject(params.arguments)) return undefined;
  // Arguments the tool does not take are refused by runTool, after the SDK's own checks.
  if (params.arguments !== undefined && unknownArguments(definition, params.arguments).length > 0) return undefined;
  const parsed = definition.input.safeParse(params.arguments ?? {});
  if (!parsed.success) return undefined;
  return { id, definition, args: parsed.data, modern };
}

/** The headers the SDK's stateless transport answers a 2025 request with: a stream of events. */
const EVENT_STREAM_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
};

/** The headers the SDK answers a 2026-07-28 request with: one JSON body. */
const JSON_HEADERS = { "Content-Type": "application/json" };

/** What the SDK adds to a 2026-07-28 result's `_meta`: who answers. */
const SERVER_INFO_META = { "io.modelcontextprotocol/serverInfo": RESULT_SERVER_INFO };

export interface FastAnswer {
  /** One of two constant objects, one per framing: the edge keeps what it adds to each by identity. */
  headers: Record<string, string>;
  /** The body in parts, to write in order. */
  parts: Buffer[];
}

/**
 * A result's keys in the order the SDK writes them (its CallToolResult schema: `_meta`, `content`,
 * `structuredContent`, `isError`, then any other), so the bytes are the SDK's, not only the values.
 */
function inSdkOrder(result: Record<string, unknown>, meta: Record<string, unknown>): Record<string, unknown> {
  const { _meta, content, structuredContent, isError, ...others } = result;
  return { _meta: meta, content, structuredContent, isError, ...others };
}

/** The answer to a call as the SDK frames it for the call's revision. */
function fastAnswer(call: FastCall, result: { _meta?: Record<string, unknown> }): FastAnswer {
  const meta = call.modern ? { ...result._meta, ...SERVER_INFO_META } : (result._meta ?? {});
  const [open, close] = call.modern ? ["", ""] : ["event: message\ndata: ", "\n\n"];
  const tail = `${call.modern ? ',"resultType":"complete"' : ""}},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}${close}`;
  const made = (result as { [RESULT_JSON]?: Buffer })[RESULT_JSON];
  const body = made
    ? [Buffer.from(`${open}{"result":{"_meta":${JSON.stringify(meta)},`), made, Buffer.from(tail)]
    : [Buffer.from(`${open}{"result":${JSON.stringify(inSdkOrder(result, meta)).slice(0, -1)}${tail}`)];
  return { headers: call.modern ? JSON_HEADERS : EVENT_STREAM_HEADERS, parts: body };
}

/**
 * A plain tool call answered here, in one entry: told apart from every other message, its tool
 * run with the arguments checked once (results.ts), its result framed as the SDK frames it;
 * undefined for any other message, which the SDK's server answers (answer.ts).
 */
export async function answerPlainCall(
  headers: HeaderReader,
  message: unknown,
  call: McpCall,
): Promise<FastAnswer | undefined> {
  const plain = fastCallOf(headers, message);
  return plain && fastAnswer(plain, await runCheckedTool(plain.definition, plain.args, call));
}
