import { ssoCallback } from "@/server/auth/sso";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => ssoCallback(request);
