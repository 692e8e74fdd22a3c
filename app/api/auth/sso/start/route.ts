import { ssoStart } from "@/server/auth/sso";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => ssoStart(request);
