/** GET /metrics: the process's metrics in Prometheus's text format, to those access.ts lets in. */
import { randomUUID } from "node:crypto";
import { bearerChallenge } from "../1-errors/api-error";
import { publicOrigin } from "../2-http/origin";
import { problemOf, problemResponse } from "../2-http/problem";
import { cameFromLoopback, metricsAccess } from "./access";
import { serviceMetrics } from "./metrics";

export const METRICS_PATH = "/metrics";

export async function handleMetricsRequest(request: Request, env: NodeJS.ProcessEnv = process.env): Promise<Response> {
  const access = metricsAccess({
    loopback: cameFromLoopback(request.headers),
    authorization: request.headers.get("authorization"),
    token: env.METRICS_TOKEN || undefined,
  });
  const context = { origin: publicOrigin(request), requestId: randomUUID() };
  if (access === "hidden")
    return problemResponse(problemOf("not_found", `No such path: ${METRICS_PATH}.`, context), {
      "Cache-Control": "no-store",
    });
  if (access === "unauthorized")
    return problemResponse(
      problemOf("unauthorized", `Send Authorization: Bearer with the metrics token to read ${METRICS_PATH}.`, context),
      { "Cache-Control": "no-store", "WWW-Authenticate": bearerChallenge({}) },
    );
  if (request.method !== "GET" && request.method !== "HEAD")
    return problemResponse(
      problemOf("method_not_allowed", `${request.method} is not allowed on ${METRICS_PATH}; use GET.`, context),
      { Allow: "GET, HEAD", "Cache-Control": "no-store" },
    );
  const metrics = serviceMetrics();
  const text = await metrics.text();
  return new Response(request.method === "HEAD" ? null : text, {
    headers: { "Content-Type": metrics.contentType, "Cache-Control": "no-store" },
  });
}
