/**
 * Where the service is, as its clients see it: the one rule every absolute URL the service writes
 * goes through (sign-in links, OAuth issuer and metadata, problem `type` links, OpenAPI servers,
 * citations, e-mails). The operator decides it, never a client:
 *
 * - `APP_URL` set: that origin, whatever the request says. Production requires it
 *   (server/5-startup/app-url.ts refuses to start without it).
 * - `APP_URL` unset (the quick start): the Host the client asked for, but only when it is a host the
 *   operator allowed — this machine's loopback names on the server's own port, and whatever
 *   `ALLOWED_HOSTS` lists. Any other Host (a forged one) gets `http://localhost:PORT`.
 * - `X-Forwarded-Host`/`-Proto` and `Forwarded` (RFC 7239) are read only with `TRUST_PROXY=1`,
 *   and the host they name must be allowed like any other.
 *
 * A sign-in link that followed a forged Host would mail someone's one-time token to the forger's
 * server (docs/security.md, "One origin").
 */

export interface OriginSettings {
  /** APP_URL's origin, when set. */
  appUrl: string | null;
  trustProxy: boolean;
  /** The port the server listens on (PORT, default 3000): the loopback names are allowed on it. */
  port: string;
  /** Hosts (`name:port`, lower case; bare `name` for the protocol's default port) a link may name. */
  allowedHosts: ReadonlySet<string>;
}

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** APP_URL as an origin (scheme, host and port; no path), or why it cannot be one. */
export function parseAppUrl(raw: string | undefined): { origin: string | null; problem?: string } {
  if (raw === undefined || raw.trim() === "") return { origin: null };
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { origin: null, problem: `APP_URL must be an absolute URL such as https://api.example.com, not "${raw}"` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { origin: null, problem: `APP_URL must be an http or https URL, not "${raw}"` };
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== ""))
    return { origin: null, problem: `APP_URL must be an origin only (scheme, host, port), not "${raw}"` };
  return { origin: url.origin };
}

const normalHost = (host: string) => host.trim().toLowerCase();

let remembered: { key: string; settings: OriginSettings } | undefined;

/** The settings of `env` (this process's by default; the last ones read are kept while it does not change). */
export function originSettings(env: NodeJS.ProcessEnv = process.env): OriginSettings {
  const key = [env.APP_URL, env.PORT, env.ALLOWED_HOSTS, env.TRUST_PROXY].join("\n");
  if (remembered?.key !== key) remembered = { key, settings: readSettings(env) };
  return remembered.settings;
}

function readSettings(env: NodeJS.ProcessEnv): OriginSettings {
  const port = env.PORT || "3000";
  const allowed = new Set<string>();
  for (const name of LOOPBACK_NAMES) {
    allowed.add(`${name}:${port}`);
    if (port === "80") allowed.add(name);
  }
  for (const entry of (env.ALLOWED_HOSTS ?? "").split(",")) if (entry.trim()) allowed.add(normalHost(entry));
  return { appUrl: parseAppUrl(env.APP_URL).origin, trustProxy: env.TRUST_PROXY === "1", port, allowedHosts: allowed };
}

/** The first element of RFC 7239 `Forwarded`: its host and proto, unquoted. */
function forwardedPairs(value: string | undefined): { host?: string; proto?: string } {
  const first = value?.split(",")[0];
  if (!first) return {};
  const pairs: Record<string, string> = {};
  for (const pair of first.split(";")) {
    const at = pair.indexOf("=");
    if (at > 0)
      pairs[pair.slice(0, at).trim().toLowerCase()] = pair
        .slice(at + 1)
        .trim()
        .replace(/^"|"$/g, "");
  }
  return { host: pairs.host, proto: pairs.proto };
}

const firstOf = (value: string | undefined) => value?.split(",")[0]?.trim() || undefined;

/** The origin links use, from a header reader; `settings` defaults to this process's environment. */
export function publicOriginFrom(
  header: (name: string) => string | undefined,
  settings: OriginSettings = originSettings(),
): string {
  if (settings.appUrl) return settings.appUrl;
  let host = header("host");
  let protocol = "http";
  if (settings.trustProxy) {
    const forwarded = forwardedPairs(header("forwarded"));
    host = forwarded.host ?? firstOf(header("x-forwarded-host")) ?? host;
    const proto = (forwarded.proto ?? firstOf(header("x-forwarded-proto")))?.toLowerCase();
    if (proto === "https") protocol = "https";
  }
  const asked = normalHost(host ?? "");
  if (asked && settings.allowedHosts.has(asked)) return `${protocol}://${asked}`;
  return `http://localhost:${settings.port}`;
}

