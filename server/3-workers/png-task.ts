/**
 * Rasterising an SVG to PNG, on a worker thread (./pool.ts): resvg (@resvg/resvg-js, whose
 * platform binary is an npm package: nothing is downloaded at install or run time).
 *
 * - Fonts: DejaVu Sans (regular and bold), found once per thread; each rendering reads those two
 *   files and never scans the machine's fonts. A machine without them falls back to the system's.
 * - A machine without resvg's binary for its platform gives null (the PNG answers as unavailable).
 */
import { existsSync } from "node:fs";
import path from "node:path";

type Renderer = typeof import("@resvg/resvg-js");
let loading: Promise<Renderer | null> | undefined;

const renderer = (): Promise<Renderer | null> => {
  loading ??= import("@resvg/resvg-js").catch((error: unknown) => {
    console.error("[workers] PNG rendering is unavailable:", error);
    return null;
  });
  return loading;
};

const FONT_FOLDERS = ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/TTF", "/usr/share/fonts/dejavu"];
const FONT_NAMES = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"];

/** The font files this thread renders with, found once; empty: the system's fonts. */
export const fontFiles: string[] = (() => {
  for (const folder of FONT_FOLDERS) {
    const files = FONT_NAMES.map((name) => path.join(folder, name));
    if (files.every((file) => existsSync(file))) return files;
  }
  return [];
})();

const fontOptions = () =>
  fontFiles.length > 0
    ? { loadSystemFonts: false, fontFiles, defaultFontFamily: "DejaVu Sans", sansSerifFamily: "DejaVu Sans" }
    : { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans", sansSerifFamily: "DejaVu Sans" };

/** The PNG of `svg` at `zoom` (the caller keeps it within its pixel budget), or null without resvg. */
export default async function renderPng({ svg, zoom }: { svg: string; zoom: number }): Promise<Uint8Array | null> {
  const resvg = await renderer();
  if (!resvg) return null;
  return new resvg.Resvg(svg, { fitTo: { mode: "zoom", value: zoom }, font: fontOptions() }).render().asPng();
}
