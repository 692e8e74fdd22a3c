import type { NextRequest } from "next/server";
import { handlers } from "@/server/auth/config";
import { atPublicOrigin } from "@/server/http/origin";

export const dynamic = "force-dynamic";

export const GET = (request: NextRequest) => handlers.GET(atPublicOrigin(request) as NextRequest);
export const POST = (request: NextRequest) => handlers.POST(atPublicOrigin(request) as NextRequest);
