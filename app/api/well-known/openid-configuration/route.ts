// Served at /.well-known/… through a rewrite in next.config.ts (the App Router skips dot folders).

import { getDatabase } from "@/server/5-database/app-database";
import { authorizationServerMetadata } from "@/server/8-oauth/routes";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => authorizationServerMetadata(request, async () => (await getDatabase()).db);
