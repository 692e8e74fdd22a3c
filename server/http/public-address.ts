/**
 * Whether an address is one the public internet routes to: the one test of every outbound request
 * a user can aim (webhook endpoints, client metadata documents). ipaddr.js classifies the address
 * (an IPv4-mapped IPv6 address as its IPv4); only `unicast` is public — loopback, private,
 * link-local (cloud metadata at 169.254.169.254), unique-local, carrier-grade NAT, multicast,
 * documentation and other reserved ranges are not.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export function isPublicAddress(address: string): boolean {
  const literal = address.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(literal)) return false;
  return ipaddr.process(literal).range() === "unicast";
}

/** A host that names a non-public address outright: localhost, or an address literal that is not public. */
export function namesPrivateAddress(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}
