import { unsubscribeResponse } from "@/server/8-dashboard/unsubscribe";

export const dynamic = "force-dynamic";

/** One-click unsubscribe from notification e-mails, without signing in (server/8-dashboard/unsubscribe.ts). */
export const GET = (request: Request) => unsubscribeResponse(request);
export const POST = (request: Request) => unsubscribeResponse(request);
