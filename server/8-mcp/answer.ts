/**
 * One MCP message answered, once the edge (edge.ts) has let it through — authenticated, counted,
 * its scope checked — behind one function whichever way it goes: a plain tool call by the edge's
 * own path (fast-call.ts: told apart, run and framed in one entry, with no MCP server, transport or
 * Fetch request built for it); every other message by the SDK's server (server.ts), whose tools
 * run the same tool code (results.ts) and which keeps every protocol rule and refusal.
 */
import type { AuthInfo } from "@modelcontextprotocol/server";
import { fetchRequestOf } from "../5-http-server/fetch-bridge";
import { bearerToken } from "../6-auth/caller";
import type { McpCall } from "./call";
import type { McpRequest } from "./exchange";
import { answerPlainCall, type FastAnswer } from "./fast-call";
import { mcpHandler } from "./server";

/** The answer to a message: a plain tool call's in parts, else the SDK server's Response. */
export async function answerMcpMessage(request: McpRequest, call: McpCall): Promise<Response | FastAnswer> {
  const plain = await answerPlainCall(request.headers, request.message, call);
  if (plain) return plain;
  const auth: AuthInfo = {
    token: bearerToken(request.headers) ?? "",
    clientId: call.caller.credentialId ?? "",
    scopes: [...call.caller.scopes],
    extra: call as unknown as Record<string, unknown>,
  };
  return mcpHandler(Object.assign(sdkRequestOf(request), { auth }));
}

/** The request as the SDK takes it, with a signal for a client that leaves: built only when the SDK answers. */
function sdkRequestOf(request: McpRequest): Request {
  const { outgoing } = request;
  const abort = new AbortController();
  const left = () => {
    if (!outgoing.writableFinished) abort.abort();
  };
  // A client that left before now is told at once; one that leaves later, when it does.
  if (outgoing.closed) left();
  else outgoing.once("close", left);
  return fetchRequestOf(request.incoming, request.serverOrigin, abort.signal, request.body);
}
