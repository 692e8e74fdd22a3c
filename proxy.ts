/**
 * Runs before routing, for two jobs. Pages get a fresh CSP nonce per response and the security
 * headers of server/2-http/security-headers.ts. API paths with malformed percent-encoding (which Next
 * would answer with a bare 500 before any handler runs) get our 400 problem+json instead, with the
 * API's security headers like every /v1 and /mcp answer.
 */
import { type NextRequest, NextResponse } from "next/server";
import { publicOrigin } from "./server/2-http/origin";
import { problemOf, problemResponse } from "./server/2-http/problem";
import {
  arrivedOverTls,
  contentSecurityPolicy,
  pageSecurityHeaders,
  withApiSecurityHeaders,
} from "./server/2-http/security-headers";

const API_PATH = /^\/(v1|mcp)(\/|$)/;

function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (API_PATH.test(pathname)) {
    if (isDecodable(pathname)) return NextResponse.next();
    return withApiSecurityHeaders(
      request,
      problemResponse(
        problemOf("invalid_request", "The path is not valid percent-encoding (RFC 3986).", {
          origin: publicOrigin(request),
          requestId: crypto.randomUUID(),
        }),
        { "Cache-Control": "no-store" },
      ),
    );
  }
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const policy = contentSecurityPolicy(nonce, {
    development: process.env.NODE_ENV === "development",
    pathname,
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  const tls = arrivedOverTls(request.url, request.headers.get("x-forwarded-proto"));
  for (const [name, value] of Object.entries(pageSecurityHeaders(tls))) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    // Pages only: the API, MCP, /metrics, auth, OAuth protocol endpoints, discovery, the API
    // reference's frame and scripts (their own policy) and static assets set their own headers; OAuth's consent page is a page.
    {
      source:
        "/((?!v1|mcp|metrics$|api/|_next/static|_next/image|favicon.ico|docs/api/|\\.well-known|oauth/(?!interaction)).*)",
      missing: [{ type: "header", key: "next-router-prefetch" }],
    },
    // API paths only when they hold a percent sign: well-formed ones never pass through here.
    "/(v1|mcp)/(.*%.*)",
  ],
};
