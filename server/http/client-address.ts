/**
 * The client's network address, as the service's HTTP server saw the socket: our server stamps it
 * into this header at the door (server/http/peer.ts), over anything a client sent under that name.
 * Behind a reverse proxy, set TRUST_PROXY=1 and the first hop of X-Forwarded-For is used instead
 * (the proxy must overwrite that header, as they do).
 */
export const CLIENT_ADDRESS_HEADER = "x-mps-client-address";

/** The address, or null when no server of ours saw the connection (`next start`/`next dev` directly). */
export function clientAddress(headers: Headers, env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.TRUST_PROXY === "1") {
    const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return headers.get(CLIENT_ADDRESS_HEADER) || null;
}
