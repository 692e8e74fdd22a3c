/**
 * The client's network address, as the service's HTTP server saw the socket: our server stamps it
 * into this header at the door (server/2-http/peer.ts), over anything a client sent under that name.
 * Behind a reverse proxy, set TRUST_PROXY=1 and the first hop of X-Forwarded-For is used instead
 * (the proxy must overwrite that header, as they do).
 */
import ipaddr from "ipaddr.js";

export const CLIENT_ADDRESS_HEADER = "x-mps-client-address";

/**
 * The address, or null when no server of ours saw the connection (`next start`/`next dev` directly);
 * an IPv4 client as its IPv4 address (plainAddress), as it is recorded and shown.
 */
export function clientAddress(headers: Pick<Headers, "get">, env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.TRUST_PROXY === "1") {
    const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return plainAddress(forwarded);
  }
  return plainAddress(headers.get(CLIENT_ADDRESS_HEADER) || null);
}

/**
 * An address as people read it: an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, how a dual-stack
 * socket reports an IPv4 client) as the IPv4 address it is (`127.0.0.1`); anything else, an IPv6
 * address or text that is no address, as it is.
 */
export function plainAddress(address: string | null): string | null {
  if (address === null || !ipaddr.IPv6.isValid(address)) return address;
  const parsed = ipaddr.IPv6.parse(address);
  return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : address;
}

/**
 * The network a client is counted by: an IPv4 address (an IPv4-mapped IPv6 one as its IPv4) is
 * one client, but an IPv6 client is its /64 — one subscriber gets a whole /64 and may take a new
 * address from it for every request, so counting per address would give them unlimited tries.
 * Anything that is no address is counted as the text it is.
 */
export function clientNetwork(address: string | null): string | null {
  if (address === null) return null;
  const literal = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!ipaddr.isValid(literal)) return address;
  const parsed = ipaddr.process(literal);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

/** The client's network (see clientNetwork) from request headers: what abuse throttles count by. */
export const clientNetworkOf = (headers: Pick<Headers, "get">, env: NodeJS.ProcessEnv = process.env) =>
  clientNetwork(clientAddress(headers, env));
