/**
 * The rules of an organization's identity provider (docs/enterprise.md), pure: what an issuer and
 * an e-mail domain may be, the DNS TXT record that proves a domain, and which domain an address
 * belongs to. Storage is server/4-identity/identity-providers.ts; sign-in and the ID-JAG grant use both.
 */
/** Where the proof of a domain is published: a TXT record on this label under the domain. */
export const DOMAIN_VERIFICATION_LABEL = "_market-positioning";
/** What the TXT record holds, before the organization's token. */
export const DOMAIN_VERIFICATION_PREFIX = "market-positioning-verification=";

export const domainVerificationName = (domain: string) => `${DOMAIN_VERIFICATION_LABEL}.${domain}`;
export const domainVerificationValue = (token: string) => `${DOMAIN_VERIFICATION_PREFIX}${token}`;

/** A DNS name of letters, digits and hyphens, at least two labels, no trailing dot (lower-cased). */
const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** An e-mail domain as stored (lower case, no trailing dot), or why it is not one. */
export function normaliseDomain(raw: string): { domain: string } | { problem: string } {
  const domain = raw.trim().toLowerCase().replace(/\.$/, "");
  if (!DOMAIN.test(domain)) return { problem: `"${raw}" is not a domain name (like example.com)` };
  return { domain };
}

/** The domain of an e-mail address (lower case), or null when it has none. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf("@");
  if (at < 1 || at === email.length - 1) return null;
  const found = normaliseDomain(email.slice(at + 1));
  return "domain" in found ? found.domain : null;
}

/** Whether a TXT record set proves the token (one record equal to the expected value, exactly). */
export const txtProves = (records: readonly string[], token: string) =>
  records.some((record) => record.trim() === domainVerificationValue(token));

/** Members of a JWK that only a private key has: an inline key set must not carry them. */
const PRIVATE_KEY_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];
/** At most this many keys inline (a key set is a handful during a rotation). */
export const INLINE_JWKS_MAX_KEYS = 20;

/** An inline JSON Web Key Set of public keys only, or why it is not one. */
export function publicKeySet(value: unknown): { jwks: { keys: Record<string, unknown>[] } } | { problem: string } {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0)
    return { problem: 'a key set is {"keys": [ … ]} with at least one key' };
  if (keys.length > INLINE_JWKS_MAX_KEYS) return { problem: `at most ${INLINE_JWKS_MAX_KEYS} keys` };
  for (const [index, key] of keys.entries()) {
    if (typeof key !== "object" || key === null || Array.isArray(key))
      return { problem: `key ${index} is not an object` };
    const kty = (key as Record<string, unknown>).kty;
    if (kty !== "RSA" && kty !== "EC" && kty !== "OKP") return { problem: `key ${index}: kty must be RSA, EC or OKP` };
    if (PRIVATE_KEY_MEMBERS.some((member) => member in key))
      return { problem: `key ${index} is a private key: give the public keys only` };
  }
  return { jwks: { keys: keys as Record<string, unknown>[] } };
}

/** The token endpoint grant an ID-JAG is presented with (RFC 7523's JWT bearer grant). */
export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** An IPv4 address written as an IPv6-mapped one (`[::ffff:7f00:1]`, as the URL parser writes it). */
const MAPPED_IPV4 = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/i;

/**
 * What an issuer is, for telling one IdP from another (never for matching a token's `iss`, which
 * is compared with the issuer as typed): scheme and host in lower case, an IPv6-mapped IPv4 host
 * as the IPv4 address, the default port dropped, an empty query or fragment dropped, and no
 * trailing slash. Two issuers with the same key are one IdP to a person. Null: not a URL.
 */
export function issuerKey(issuer: string): string | null {
  const url = URL.parse(issuer.trim());
  if (!url) return null;
  const mapped = MAPPED_IPV4.exec(url.hostname);
  if (mapped) {
    const [high, low] = [Number.parseInt(mapped[1] as string, 16), Number.parseInt(mapped[2] as string, 16)];
    url.hostname = [high >> 8, high & 255, low >> 8, low & 255].join(".");
  }
  // The URL parser already lower-cases scheme and host and drops a scheme's default port.
  const rest = `${url.pathname}${url.search}${url.hash}`.replace(/\/$/, "");
  return `${url.protocol}//${url.host}${rest}`;
}
