/**
 * Whether an address is one the public internet routes to: the one test of every outbound request
 * the service makes to a place a user can name (server/3-outbound/guard.ts). ipaddr.js classifies
 * the address (an IPv4-mapped IPv6 address as its IPv4):
 * - IPv4: only `unicast` is public — loopback, private, link-local (cloud metadata at
 *   169.254.169.254), carrier-grade NAT, multicast, documentation and the reserved ranges are not;
 * - IPv6: only global unicast (2000::/3) that ipaddr.js calls `unicast` — so no loopback,
 *   unique-local, link-local, IPv4-compatible (::/96), NAT64 (64:ff9b::/96, 64:ff9b:1::/48),
 *   6to4 (2002::/16), Teredo (2001::/32) or documentation address, each of which can carry or
 *   reach a private IPv4 address.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

const GLOBAL_UNICAST: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse("2000::"), 3];

export function isPublicAddress(address: string): boolean {
  const literal = address.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(literal) || literal.includes("%")) return false;
  // An IPv6 literal is read as IPv6 (ipaddr.parse reads "::a.b.c.d" as its IPv4, losing the ::/96).
  if (!literal.includes(":")) return ipaddr.IPv4.parse(literal).range() === "unicast";
  // Hex form first (WHATWG URL's): ipaddr.js would read "::a.b.c.d" (IPv4-compatible) as IPv4-mapped.
  const hex = new URL(`http://[${literal}]/`).hostname.slice(1, -1);
  const v6 = ipaddr.IPv6.parse(hex);
  // An IPv4-mapped address (::ffff:a.b.c.d) is dialled as its IPv4: judged as one.
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === "unicast";
  return v6.match(GLOBAL_UNICAST) && v6.range() === "unicast";
}

/** A host that names a non-public address outright: localhost, or an address literal that is not public. */
export function namesPrivateAddress(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}
