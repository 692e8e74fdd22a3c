import { randomUUID } from "node:crypto";
import { problemOf, problemResponse } from "@/server/errors/problem";
import { openApiJson } from "@/server/rest/openapi";
import { publicOrigin } from "@/server/rest/origin";
import { ALLOWED_METHODS } from "@/server/rest/routes";

export const dynamic = "force-dynamic";

/** The OpenAPI 3.1 document of /v1; public, free. */
export function GET(request: Request) {
  return new Response(openApiJson(publicOrigin(request)), {
    headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" },
  });
}

/** Any other method: the same 405 problem as the rest of /v1. */
function notAllowed(request: Request) {
  return problemResponse(
    problemOf("method_not_allowed", `${request.method} is not allowed on /v1/openapi.json; use GET.`, {
      origin: publicOrigin(request),
      requestId: randomUUID(),
    }),
    { Allow: ALLOWED_METHODS, "Cache-Control": "no-store" },
  );
}

export { notAllowed as DELETE, notAllowed as PATCH, notAllowed as POST, notAllowed as PUT };
