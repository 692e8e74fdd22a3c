import { referenceBundle } from "@/server/8-rest/reference-page";

export async function GET() {
  return new Response(new Uint8Array(await referenceBundle()), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
