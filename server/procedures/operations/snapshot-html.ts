/**
 * The snapshot as one self-contained HTML page (no script, no external resource) for MCP clients
 * that render UI resources: `ui://service/snapshot/{marketId}`.
 */
import { AXES } from "../../domain/market-definition";
import { escapeHtml } from "../../http/html";
import type { snapshot } from "../../readings/snapshot";

/** The snapshot reading as computed (the declaration in ./snapshot.ts serves it). */
type Snapshot = ReturnType<typeof snapshot>;

export const snapshotResourceUri = (marketId: string) => `ui://service/snapshot/${marketId}`;
export const SNAPSHOT_RESOURCE_TEMPLATE = "ui://service/snapshot/{marketId}";

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#16202b;margin:1rem;line-height:1.4}
h1{font-size:1.3rem;margin:0 0 .25rem}h2{font-size:1.05rem;margin:1.25rem 0 .5rem}
.meta{color:#5b6876;font-size:.9rem}table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #dde3ea;vertical-align:top}
th{color:#5b6876;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}
.band{display:inline-block;font-size:.75rem;padding:0 .4rem;border-radius:.6rem;background:#e8eef8;color:#1f4f99;margin-left:.3rem}
blockquote{margin:0;padding:.5rem 1rem;border-left:3px solid #1f5fbf;background:#f7f9fb;white-space:pre-wrap}
.wrap{overflow-x:auto}`;

export function snapshotHtml(snapshot: Snapshot): string {
  const rows = snapshot.products
    .map(
      (p) =>
        `<tr><th scope="row">${escapeHtml(p.name)}</th><td>${escapeHtml(p.vendor)}</td>${AXES.map(
          (axis) => `<td class="num">${p.scores[axis]}<span class="band">${escapeHtml(p.bands[axis])}</span></td>`,
        ).join("")}<td>${p.gaps.map(escapeHtml).join(", ")}</td></tr>`,
    )
    .join("\n");
  const dimensions = snapshot.dimensions
    .map(
      (d) =>
        `<tr><th scope="row">${escapeHtml(d.name)}</th><td>${d.bands
          .map((b) => `${escapeHtml(b.name)} ${b.from}–${b.to}`)
          .join(" · ")}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(snapshot.name)} — snapshot</title><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(snapshot.name)}</h1>
<p class="meta">Release ${snapshot.release} · methodology ${escapeHtml(snapshot.methodologyVersion)} · last updated ${escapeHtml(snapshot.lastUpdated)}</p>
<h2>Products</h2>
<div class="wrap"><table>
<thead><tr><th scope="col">Product</th><th scope="col">Vendor</th><th scope="col">Innovation</th><th scope="col">Control</th><th scope="col">Scale</th><th scope="col">Gaps</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>
<h2>Bands</h2>
<div class="wrap"><table><tbody>
${dimensions}
</tbody></table></div>
<h2>Methodology</h2>
<blockquote>${escapeHtml(snapshot.methodology)}</blockquote>
</body></html>`;
}
