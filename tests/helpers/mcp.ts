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
