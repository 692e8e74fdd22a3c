import { ssoStart } from "@/server/6-auth/sso";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => ssoStart(request);
