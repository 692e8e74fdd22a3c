/**
 * Who is at the other end of the connection, as our HTTP server (server/5-http-server/http-server.ts)
 * saw it, for what must know: the dev outbox and /metrics, served to this machine only, and the
 * abuse throttles, which count per client address.
 *
 * Server components see headers, never the socket, and every header a client sends can be
 * forged: X-Forwarded-For, Host, and a copy of any header of ours. So the server decides at the
 * door, from the socket, and says so in PEER_HEADER after deleting every copy the client sent;
 * the page reads only that. A request that came through a proxy (it carries Forwarded, Via,
 * X-Real-IP or an X-Forwarded-* header) is never loopback, whatever the socket says: a proxy on
 * this machine makes every client look local. Without our server (`next start`, `next dev`) the
 * header is missing, which reads as remote.
 */
import type { IncomingMessage } from "node:http";
import { CLIENT_ADDRESS_HEADER } from "./client-address";

/** Set by our server on every request: "loopback" or "remote". */
export const PEER_HEADER = "x-mps-peer";

/** Headers a proxy adds: their presence means the socket's peer is not the client. */
const PROXY_HEADERS = /^(forwarded|via|x-real-ip|x-forwarded-.*)$/;

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.toLowerCase().startsWith("::ffff:") ? address.slice(7) : address;
  return /^127(\.\d{1,3}){3}$/.test(v4) || address === "::1";
}

/** Whether the request came straight from this machine: a loopback socket, and no proxy's headers. */
export function cameFromLoopback(remoteAddress: string | undefined, headerNames: Iterable<string>): boolean {
  if (!isLoopbackAddress(remoteAddress)) return false;
  for (const name of headerNames) if (PROXY_HEADERS.test(name.toLowerCase())) return false;
  return true;
}

const STAMPED = new Set([PEER_HEADER, CLIENT_ADDRESS_HEADER]);

/**
 * At the door: replaces whatever the client sent as PEER_HEADER and CLIENT_ADDRESS_HEADER by what
 * the server saw: the loopback verdict, and the socket's remote address (for the abuse throttles).
 */
export function stampPeer(request: Pick<IncomingMessage, "headers" | "rawHeaders" | "socket">): void {
  for (const name of STAMPED) delete request.headers[name];
  const raw: string[] = [];
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i] as string;
    if (!STAMPED.has(name.toLowerCase())) raw.push(name, request.rawHeaders[i + 1] as string);
  }
  const verdict = cameFromLoopback(request.socket.remoteAddress, Object.keys(request.headers)) ? "loopback" : "remote";
  const address = request.socket.remoteAddress ?? "";
  request.headers[PEER_HEADER] = verdict;
  request.headers[CLIENT_ADDRESS_HEADER] = address;
  raw.push(PEER_HEADER, verdict, CLIENT_ADDRESS_HEADER, address);
  request.rawHeaders = raw;
}

/** In a page: whether our server saw this request come straight from this machine. */
export const isLoopbackPeer = (headers: Headers) => headers.get(PEER_HEADER) === "loopback";
