/**
 * How the service looks up the names it connects to or checks (outbound requests, domain
 * verification): the system's resolver (getaddrinfo: /etc/hosts, then DNS), or — with
 * DNS_SERVERS set (comma-separated `address[:port]`) — those DNS servers alone. A deployment may
 * want its own resolver; the tests point it at a DNS server of their own, to make names resolve to
 * whatever address an attack needs.
 */
import { Resolver, lookup as systemLookup } from "node:dns/promises";

export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

const state = globalThis as typeof globalThis & { __mpsResolver?: { servers: string; resolver: Resolver } };

/** The resolver of DNS_SERVERS, or null when the system's is used. */
export function configuredResolver(env: NodeJS.ProcessEnv = process.env): Resolver | null {
  const servers = (env.DNS_SERVERS ?? "").trim();
  if (!servers) return null;
  if (state.__mpsResolver?.servers !== servers) {
    const resolver = new Resolver({ timeout: 2000, tries: 2 });
    resolver.setServers(servers.split(",").map((s) => s.trim()));
    state.__mpsResolver = { servers, resolver };
  }
  return state.__mpsResolver.resolver;
}

/** Every address of a name (both families), as the socket would be given them. */
export const resolveHost: Resolve = async (hostname) => {
  const resolver = configuredResolver();
  if (!resolver) return systemLookup(hostname, { all: true, verbatim: true });
  const settled = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
  return settled.flatMap((result, index) =>
    result.status === "fulfilled" ? result.value.map((address) => ({ address, family: index === 0 ? 4 : 6 })) : [],
  );
};

/** The TXT records of a name (domain verification), through the same resolver. */
export async function resolveTxt(name: string): Promise<string[]> {
  const resolver = configuredResolver() ?? new Resolver({ timeout: 2000, tries: 2 });
  return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
}
