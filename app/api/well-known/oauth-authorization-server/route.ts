// Served at /.well-known/… through a rewrite in next.config.ts (the App Router skips dot folders).

import { authorizationServerMetadata } from "@/server/oauth/routes";
import { getDatabase } from "@/server/startup/database";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => authorizationServerMetadata(request, async () => (await getDatabase()).db);
