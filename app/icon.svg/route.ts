import { ICON_SVG } from "@/server/2-http/icon";

export const dynamic = "force-static";

/** The favicon and the MCP registry entry's icon. */
export function GET(): Response {
  return new Response(ICON_SVG, {
    headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400" },
  });
}
