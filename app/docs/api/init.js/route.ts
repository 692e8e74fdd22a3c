import { REFERENCE_INIT } from "@/server/8-rest/reference-page";

export function GET() {
  return new Response(REFERENCE_INIT, { headers: { "Content-Type": "text/javascript; charset=utf-8" } });
}
