import type { NextRequest } from "next/server";
import { atPublicOrigin } from "@/server/2-http/origin";
import { handlers } from "@/server/6-auth/config";

export const dynamic = "force-dynamic";

export const GET = (request: NextRequest) => handlers.GET(atPublicOrigin(request) as NextRequest);
export const POST = (request: NextRequest) => handlers.POST(atPublicOrigin(request) as NextRequest);
