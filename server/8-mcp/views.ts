/**
 * The MCP Apps chart view: one self-contained HTML document (built by scripts/build-mcp-views.ts)
 * that the delta, max and capability index tools declare as their UI resource.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

export const CHARTS_RESOURCE_URI = "ui://service/charts";
export const CHARTS_VIEW_FILE = path.resolve(/*turbopackIgnore: true*/ process.cwd(), ".mcp-views", "charts.html");

let cached: string | undefined;

export function chartsViewHtml(): string {
  if (cached) return cached;
  try {
    cached = readFileSync(CHARTS_VIEW_FILE, "utf8");
  } catch (error) {
    throw new Error(`The MCP chart view is not built (${CHARTS_VIEW_FILE}); run npm run build`, { cause: error });
  }
  return cached;
}
