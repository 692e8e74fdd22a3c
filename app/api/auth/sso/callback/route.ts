import { ssoCallback } from "@/server/6-auth/sso";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => ssoCallback(request);
