import { handleOpenApiRequest } from "@/server/rest/handler";

export const dynamic = "force-dynamic";

/** The OpenAPI 3.1 document of /v1; public, free. Other methods: the same 405 as the rest of /v1. */
const handle = (request: Request) => handleOpenApiRequest(request);

export { handle as DELETE, handle as GET, handle as PATCH, handle as POST, handle as PUT };
