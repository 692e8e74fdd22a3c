import { getDatabase } from "@/server/5-database/app-database";
import { handleDecisionRequest } from "@/server/8-oauth/routes";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ uid: string }> }) {
  return handleDecisionRequest(request, (await params).uid, async () => (await getDatabase()).db);
}
