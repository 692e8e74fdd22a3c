/**
 * The embed's chart as PNG, for documents that take no SVG: the SVG rasterised on a worker thread
 * (server/3-workers/png-task.ts), never on the event loop, at twice its size for slides, within a
 * pixel budget.
 *
 * - Budget: at most PNG_MAX_PIXELS pixels (4 megapixels, some 16 MB of raw pixels while it is
 *   drawn). A chart draws at most EMBED_DRAWN_PRODUCTS products, so it fits at full scale; the
 *   zoom is lowered for any picture that would not.
 * - Kept: the PNGs rendered lately, by the SVG they render (its hash), one rendering per SVG while
 *   kept; bounded by count, the oldest goes.
 * - When every thread is busy and the pool's queue is full, the rendering is refused at once
 *   (WorkersBusy): the caller answers 503 with Retry-After.
 */
import { createHash } from "node:crypto";
import { runTask } from "../3-workers/pool";
import { svgSize } from "./chart";

export const PNG_SCALE = 2;
export const PNG_MAX_PIXELS = 4_000_000;

/** The zoom at which a `width` × `height` picture stays within `maxPixels`, never above `scale`. */
export function zoomWithin(size: { width: number; height: number }, scale: number, maxPixels: number): number {
  const fits = Math.sqrt(maxPixels / Math.max(1, size.width * size.height));
  return Math.min(scale, Math.floor(fits * 1000) / 1000);
}

const RENDERED_MAX = 64;
const state = globalThis as typeof globalThis & { __mpsEmbedPngs?: Map<string, Promise<Buffer | null>> };
const rendered = (): Map<string, Promise<Buffer | null>> => {
  state.__mpsEmbedPngs ??= new Map();
  return state.__mpsEmbedPngs;
};

/** The PNG of `svg`, or null when this machine cannot render one; rejects with WorkersBusy when full. */
export function svgToPng(svg: string): Promise<Buffer | null> {
  const kept = rendered();
  const key = createHash("sha256").update(svg).digest("base64url");
  const found = kept.get(key);
  if (found) return found;
  const zoom = zoomWithin(svgSize(svg), PNG_SCALE, PNG_MAX_PIXELS);
  const made = runTask("png", { svg, zoom }).then((png) =>
    png ? Buffer.from(png.buffer, png.byteOffset, png.byteLength) : null,
  );
  if (kept.size >= RENDERED_MAX) kept.delete(kept.keys().next().value as string);
  kept.set(key, made);
  // A refusal or a failure is not kept: the next view tries again.
  made.catch(() => kept.delete(key));
  return made;
}
