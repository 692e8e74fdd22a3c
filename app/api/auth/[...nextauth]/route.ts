import type { NextRequest } from "next/server";
import { handlers } from "@/server/auth/config";
import { publicOrigin } from "@/server/http/origin";

export const dynamic = "force-dynamic";

/**
 * next-auth builds sign-in links and redirects from the request URL, whose host Next may rewrite
 * (NextRequest turns 127.0.0.1 into localhost). It gets a plain Request at the origin the browser
 * used (APP_URL, or Host), so the link it mails and the page it returns to stay on that origin.
 * With AUTH_URL set, next-auth takes its origin from there instead.
 */
function asReceived(request: NextRequest): NextRequest {
  if (process.env.AUTH_URL) return request;
  const url = new URL(request.nextUrl.pathname + request.nextUrl.search, publicOrigin(request));
  return new Request(url, request) as NextRequest;
}

export const GET = (request: NextRequest) => handlers.GET(asReceived(request));
export const POST = (request: NextRequest) => handlers.POST(asReceived(request));
