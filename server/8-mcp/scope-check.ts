/**
 * The scope a message needs, checked at the edge before anything runs: MCP's authorization
 * specification has a client step up its authorization when the server answers 403 with
 * `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` — a tool result at HTTP 200
 * would leave it nothing to act on. A tool call (or a read of a reading's pages, or of the
 * snapshot page) whose operation needs a scope the caller's token lacks is answered so; REST's
 * 403 carries the same challenge.
 */

import { isJsonObject } from "../2-http/json-object";
import { parseReadingUri } from "./reading-resources";
import { TOOLS } from "./tools";

const SCOPE_OF_TOOL = new Map(TOOLS.map((tool) => [tool.name, tool.operation.scope]));
const SNAPSHOT_SCOPE = TOOLS.find((tool) => tool.name === "service_market_get_snapshot")?.operation.scope ?? null;

/** The scope one JSON-RPC message needs, or null. */
function scopeOf(message: unknown): string | null {
  if (!isJsonObject(message) || !isJsonObject(message.params)) return null;
  if (message.method === "tools/call" && typeof message.params.name === "string")
    return SCOPE_OF_TOOL.get(message.params.name) ?? null;
  if (message.method === "resources/read" && typeof message.params.uri === "string") {
    const reading = parseReadingUri(message.params.uri);
    if (reading) return SCOPE_OF_TOOL.get(reading.tool) ?? null;
    if (message.params.uri.startsWith("ui://service/snapshot/")) return SNAPSHOT_SCOPE;
  }
  return null;
}

/** The first scope the body's messages need that the caller lacks; null when it holds every one. */
export function missingScope(body: unknown, held: readonly string[]): string | null {
  for (const message of Array.isArray(body) ? body : [body]) {
    const needed = scopeOf(message);
    if (needed && !held.includes(needed)) return needed;
  }
  return null;
}
