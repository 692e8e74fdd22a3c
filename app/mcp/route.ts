import { getDatabase } from "@/db";
import { handleMcpRequest } from "@/server/mcp/handler";

export const dynamic = "force-dynamic";

const handle = (request: Request) => handleMcpRequest(request, async () => (await getDatabase()).db);

export { handle as DELETE, handle as GET, handle as POST };
