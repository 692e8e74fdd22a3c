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
  forceDarkModeState: "light",
  hideDarkModeToggle: true,
  // WCAG 2.2 AA like the rest of the app (axe-core checks this frame too): Scalar's light palette
  // sets method badges and hints below 4.5:1, and its group toggles below 24 px.
  customCss: \`
    .light-mode, :root {
      --scalar-color-2: #4a4a4a; --scalar-color-3: #595959;
      --scalar-color-green: #0a6b2c; --scalar-color-blue: #0b5cad; --scalar-color-orange: #8a4500;
      --scalar-color-red: #b3261e; --scalar-color-yellow: #7a5c00; --scalar-color-purple: #6b3fa0;
    }
    .sidebar-search-placeholder { color: #595959; }
    .group\\\\/group-button > .p-0\\\\.75 { min-width: 24px; min-height: 24px; display: flex; align-items: center; justify-content: center; }
  \`,
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
