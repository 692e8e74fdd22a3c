/**
 * What dynamic client registration (RFC 7591) accepts beyond oidc-provider's defaults.
 *
 * - MCP clients are mostly native apps that listen on a loopback port chosen at run time, but
 *   they rarely say `application_type: "native"`; oidc-provider matches loopback redirects on any
 *   port (RFC 8252 §7.3) only for native clients. So a registration that names no application
 *   type and whose redirect URIs are all ones a native app may use is registered as native.
 * - Clients (the MCP SDK among them) register the scope they will ask for, resource scopes
 *   included; oidc-provider checks a client's `scope` against its OpenID scopes only and refuses
 *   the rest. Resource scopes are granted per resource, so they leave the registered `scope`.
 */

import { isJsonObject } from "../2-http/json-object";
import { OIDC_SCOPES } from "../2-http/protected-resource";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const WEB_SCHEMES = new Set(["http:", "https:"]);

/** Whether a native app may use this redirect URI: loopback http, claimed https or a private scheme. */
export function nativeRedirectUri(uri: string): boolean {
  const parsed = URL.parse(uri);
  if (!parsed) return false;
  const loopback = LOOPBACK_HOSTS.has(parsed.hostname);
  if (parsed.protocol === "http:") return loopback;
  if (parsed.protocol === "https:") return !loopback;
  return !["javascript:", "data:", "file:", "vbscript:"].includes(parsed.protocol);
}

/** The registration to hand oidc-provider: as sent, but for the two amendments above. */
export function normalizeRegistration(metadata: unknown): unknown {
  return withApplicationType(withOpenIdScopesOnly(metadata));
}

function withOpenIdScopesOnly(metadata: unknown): unknown {
  if (!isJsonObject(metadata) || typeof metadata.scope !== "string") return metadata;
  const { scope, ...rest } = metadata;
  const kept = scope.split(" ").filter((s) => (OIDC_SCOPES as readonly string[]).includes(s));
  return kept.length > 0 ? { ...rest, scope: kept.join(" ") } : rest;
}

function withApplicationType(metadata: unknown): unknown {
  if (!isJsonObject(metadata)) return metadata;
  const registration = metadata;
  const uris = registration.redirect_uris;
  if (registration.application_type !== undefined || !Array.isArray(uris) || uris.length === 0) return metadata;
  if (!uris.every((uri) => typeof uri === "string" && nativeRedirectUri(uri))) return metadata;
  // All https: a web app's redirects; native gains nothing there and web is the default.
  const needsNative = uris.some((uri) => !WEB_SCHEMES.has((URL.parse(uri) as URL).protocol) || uri.startsWith("http:"));
  return needsNative ? { ...registration, application_type: "native" } : metadata;
}

/**
 * Bounds on what a registration may store (it is kept until it expires unused: see
 * docs/security.md): the whole document, each string, each list. RFC 7591 sets none; these leave
 * room for every real client seen (names, a handful of redirect URIs, logo and policy URLs).
 */
export const REGISTRATION_LIMITS = {
  bodyBytes: 16 * 1024,
  clientNameLength: 200,
  stringLength: 2000,
  listLength: 10,
} as const;

/** What is over the limits, in words, or null when the registration is within them. */
export function registrationOverLimits(metadata: unknown): string | null {
  if (!isJsonObject(metadata)) return null; // oidc-provider refuses what is not an object
  for (const [name, value] of Object.entries(metadata)) {
    if (name.length > 100) return "a metadata name is longer than 100 characters";
    const limit = name === "client_name" ? REGISTRATION_LIMITS.clientNameLength : REGISTRATION_LIMITS.stringLength;
    if (typeof value === "string" && value.length > limit) return `${name} is longer than ${limit} characters`;
    if (Array.isArray(value)) {
      if (value.length > REGISTRATION_LIMITS.listLength)
        return `${name} has more than ${REGISTRATION_LIMITS.listLength} entries`;
      if (value.some((entry) => typeof entry === "string" && entry.length > REGISTRATION_LIMITS.stringLength))
        return `an entry of ${name} is longer than ${REGISTRATION_LIMITS.stringLength} characters`;
    }
  }
  return null;
}
