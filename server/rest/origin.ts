/** Where the service is, as its clients see it. */

/**
 * The origin that problem `type` links and the OpenAPI servers use: APP_URL when set (deployments
 * behind a proxy should set it), else the host the client asked for. Next.js rewrites
 * `request.url` to its own hostname, so the Host header is the truth here.
 */
export function publicOrigin(request: Request): string {
  if (process.env.APP_URL) return process.env.APP_URL.replace(/\/$/, "");
  const url = new URL(request.url);
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? url.host;
  const protocol = request.headers.get("x-forwarded-proto") ?? url.protocol.replace(":", "");
  return `${protocol.split(",")[0]?.trim()}://${host.split(",")[0]?.trim()}`;
}
