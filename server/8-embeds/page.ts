/**
 * The embed's public page: the chart inlined (each mark reachable by Tab, named for screen
 * readers), the Delta's other view beside it for the switch, its table alternative, the caption,
 * the citation with the methodology link, and the oEmbed discovery link. Its one script
 * (./page-script.ts, allowed by hash) makes the chart answer the pointer and the keyboard; no
 * external resource, no cookie (the policy, server/8-embeds/serve.ts, allows none). And the
 * neutral placeholder answered for a revoked, unknown or throttled embed, which names no
 * organization or market.
 */
import { type EmbedChart, type EmbedTheme, embedSvg, escapeText, schemeStyle, tableOf } from "./chart";
import { EMBED_SCRIPT } from "./page-script";

export interface PageLinks {
  /** The embed's own URL (the page). */
  page: string;
  svg: string;
  png?: string;
  /** The oEmbed endpoint's URL for this page. */
  oembed: string;
  /** The chart's data as CSV (what it draws). */
  csv?: string;
}

/** The page's width at which the wide drawing shows at its natural size (720 px and the padding). */
export const WIDE_PAGE_WIDTH = 736;

/** The page's colours in each scheme, as CSS custom properties. */
const PAGE_COLOURS = {
  light: "--bg:#fff;--fg:#1a1a1a;--note:#555;--cite:#444;--link:#0b4f9c;--line:#ccd;--focus:#b35c00;--current:#fff3d6",
  dark: "--bg:#16181d;--fg:#f2f2f2;--note:#b8b8b8;--cite:#c8c8c8;--link:#9cc3ff;--line:#3a4659;--focus:#ffd166;--current:#3a3320",
};

/**
 * The page's style in its theme: light or dark fixed, or `auto`, light unless the reader's setting
 * is dark (prefers-color-scheme), the chart repainted with it (schemeStyle). Which drawing of the
 * chart shows depends on the frame's width: the narrow one below the wide one's natural width.
 */
const STYLE = (theme: EmbedTheme) => `
:root{color-scheme:${theme === "auto" ? "light dark" : theme};${PAGE_COLOURS[theme === "dark" ? "dark" : "light"]}}
${theme === "auto" ? `@media (prefers-color-scheme: dark){:root{${PAGE_COLOURS.dark}}}${schemeStyle()}` : ""}
body{margin:0;padding:8px;font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;background:var(--bg);color:var(--fg)}
figure{margin:0}
svg{max-width:100%;height:auto;display:block}
.layout-narrow{display:none}
.layout-narrow svg{width:100%;max-width:560px}
@media (max-width:${WIDE_PAGE_WIDTH - 1}px){.layout-wide{display:none}.layout-narrow{display:block}}
svg .mark:focus{outline:none}
svg .mark:focus>text:first-of-type{text-decoration:underline}
svg .mark:focus rect,svg .mark:focus circle{stroke:var(--focus);stroke-width:2}
figcaption{margin:4px 0}
.note{color:var(--note)}
.citation{font-size:12px;color:var(--cite)}
a{color:var(--link)}
table{border-collapse:collapse;font-size:12px;margin:6px 0}
th,td{border:1px solid var(--line);padding:2px 6px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.toolbar{display:flex;gap:6px;margin:0 0 6px}
.toolbar button{font:inherit;font-size:13px;padding:3px 12px;border-radius:6px;cursor:pointer;border:1px solid var(--link);background:transparent;color:var(--link)}
.toolbar button[aria-pressed=true]{background:var(--link);color:var(--bg)}
.toolbar button:focus-visible,tr:focus{outline:2px solid var(--focus);outline-offset:1px}
.tip{position:absolute;z-index:1;max-width:min(26rem,90vw);padding:4px 8px;border-radius:4px;font-size:12px;pointer-events:none;background:var(--fg);color:var(--bg);white-space:pre-line}
tr.current td{background:var(--current)}
.methodology p{max-width:44rem}
.methodology blockquote{margin:0;padding-left:10px;border-left:3px solid var(--line)}
`;

const numeric = (cell: string) => /^-?\d+(\.\d+)?$/.test(cell);

