/**
 * An embed's answers at one release, drawn from its bounded charts: the SVG, the SVG its PNG
 * renders, the page, the CSV and every format's ETag. Pure and bounded (a chart draws at most
 * EMBED_DRAWN_PRODUCTS products), but not cheap: placing the map's names takes tens of
 * milliseconds a layout, and the page draws two layouts of two views. So it runs on the worker
 * pool (./answers-task.ts via ./serve.ts), never on the event loop that answers every customer.
 */
import { createHash } from "node:crypto";
import { csvOf, type EmbedChart, embedSvg, svgSize } from "./chart";
import { embedPage } from "./page";

export type EmbedFormat = "html" | "svg" | "png" | "csv" | "methodology";

/** What the answers are drawn from: the embed's chart, the page's other views, the links it shows. */
export interface EmbedAnswersInput {
  chart: EmbedChart;
  others: EmbedChart[];
  links: { page: string; svg: string; png: string; csv: string; oembed: string };
  /** What names the methodology page's bytes: its release and origin. */
  methodologyKey: string;
}

export interface EmbedAnswers {
  svg: string;
  /** The SVG the PNG renders: the same drawing without the CSS of the reader's scheme. */
  pngSvg: string;
  page: string;
  /** The chart's data, exactly what it draws (csvOf). */
  csv: string;
  /** The ETag of each format: the page's and the SVG's bytes, the PNG named by the SVG it renders. */
  etags: Record<EmbedFormat, string>;
  /** The page's size at full width, its tallest view shown (the frame oEmbed offers). */
  pageSize: { width: number; height: number };
  /** What the answers hold in memory, for the bound on what is kept. */
  bytes: number;
}

export const strongEtag = (body: string) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;

export const PAGE_EXTRA_WIDTH = 16;

/**
 * The height the page adds below and above its chart at full width, on the generous side so the
 * frame oEmbed offers does not scroll: the body's padding, the map/bars switch, the caption and
 * note (14 px text, some 90 characters a line), the table's summary, the citation (12 px, some 100).
 */
function pageExtraHeight(chart: EmbedChart, toolbar: boolean): number {
  const lines = (text: string, perLine: number) => Math.max(1, Math.ceil(text.length / perLine));
  return (
    16 +
    (toolbar ? 36 : 0) +
    22 * lines(chart.caption, 90) +
    (chart.note ? 22 * lines(chart.note, 90) : 0) +
    (chart.more ? 22 * lines(chart.more, 90) : 0) +
    28 +
    20 * lines(`${chart.citation} Methodology · SVG · PNG`, 100) +
    24
  );
}

export function embedAnswers({ chart, others, links, methodologyKey }: EmbedAnswersInput): EmbedAnswers {
  const svg = embedSvg(chart);
  const pngSvg = embedSvg(chart, { schemes: false });
  const csv = csvOf(chart.drawing);
  const sizes = [svgSize(svg), ...others.map((other) => svgSize(embedSvg(other)))];
  const page = embedPage(chart, links, others);
  return {
    svg,
    pngSvg,
    page,
    csv,
    etags: {
      html: strongEtag(page),
      svg: strongEtag(svg),
      png: strongEtag(`png:${pngSvg}`),
      csv: strongEtag(csv),
      methodology: strongEtag(`methodology:${methodologyKey}`),
    },
    pageSize: {
      width: Math.max(...sizes.map((size) => size.width)) + PAGE_EXTRA_WIDTH,
      height: Math.max(...sizes.map((size) => size.height)) + pageExtraHeight(chart, others.length > 0),
    },
    bytes: (svg.length + pngSvg.length + page.length + csv.length) * 2,
  };
}
