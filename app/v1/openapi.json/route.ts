import { publicOrigin } from "@/server/rest/handler";
import { openApiJson } from "@/server/rest/openapi";

export const dynamic = "force-dynamic";

/** The OpenAPI 3.1 document of /v1; public, free. */
export function GET(request: Request) {
  return new Response(openApiJson(publicOrigin(request)), {
    headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" },
  });
}
