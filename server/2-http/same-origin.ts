/**
 * Cookies ride along on cross-site requests, so a state-changing request authenticated by a cookie
 * must come from a page of our own origin (CSRF): its Origin header (or, failing that,
 * Sec-Fetch-Site) must say so.
 */
export function isSameOriginRequest(request: Request, origin: string): boolean {
  const sent = request.headers.get("origin");
  if (sent !== null) return sent === origin;
  return request.headers.get("sec-fetch-site") === "same-origin";
}
