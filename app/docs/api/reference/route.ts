/** The bare API reference (Scalar), framed by /docs/api; only this origin may frame it. */
import { REFERENCE_CSP, REFERENCE_HTML } from "@/server/8-rest/reference-page";

export function GET() {
  return new Response(REFERENCE_HTML, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": REFERENCE_CSP,
      "X-Frame-Options": "SAMEORIGIN",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    },
  });
}
