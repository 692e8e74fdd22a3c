import { outboxMailResponse } from "@/server/8-dashboard/outbox-mail";

export const dynamic = "force-dynamic";

/** A dev-outbox mail's HTML part (server/8-dashboard/outbox-mail.ts). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return outboxMailResponse(request, (await params).id);
}
