/** One MCP tool call with a bearer token, through the SDK's own client over Streamable HTTP. */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

export interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: {
    credits?: { cost: number; remaining: number };
    problem?: { code: string; detail: string; createOrganizationUrl?: string };
  };
  content: { type: string; text?: string }[];
}

export async function callToolWithToken(
  base: string,
  token: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const client = new Client({ name: "mps-tests", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  try {
    return (await client.callTool({ name: tool, arguments: args })) as ToolResult;
  } finally {
    await client.close();
  }
}

/** How many times a client asks again after the pool's busy answer (each after a 2 s pause). */
const BUSY_TRIES = 5;

/** Whether a tool's error is the worker pool's busy answer (problem `unavailable`), which a client retries. */
export const isBusyAnswer = (result: Pick<ToolResult, "isError" | "content">) =>
  result.isError === true && /"code":"unavailable"/.test(result.content[0]?.text ?? "");

/**
 * A tools/call on a market of a thousand products, made as a client makes it: the service may
 * answer that its worker pool's queue is full (nothing debited) while other files read large
 * markets on a loaded machine, and the client asks again a few times. Any other answer is returned.
 */
export async function callToolComingBack(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  let result = (await client.callTool({ name: tool, arguments: args })) as ToolResult;
  for (let attempt = 1; isBusyAnswer(result) && attempt < BUSY_TRIES; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    result = (await client.callTool({ name: tool, arguments: args })) as ToolResult;
  }
  return result;
}

/** One tools/call POSTed on its own, as a stateless client may send it: the raw HTTP answer. */
export function postToolCall(
  base: string,
  token: string,
  tool: string,
  args: Record<string, unknown>,
  id: string | number = 1,
): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-06-18",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } }),
  });
}

/** What a POST whose token lacks a tool's scope is answered: the status, the challenge and the problem. */
export async function scopeRefusal(base: string, token: string, tool: string, args: Record<string, unknown>) {
  const response = await postToolCall(base, token, tool, args);
  const body = (await response.json()) as { error?: { data?: { code?: string; scope?: string } } };
  return {
    status: response.status,
    challenge: response.headers.get("www-authenticate") ?? "",
    code: body.error?.data?.code,
    scope: body.error?.data?.scope,
  };
}
