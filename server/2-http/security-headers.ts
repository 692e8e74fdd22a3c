/**
 * Security headers: those of the dashboard's pages, and those of every /v1 and /mcp answer.
 *
 * Pages: Scripts run only with this response's nonce (Next
 * puts it on its own scripts when it finds it in the request's policy); styles may be inline
 * (charts set style attributes), nothing may frame a page, and forms post only here.
 */

/**
 * Pages whose forms post to us and are then redirected elsewhere: sign-in (GitHub, Google) and
 * OAuth consent (to the client's redirect URI). Browsers apply form-action to the whole redirect
 * chain, so these pages leave it out.
 */
const REDIRECTING_FORMS = /^\/(signin|oauth\/interaction)(\/|$)/;

export function contentSecurityPolicy(nonce: string, { development = false, pathname = "/" } = {}): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic' lets the nonced bootstrap load the app's chunks; dev needs eval for HMR.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    ...(REDIRECTING_FORMS.test(pathname) ? [] : ["form-action 'self'"]),
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Whether the request reached us over TLS: directly, or through a proxy that says so. */
export function arrivedOverTls(url: string, forwardedProto: string | null, appUrl = process.env.APP_URL): boolean {
  if (appUrl) return appUrl.startsWith("https:");
  if (forwardedProto) return forwardedProto.split(",")[0]?.trim().toLowerCase() === "https";
  return url.startsWith("https:");
}

/** Headers every page carries besides its policy; HSTS only where the browser came by TLS. */
export function pageSecurityHeaders(tls: boolean): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    ...(tls ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

/**
 * Headers of every /v1 and /mcp answer, failures included (OWASP REST Security cheat sheet): no
 * sniffing a JSON body into HTML, no framing, no referrer; HSTS where the client came by TLS.
 */
export function apiSecurityHeaders(tls: boolean): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    ...(tls ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

/** Sets the API security headers on a response (its headers may be immutable: then a copy). */
export function withApiSecurityHeaders(
  request: { url: string; headers: { get(name: string): string | null } },
  response: Response,
): Response {
  const headers = apiSecurityHeaders(arrivedOverTls(request.url, request.headers.get("x-forwarded-proto")));
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}
