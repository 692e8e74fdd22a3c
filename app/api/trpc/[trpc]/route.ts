import { getDatabase } from "@/server/5-database/app-database";
import { handleDashboardTrpc } from "@/server/8-dashboard/trpc-handler";

export const dynamic = "force-dynamic";

const handle = (request: Request) => handleDashboardTrpc(request, async () => (await getDatabase()).db);

export { handle as GET, handle as POST };
