/**
 * The embed's chart as PNG, for documents that take no SVG: the SVG rendered by resvg
 * (@resvg/resvg-js, whose platform binary is an npm package: nothing is downloaded at install or
 * run time), at twice its size for slides, with the machine's fonts (DejaVu Sans when the SVG's
 * families are missing). Loaded on first use: a machine without the binary for its platform
 * still serves everything else, and answers the PNG as unavailable.
 */

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

/** The PNG of `svg`, or null when this machine cannot render one. */
export async function svgToPng(svg: string): Promise<Buffer | null> {
  const resvg = await renderer();
  if (!resvg) return null;
  const rendered = new resvg.Resvg(svg, {
    fitTo: { mode: "zoom", value: PNG_SCALE },
    font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans", sansSerifFamily: "DejaVu Sans" },
  }).render();
  return Buffer.from(rendered.asPng());
}
