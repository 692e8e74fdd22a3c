/**
 * Builds the MCP Apps chart view: bundles components/mcp-views/charts-view.ts with esbuild and
 * inlines it into its HTML page, so the host's iframe loads one self-contained document that
 * fetches nothing. Run by `npm run build` and by `npm start` before `next build`.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");
export const VIEW_SOURCE = path.join(ROOT, "components", "mcp-views");
export const VIEW_OUTPUT = path.join(ROOT, ".mcp-views", "charts.html");

export async function buildMcpViews(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(VIEW_SOURCE, "charts-view.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    legalComments: "none",
  });
  const script = (result.outputFiles[0]?.text ?? "").replace(/<\/(script)/gi, "<\\/$1");
  const page = readFileSync(path.join(VIEW_SOURCE, "charts-view.html"), "utf8");
  const html = page.replace("<script>/*BUNDLE*/</script>", () => `<script>${script}</script>`);
  if (html === page) throw new Error("charts-view.html has no <script>/*BUNDLE*/</script> placeholder");
  mkdirSync(path.dirname(VIEW_OUTPUT), { recursive: true });
  writeFileSync(VIEW_OUTPUT, html);
  return VIEW_OUTPUT;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = await buildMcpViews();
  console.log(`[views] built ${path.relative(ROOT, file)} (${(readFileSync(file).length / 1024).toFixed(0)} KiB)`);
}
