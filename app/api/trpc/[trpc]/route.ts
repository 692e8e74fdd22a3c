import { handleDashboardTrpc } from "@/server/dashboard/trpc-handler";
import { getDatabase } from "@/server/database/app-database";

export const dynamic = "force-dynamic";

const handle = (request: Request) => handleDashboardTrpc(request, async () => (await getDatabase()).db);

export { handle as GET, handle as POST };
