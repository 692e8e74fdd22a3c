/**
 * OAuth's own error format (RFC 6749 §5.2) for the authorization server's endpoints, which clients
 * expect instead of problem+json, and how a failure outside the provider is answered in it.
 */
import { recentDatabaseFault } from "../../db/faults";
import { RETRY_AFTER_SECONDS } from "../1-errors/api-error";
import { describeError } from "../1-errors/describe";
import { log } from "../3-observability/logger";

export const UNAVAILABLE_DESCRIPTION = "The service cannot reach its database just now; retry shortly.";

export const oauthError = (status: number, error: string, description: string) =>
  Response.json({ error, error_description: description }, { status, headers: { "Cache-Control": "no-store" } });

/**
 * A fault outside the provider (the database unreachable while it starts, say) answers in OAuth's
 * format too: 503 `temporarily_unavailable` with Retry-After, or `server_error`.
 */
export function oauthFailure(error: unknown): Response {
  const unavailable = describeError(error).code === "unavailable";
  if (!unavailable) log().error({ err: error, databaseFault: recentDatabaseFault() }, "oauth: failed");
  // An unexpected failure while the database is known to be faulting is answered as the fault it
  // most likely is, as pages are (the fault suite saw one under killed connections): a client
  // retries a 503 with Retry-After; a 500 tells it to give up. It is still logged as an error.
  if (unavailable || recentDatabaseFault()) {
    const response = oauthError(503, "temporarily_unavailable", UNAVAILABLE_DESCRIPTION);
    response.headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
    return response;
  }
  return oauthError(500, "server_error", "The authorization server failed unexpectedly.");
}

/** Runs an OAuth handler; whatever it throws answers in OAuth's error format. */
export const inOAuthFormat =
  <A extends unknown[]>(handler: (...args: A) => Promise<Response>) =>
  (...args: A): Promise<Response> =>
    handler(...args).catch(oauthFailure);
