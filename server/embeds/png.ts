/**
 * The embed's chart as PNG, for documents that take no SVG: the SVG rendered by resvg
 * (@resvg/resvg-js, whose platform binary is an npm package: nothing is downloaded at install or
 * run time), at twice its size for slides, with the machine's fonts (DejaVu Sans when the SVG's
 * families are missing).
 */
import { Resvg } from "@resvg/resvg-js";

export const PNG_SCALE = 2;

export function svgToPng(svg: string): Buffer {
  const rendered = new Resvg(svg, {
    fitTo: { mode: "zoom", value: PNG_SCALE },
    font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans", sansSerifFamily: "DejaVu Sans" },
  }).render();
  return Buffer.from(rendered.asPng());
}
