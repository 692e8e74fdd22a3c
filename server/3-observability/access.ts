/**
 * Who may read /metrics: a client on this machine, without credentials; anyone else only with
 * `Authorization: Bearer $METRICS_TOKEN`; and with no METRICS_TOKEN set, nobody else (404).
 *
 * A route handler sees headers, never the socket: our HTTP server decides at the door from the
 * socket and says so in a header no client can set (server/2-http/peer.ts, the same verdict as the
 * dev outbox's). docs/operations.md states the rule and its limits.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { isLoopbackPeer } from "../2-http/peer";

/** Whether this request came straight from this machine, as our server stamped it at the door. */
export const cameFromLoopback = (headers: Headers) => isLoopbackPeer(headers);

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Compares a presented secret with the expected one in constant time (digests of equal length). */
export function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

export type MetricsAccess = "serve" | "unauthorized" | "hidden";

/**
 * The rule: local clients are served; others need the token, and without a configured token
 * /metrics does not exist for them.
 */
export function metricsAccess(options: {
  loopback: boolean;
  authorization: string | null;
  token: string | undefined;
}): MetricsAccess {
  if (options.loopback) return "serve";
  if (!options.token) return "hidden";
  const presented = /^Bearer +(\S+) *$/i.exec(options.authorization ?? "")?.[1];
  return presented !== undefined && sameSecret(presented, options.token) ? "serve" : "unauthorized";
}
