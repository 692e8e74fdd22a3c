import { handleMcpRequest } from "@/server/mcp/handler";
import { getDatabase } from "@/server/startup/database";

export const dynamic = "force-dynamic";

const handle = (request: Request) => handleMcpRequest(request, async () => (await getDatabase()).db);

// Every method reaches the handler, so the ones MCP does not use answer our 405 problem, not Next's.
export {
  handle as DELETE,
  handle as GET,
  handle as HEAD,
  handle as OPTIONS,
  handle as PATCH,
  handle as POST,
  handle as PUT,
};