function tableHtml(chart: EmbedChart): string {
  const table = tableOf(chart.drawing);
  const head = table.columns.map((c) => `<th scope="col">${escapeText(c)}</th>`).join("");
  const rows = table.rows
    .map(
      (row) =>
        `<tr data-product="${escapeText(row.productId)}" tabindex="-1">${row.cells
          .map((cell) => `<td${numeric(cell) ? ' class="n"' : ""}>${escapeText(cell)}</td>`)
          .join("")}</tr>`,
    )
    .join("");
  return `<table><caption class="visually-hidden">${escapeText(chart.title)}: the chart's numbers</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** How many products the chart leaves out, with a link to every one (the dashboard's reading). */
function moreHtml(chart: EmbedChart): string {
  if (!chart.more) return "";
  const text = chart.fullTableUrl ? chart.more.replace(/ Every product: \S+$/, "") : chart.more;
  const link = chart.fullTableUrl
    ? ` <a href="${escapeText(chart.fullTableUrl)}" target="_blank" rel="noopener noreferrer">Every product</a>`
    : "";
  return `<p class="note" id="embed-more">${escapeText(text)}${link}</p>`;
}

/** The switch's name for a view of the chart. */
const VIEW_NAMES: Record<string, string> = { map: "Map", bars: "Bars", grid: "Grid" };

/**
 * The page of `chart` (the embed's own view, shown first); `others` are the same reading in its
 * other views, drawn hidden for the switch (the Delta's bars beside its map).
 */
export function embedPage(chart: EmbedChart, links: PageLinks, others: readonly EmbedChart[] = []): string {
  const views = [chart, ...others];
  // Each view drawn wide and narrow; the style shows the one that fits the frame.
  const drawn = (view: EmbedChart, layout: "wide" | "narrow") =>
    `<div class="layout-${layout}">${embedSvg(view, { standalone: false, idPrefix: `embed-${view.view}-${layout}`, layout })}</div>`;
  const figures = views
    .map(
      (view, index) =>
        `<div data-embed-view="${escapeText(view.view)}"${index === 0 ? "" : " hidden"}>${drawn(view, "wide")}${drawn(view, "narrow")}</div>`,
    )
    .join("\n");
  const toolbar =
    views.length > 1
      ? `<div class="toolbar" id="embed-toolbar" role="group" aria-label="View" hidden>${views
          .map(
            (view, index) =>
              `<button type="button" data-view-button="${escapeText(view.view)}" aria-pressed="${index === 0}">${VIEW_NAMES[view.view] ?? escapeText(view.view)}</button>`,
          )
          .join("")}</div>`
      : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeText(chart.title)}</title>
<link rel="alternate" type="application/json+oembed" href="${escapeText(links.oembed)}" title="${escapeText(chart.title)}">
<link rel="canonical" href="${escapeText(links.page)}">
<style>${STYLE(chart.theme)}</style></head>
<body data-view="${escapeText(chart.view)}"><main><figure aria-labelledby="embed-caption">
<h1 class="visually-hidden">${escapeText(chart.title)}</h1>
${toolbar}
${figures}
<figcaption id="embed-caption">${escapeText(chart.caption)}</figcaption>
${chart.note ? `<p class="note" id="embed-note">${escapeText(chart.note)}</p>` : ""}
${moreHtml(chart)}
<details id="embed-table"><summary>Table of the chart</summary>${tableHtml(chart)}</details>
<p class="citation" id="embed-citation">${escapeText(chart.citation.replace(/ Methodology: \S+$/, ""))} <a href="${escapeText(chart.methodologyUrl)}" target="_blank" rel="noopener noreferrer">Methodology</a> · ${links.csv ? `<a href="${escapeText(links.csv)}" target="_blank" rel="noopener noreferrer" download>Data (CSV)</a> · ` : ""}<a href="${escapeText(links.svg)}" target="_blank" rel="noopener noreferrer">SVG</a>${links.png ? ` · <a href="${escapeText(links.png)}" target="_blank" rel="noopener noreferrer">PNG</a>` : ""}</p>
</figure></main>
<div class="tip" id="embed-tip" aria-hidden="true" hidden></div>
<script>${EMBED_SCRIPT}</script></body></html>`;
}

/** A neutral page: says what happened, names nothing of the embed. */
export function placeholderPage(heading: string, text: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeText(heading)}</title><style>${STYLE("auto")}</style></head>
<body><main><h1 style="font-size:16px">${escapeText(heading)}</h1><p>${escapeText(text)}</p></main></body></html>`;
}

/** What the methodology page of an embed says: its release's methodology, as published. */
export interface EmbedMethodology {
  marketName: string;
  release: number;
  releasedAt: string;
  methodologyVersion: string;
  /** The methodology text verbatim (paragraphs split on blank lines). */
  methodology: string;
  dimensions: { name: string; description: string; bands: { name: string; from: number; to: number }[] }[];
  /** The embed's page, to return to. */
  chartUrl: string;
}

/**
 * The public methodology page of the release an embed shows: reached only through the embed (its
 * id is the key), so it shows nothing the embed does not already make public. Every text is
 * hostile text, escaped; nothing runs, nothing loads.
 */
export function methodologyPage(shown: EmbedMethodology): string {
  const title = `Methodology of ${shown.marketName}, release ${shown.release}`;
  const paragraphs = shown.methodology
    .trimEnd()
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${escapeText(paragraph)}</p>`)
    .join("\n");
  const dimensions = shown.dimensions
    .map(
      (dimension) =>
        `<h3>${escapeText(dimension.name)}</h3><p>${escapeText(dimension.description)}</p><table><caption class="visually-hidden">Bands of ${escapeText(dimension.name)}</caption><thead><tr><th scope="col">Band</th><th scope="col">From</th><th scope="col">To</th></tr></thead><tbody>${dimension.bands
          .map(
            (band) =>
              `<tr><td>${escapeText(band.name)}</td><td class="n">${band.from}</td><td class="n">${band.to}</td></tr>`,
          )
          .join("")}</tbody></table>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeText(title)}</title><style>${STYLE("auto")}</style></head>
<body><main class="methodology"><h1 style="font-size:18px">${escapeText(title)}</h1>
<p class="note">Published ${escapeText(shown.releasedAt.slice(0, 10))}, methodology version ${escapeText(shown.methodologyVersion)}. <a href="${escapeText(shown.chartUrl)}">Back to the chart</a></p>
<h2 style="font-size:16px">Methodology</h2>
<blockquote id="embed-methodology">${paragraphs}</blockquote>
<h2 style="font-size:16px">Dimensions and bands</h2>
${dimensions}
</main></body></html>`;
}
