/**
 * The floor of an MCP tool call on this stack: mcp-handler and the MCP SDK answering a stateless
 * `tools/call` with the snapshot's bytes as its structured content — one tool, no authentication,
 * no procedure, no debit, no log line — served from Node by the app's own Fetch bridge, as /mcp is.
 * What is left is what the SDK does per request (a new server and transport, the JSON-RPC
 * exchange, the answer as a stream of events): the most any MCP tool call here can do.
 * Prints its URL, then serves until killed.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { createMcpHandler } from "mcp-handler";
import { z } from "zod";
import { serveFetch } from "@/server/5-http-server/fetch-bridge";

const snapshot = JSON.parse(readFileSync(path.join(process.env.BENCH_FLOOR_DIR as string, "snapshot.json"), "utf8"));
const text = `Snapshot of ${snapshot.name}.`;

const handler = createMcpHandler(
  (server) => {
    server.registerTool(
      "service_market_get_snapshot",
      { description: "The snapshot's bytes.", inputSchema: z.object({ marketId: z.string() }) },
      async () => ({ content: [{ type: "text", text }], structuredContent: snapshot }),
    );
  },
  { serverInfo: { name: "mcp-floor", version: "1.0.0" } },
);

const server = createServer((request, response) => {
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  serveFetch(request, response, origin, handler).catch(() => response.destroy());
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`);
});
