/**
 * The door of /v1: what can be refused from the request line and headers alone, before a Request
 * object, a context or a procedure exists. Today that is one thing: a metered call of an
 * organization whose bulkhead is full (server/7-procedures/trpc.ts bulkheadRefusal), told from a
 * token this process already knows. It is the same 429 problem the procedure would answer, with
 * the same headers and log line, at a small part of the cost: during one organization's flood
 * nearly all of its calls end here, so the event loop stays free for everyone else's.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Database } from "../../db/client";
import { describeError } from "../1-errors/describe";
import { publicOriginFrom } from "../2-http/origin";
import { problemHeaders, problemOf } from "../2-http/problem";
import { apiSecurityHeaders, arrivedOverTls } from "../2-http/security-headers";
import { requestLimits } from "../3-limits/request-limits";
import { recordApiCall } from "../3-observability/calls";
import { knownHolder } from "../4-api-access/tokens";
import type { ImmediateAnswer } from "../5-http-server/http-server";
import { bearerTokenOf } from "../6-auth/caller";
import { bulkheadRefusal } from "../7-procedures/trpc";
import { failureHeaders } from "./handler";
import { API_PREFIX, operationAtPath } from "./routes";

const header = (request: IncomingMessage, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
};

/**
 * The answer to give at once, or undefined to let the request in. `database` is the handle the
 * token cache is kept for (undefined until the database is open: then nothing is refused here).
 */
export function refuseAtTheDoor(
  request: IncomingMessage,
  path: string,
  database: Database | undefined,
): ImmediateAnswer | undefined {
  const started = performance.now();
  if (!database || (request.method !== "GET" && request.method !== "HEAD")) return undefined;
  const token = bearerTokenOf(header(request, "authorization") ?? null);
  const operation = token ? operationAtPath(path.slice(API_PREFIX.length)) : undefined;
  const holder = token && operation ? knownHolder(database, token) : undefined;
  const error = holder && operation && bulkheadRefusal(holder.organizationId, operation, holder.scopes);
  if (!holder || !operation || !error) return undefined;

  const requestId = randomUUID();
  const origin = publicOriginFrom((name) => header(request, name));
  const description = describeError(error);
  const problem = problemOf(description.code, description.detail, { origin, requestId }, description);
  const holdMs = requestLimits().refusalHoldMs;
  const answer: ImmediateAnswer = {
    status: problem.status,
    headers: {
      ...problemHeaders(problem, failureHeaders(description)),
      ...apiSecurityHeaders(arrivedOverTls(origin, header(request, "x-forwarded-proto") ?? null)),
    },
    body: JSON.stringify(problem),
    // Between half the hold and all of it: a flood's retries come back spread out, not as one block.
    holdMs: holdMs > 0 ? Math.round(holdMs / 2 + Math.random() * (holdMs / 2)) : 0,
    onAnswer: () =>
      recordApiCall({
        surface: "rest",
        requestId,
        method: request.method ?? "GET",
        path,
        operation: operation.name,
        organizationId: holder.organizationId,
        status: problem.status,
        problem: description.code,
        durationMs: performance.now() - started,
        credits: null,
      }),
  };
  return answer;
}
