import { getDatabase } from "@/server/5-database/app-database";
import { handleOAuthRequest } from "@/server/8-oauth/routes";

export const dynamic = "force-dynamic";

const handle = (request: Request) => handleOAuthRequest(request, async () => (await getDatabase()).db);

export { handle as DELETE, handle as GET, handle as OPTIONS, handle as POST, handle as PUT };
