/**
 * The embed's public page: the chart inlined (each mark reachable by Tab, named for screen
 * readers), the Delta's other view beside it for the switch, its table alternative, the caption,
 * the citation with the methodology link, and the oEmbed discovery link. Its one script
 * (./page-script.ts, allowed by hash) makes the chart answer the pointer and the keyboard; no
 * external resource, no cookie (the policy, server/embeds/serve.ts, allows none). And the
 * neutral placeholder answered for a revoked, unknown or throttled embed, which names no
 * organization or market.
 */
import { type EmbedChart, embedSvg, escapeText, tableOf } from "./chart";
import { EMBED_SCRIPT } from "./page-script";

export interface PageLinks {
  /** The embed's own URL (the page). */
  page: string;
  svg: string;
  png?: string;
  /** The oEmbed endpoint's URL for this page. */
  oembed: string;
}

const STYLE = (dark: boolean) => `
:root{color-scheme:${dark ? "dark" : "light"}}
body{margin:0;padding:8px;font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;background:${dark ? "#16181d" : "#fff"};color:${dark ? "#f2f2f2" : "#1a1a1a"}}
figure{margin:0}
svg{max-width:100%;height:auto;display:block}
svg .mark:focus{outline:none}
svg .mark:focus>text:first-of-type{text-decoration:underline}
svg .mark:focus rect,svg .mark:focus circle{stroke:${dark ? "#ffd166" : "#b35c00"};stroke-width:2}
figcaption{margin:4px 0}
.note{color:${dark ? "#b8b8b8" : "#555"}}
.citation{font-size:12px;color:${dark ? "#c8c8c8" : "#444"}}
a{color:${dark ? "#9cc3ff" : "#0b4f9c"}}
table{border-collapse:collapse;font-size:12px;margin:6px 0}
th,td{border:1px solid ${dark ? "#3a4659" : "#ccd"};padding:2px 6px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.toolbar{display:flex;gap:6px;margin:0 0 6px}
.toolbar button{font:inherit;font-size:13px;padding:3px 12px;border-radius:6px;cursor:pointer;border:1px solid ${dark ? "#9cc3ff" : "#0b4f9c"};background:transparent;color:${dark ? "#9cc3ff" : "#0b4f9c"}}
.toolbar button[aria-pressed=true]{background:${dark ? "#9cc3ff" : "#0b4f9c"};color:${dark ? "#16181d" : "#fff"}}
.toolbar button:focus-visible,tr:focus{outline:2px solid ${dark ? "#ffd166" : "#b35c00"};outline-offset:1px}
.tip{position:absolute;z-index:1;max-width:min(26rem,90vw);padding:4px 8px;border-radius:4px;font-size:12px;pointer-events:none;background:${dark ? "#f2f2f2" : "#1a1a1a"};color:${dark ? "#16181d" : "#fff"};white-space:pre-line}
tr.current td{background:${dark ? "#3a3320" : "#fff3d6"}}
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
  const dark = chart.theme === "dark";
  const views = [chart, ...others];
  const figures = views
    .map(
      (view, index) =>
        `<div data-embed-view="${escapeText(view.view)}"${index === 0 ? "" : " hidden"}>${embedSvg(view, {
          standalone: false,
          idPrefix: `embed-${view.view}`,
        })}</div>`,
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
<style>${STYLE(dark)}</style></head>
<body data-view="${escapeText(chart.view)}"><main><figure aria-labelledby="embed-caption">
<h1 class="visually-hidden">${escapeText(chart.title)}</h1>
${toolbar}
${figures}
<figcaption id="embed-caption">${escapeText(chart.caption)}</figcaption>
${chart.note ? `<p class="note" id="embed-note">${escapeText(chart.note)}</p>` : ""}
${moreHtml(chart)}
<details id="embed-table"><summary>Table of the chart</summary>${tableHtml(chart)}</details>
<p class="citation" id="embed-citation">${escapeText(chart.citation.replace(/ Methodology: \S+$/, ""))} <a href="${escapeText(chart.methodologyUrl)}" target="_blank" rel="noopener noreferrer">Methodology</a> · <a href="${escapeText(links.svg)}" target="_blank" rel="noopener noreferrer">SVG</a>${links.png ? ` · <a href="${escapeText(links.png)}" target="_blank" rel="noopener noreferrer">PNG</a>` : ""}</p>
</figure></main>
<div class="tip" id="embed-tip" aria-hidden="true" hidden></div>
<script>${EMBED_SCRIPT}</script></body></html>`;
}

/** A neutral page: says what happened, names nothing of the embed. */
export function placeholderPage(heading: string, text: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeText(heading)}</title><style>${STYLE(false)}</style></head>
<body><main><h1 style="font-size:16px">${escapeText(heading)}</h1><p>${escapeText(text)}</p></main></body></html>`;
}
