// Served at /.well-known/… through a rewrite in next.config.ts (the App Router skips dot folders).
import { protectedResourceMetadataResponse } from "@/server/8-oauth/routes";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => protectedResourceMetadataResponse(request);
