/**
 * The embed's chart as PNG, for documents that take no SVG: the SVG rendered by resvg
 * (@resvg/resvg-js, whose platform binary is an npm package: nothing is downloaded at install or
 * run time), at twice its size for slides, with the machine's fonts (DejaVu Sans when the SVG's
 * families are missing). Loaded on first use: a machine without the binary for its platform
 * still serves everything else, and answers the PNG as unavailable.
 */

import { createHash } from "node:crypto";

export const PNG_SCALE = 2;

type Renderer = typeof import("@resvg/resvg-js");
let loading: Promise<Renderer | null> | undefined;

function renderer(): Promise<Renderer | null> {
  loading ??= import("@resvg/resvg-js").catch((error: unknown) => {
    console.error("[embeds] PNG rendering is unavailable:", error);
    return null;
  });
  return loading;
}

/**
 * PNGs rendered lately, by the SVG they render (its hash): a rendering costs over 100 ms of CPU,
 * and every view of a popular embed asks for the same one. Bounded by count; the oldest goes.
 */
const RENDERED_MAX = 64;
const rendered = new Map<string, Promise<Buffer | null>>();

/** The PNG of `svg`, or null when this machine cannot render one; one rendering per SVG while kept. */
export function svgToPng(svg: string): Promise<Buffer | null> {
  const key = createHash("sha256").update(svg).digest("base64url");
  const kept = rendered.get(key);
  if (kept) return kept;
  const made = renderPng(svg);
  if (rendered.size >= RENDERED_MAX) rendered.delete(rendered.keys().next().value as string);
  rendered.set(key, made);
  made.catch(() => rendered.delete(key));
  return made;
}

async function renderPng(svg: string): Promise<Buffer | null> {
  const resvg = await renderer();
  if (!resvg) return null;
  const image = new resvg.Resvg(svg, {
    fitTo: { mode: "zoom", value: PNG_SCALE },
    font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans", sansSerifFamily: "DejaVu Sans" },
  }).render();
  return Buffer.from(image.asPng());
}
