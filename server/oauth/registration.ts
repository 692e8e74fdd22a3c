/**
 * What dynamic client registration (RFC 7591) accepts beyond oidc-provider's defaults. MCP
 * clients are mostly native apps that listen on a loopback port chosen at run time, but they
 * rarely say `application_type: "native"`; oidc-provider matches loopback redirects on any port
 * (RFC 8252 §7.3) only for native clients. So a registration that names no application type and
 * whose redirect URIs are all ones a native app may use is registered as native.
 */
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

/** The registration to hand oidc-provider: unchanged unless it is a native app that did not say so. */
export function withApplicationType(metadata: unknown): unknown {
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return metadata;
  const registration = metadata as Record<string, unknown>;
  const uris = registration.redirect_uris;
  if (registration.application_type !== undefined || !Array.isArray(uris) || uris.length === 0) return metadata;
  if (!uris.every((uri) => typeof uri === "string" && nativeRedirectUri(uri))) return metadata;
  // All https: a web app's redirects; native gains nothing there and web is the default.
  const needsNative = uris.some((uri) => !WEB_SCHEMES.has((URL.parse(uri) as URL).protocol) || uri.startsWith("http:"));
  return needsNative ? { ...registration, application_type: "native" } : metadata;
}