/** The origin links use, for a Fetch request. */
export function publicOrigin(request: Request): string {
  return publicOriginFrom((name) => request.headers.get(name) ?? undefined);
}

/** The same from request headers alone (server components have no Request). */
export const publicOriginOf = (headers: Headers) => publicOriginFrom((name) => headers.get(name) ?? undefined);

/**
 * The origin for an answer written before any request header is read (a request Node refused):
 * APP_URL when set, else the server's own address on that connection.
 */
export function connectionOrigin(localAddress: string | undefined, localPort: number | undefined): string {
  const configured = originSettings().appUrl;
  if (configured) return configured;
  const address = localAddress?.replace(/^::ffff:/i, "") || "localhost";
  return `http://${address.includes(":") ? `[${address}]` : address}${localPort ? `:${localPort}` : ""}`;
}

/**
 * The origin links in e-mails use, written with no request at hand (background jobs, the CLI):
 * APP_URL, which deployments set; else this machine's server on PORT (the quick start).
 */
export const mailLinkOrigin = (env: NodeJS.ProcessEnv = process.env) =>
  parseAppUrl(env.APP_URL).origin ?? `http://localhost:${env.PORT || 3000}`;

/** The origin decided at the door for each request in flight (stampOrigin): read, not decided again. */
const stampedOrigins = new WeakMap<object, string>();

/** The public origin stampOrigin decided for `request`, if it went through our door. */
export const stampedOrigin = (request: object): string | undefined => stampedOrigins.get(request);

/**
 * Origins as URLs, parsed once each: publicOriginFrom only ever answers APP_URL, an allowed host or
 * the loopback fallback, so there are only so many (the map is cleared past a few, to be sure).
 */
const parsedOrigins = new Map<string, URL>();
function urlOfOrigin(origin: string): URL {
  let url = parsedOrigins.get(origin);
  if (!url) {
    if (parsedOrigins.size >= 64) parsedOrigins.clear();
    url = new URL(origin);
    parsedOrigins.set(origin, url);
  }
  return url;
}

/** Headers that name an origin on a client's behalf: next-auth reads them to build its links. */
const ORIGIN_HEADERS = ["forwarded", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"];

/**
 * The request as next-auth must see it: at the public origin, with the only origin headers it
 * reads (X-Forwarded-Host and -Proto, which take precedence over Host in @auth/core) written by us
 * from that origin. next-auth then builds every link it mails and every redirect on the origin
 * decided above, whatever the client sent. (AUTH_URL, when an operator sets it, wins inside
 * next-auth anyway.)
 */
export function atPublicOrigin(request: Request): Request {
  const origin = new URL(publicOrigin(request));
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  for (const name of ORIGIN_HEADERS) headers.delete(name);
  headers.set("x-forwarded-host", origin.host);
  headers.set("x-forwarded-proto", origin.protocol.slice(0, -1));
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(new URL(url.pathname + url.search, origin), {
    method: request.method,
    headers,
    body: hasBody ? request.body : undefined,
    // A streamed body may be read once, by next-auth.
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
}

/**
 * At our server's door (server/5-http-server/http-server.ts), for every request: the origin headers
 * a client sent are replaced by the decided origin, so everything behind the door that reads them
 * — Next's server actions, next-auth's own links, the OAuth provider — sees the operator's origin
 * and nothing a client chose.
 */
export function stampOrigin(request: { headers: Record<string, string | string[] | undefined>; rawHeaders: string[] }) {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  };
  const decided = publicOriginFrom(header);
  stampedOrigins.set(request, decided);
  const origin = urlOfOrigin(decided);
  const stamped: Record<string, string> = {
    "x-forwarded-host": origin.host,
    "x-forwarded-proto": origin.protocol.slice(0, -1),
  };
  for (const name of ORIGIN_HEADERS) delete request.headers[name];
  const raw: string[] = [];
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i] as string;
    if (!ORIGIN_HEADERS.includes(name.toLowerCase())) raw.push(name, request.rawHeaders[i + 1] as string);
  }
  for (const [name, value] of Object.entries(stamped)) {
    request.headers[name] = value;
    raw.push(name, value);
  }
  request.rawHeaders = raw;
}
