/**
 * The API reference, framed by the dashboard's /docs/api page (which keeps the app's header):
 * Scalar's standalone bundle served from our own origin at /docs/api/reference, and a
 * Content-Security-Policy that allows nothing but this origin, so the page works offline and can
 * fetch nothing from elsewhere (no CDN, no fonts, no proxy, no telemetry). Only this origin may
 * frame it.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";

export const REFERENCE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'", // Scalar injects its styles at run time
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

export const REFERENCE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · Market Positioning Service</title>
  </head>
  <body>
    <div id="reference"></div>
    <noscript>The reference needs JavaScript; the document it reads is <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
    <script src="/docs/api/scalar.js"></script>
    <script src="/docs/api/init.js"></script>
  </body>
</html>
`;

export const REFERENCE_INIT = `// Not "#api-reference": the bundle auto-mounts that id itself, with an empty configuration.
Scalar.createApiReference("#reference", {
  url: "/v1/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: false,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: "json",
});
`;

const BUNDLE = path.join(
  /*turbopackIgnore: true*/ process.cwd(),
  "node_modules/@scalar/api-reference/dist/browser/standalone.js",
);

let bundle: Promise<Buffer> | undefined;

/** Scalar's standalone browser bundle, read once. */
export function referenceBundle(): Promise<Buffer> {
  bundle ??= readFile(BUNDLE).catch((error) => {
    bundle = undefined;
    throw error;
  });
  return bundle;
}
