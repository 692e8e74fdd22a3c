/** Where the service is, as its clients see it. */

/** APP_URL without its trailing slash, when set. */
const configuredOrigin = () => process.env.APP_URL?.replace(/\/$/, "") || undefined;

/**
 * The origin that problem `type` links and the OpenAPI servers use: APP_URL when set (deployments
 * behind a proxy should set it), else the host the client asked for. Next.js rewrites
 * `request.url` to its own hostname, so the Host header is the truth here.
 */
export function publicOrigin(request: Request): string {
  return publicOriginFrom((name) => request.headers.get(name) ?? undefined, request.url);
}

/** The same, from a header reader and the URL the server gave the request (Node's or Next's). */
export function publicOriginFrom(header: (name: string) => string | undefined, requestUrl: string): string {
  const configured = configuredOrigin();
  if (configured) return configured;
  const url = new URL(requestUrl);
  const host = header("x-forwarded-host") ?? header("host") ?? url.host;
  const protocol = header("x-forwarded-proto") ?? url.protocol.replace(":", "");
  return `${protocol.split(",")[0]?.trim()}://${host.split(",")[0]?.trim()}`;
}

/** The public origin seen from request headers alone (server components have no Request). */
export const publicOriginOf = (headers: Headers) => publicOrigin(new Request("http://localhost/", { headers }));

/**
 * The origin a client connected to, from the connection alone (for answers written before any
 * request header is read): APP_URL when set, else the server's own address on that connection.
 */
export function connectionOrigin(localAddress: string | undefined, localPort: number | undefined): string {
  const configured = configuredOrigin();
  if (configured) return configured;
  const address = localAddress?.replace(/^::ffff:/i, "") || "localhost";
  return `http://${address.includes(":") ? `[${address}]` : address}${localPort ? `:${localPort}` : ""}`;
}

/**
 * The origin links in e-mails use, written with no request at hand (background jobs, the CLI):
 * APP_URL, which deployments set; else this machine's server on PORT (the quick start).
 */
export const mailLinkOrigin = (env: NodeJS.ProcessEnv = process.env) =>
  env.APP_URL?.replace(/\/$/, "") || `http://localhost:${env.PORT || 3000}`;
