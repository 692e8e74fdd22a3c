/**
 * The snapshot as one self-contained HTML page (no script, no external resource) for MCP clients
 * that render UI resources: `ui://service/snapshot/{marketId}?release=…`, one URI per page of it.
 */
import { AXES } from "../../1-domain/market-definition";
import { count } from "../../2-formats/count";
import { nameList } from "../../2-formats/name-list";
import { escapeHtml } from "../../2-http/html";
import { cursorAt, type Page } from "../../2-readings/narrowing";
import type { snapshot } from "../../2-readings/snapshot";

/** The snapshot reading as computed (the declaration in ./snapshot.ts serves it), or a page of it. */
type Snapshot = ReturnType<typeof snapshot> & { page?: Page };

/** The tool's arguments a page's URI carries: those that decide which products it holds. */
export const SNAPSHOT_URI_ARGUMENTS = ["release", "productIds", "cursor", "limit"] as const;

/** Every page's URI, as resources/templates/list gives it. */
export const SNAPSHOT_RESOURCE_TEMPLATE = `ui://service/snapshot/{marketId}{?${SNAPSHOT_URI_ARGUMENTS.join(",")}}`;

/**
 * The snapshot tool's arguments a page's URI names; null for a URI that is no snapshot page (or
 * carries what no page's URI does). `ui://service/snapshot/{marketId}` alone is the latest release.
 */
export function snapshotArgumentsOf(uri: string): Record<string, string | number> | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  const match = /^\/snapshot\/([^/]+)$/.exec(url.pathname);
  if (url.protocol !== "ui:" || url.host !== "service" || !match || url.hash) return null;
  const args: Record<string, string | number> = { marketId: decodeURIComponent(match[1] as string) };
  for (const [key, value] of url.searchParams) {
    if (!(SNAPSHOT_URI_ARGUMENTS as readonly string[]).includes(key) || key in args) return null;
    args[key] = key === "release" || key === "limit" ? Number(value) : value;
  }
  return args;
}

/** Whether a payload holds only part of the products it was asked for. */
const isPartial = (page: Page | undefined): page is Page =>
  page !== undefined && (page.offset > 0 || page.nextCursor !== null);

/**
 * The URI of the page a payload is: the market and release, the products asked for, and where
 * the page starts and how many it holds. A host that keeps resources by URI never shows one page
 * (or release) for another, and reading the URI answers the same page.
 */
export function snapshotResourceUri(
  snapshot: Pick<Snapshot, "marketId" | "release" | "page">,
  args: { productIds?: unknown },
): string {
  const query = new URLSearchParams({ release: String(snapshot.release) });
  if (typeof args.productIds === "string") query.set("productIds", args.productIds);
  const page = snapshot.page;
  if (isPartial(page)) {
    if (page.offset > 0) query.set("cursor", cursorAt(page.offset));
    query.set("limit", String(page.returned));
  }
  return `ui://service/snapshot/${encodeURIComponent(snapshot.marketId)}?${query}`;
}

/** What the page says of the products it holds: all of them, or which of how many and how to get the rest. */
function productsNote(snapshot: Snapshot): string {
  const page = snapshot.page;
  const all = snapshot.products.length;
  if (!isPartial(page)) return `<p class="meta">${count(all)} product${all === 1 ? "" : "s"}.</p>`;
  const range = `products ${count(page.offset + 1)}–${count(page.offset + page.returned)}`;
  const rest =
    page.nextCursor === null
      ? "This is the last page."
      : `For the next page call service_market_get_snapshot again with the same arguments and cursor <code>${escapeHtml(page.nextCursor)}</code>; or narrow with limit, productIds or fields.`;
  return `<p class="meta" data-page>${count(page.returned)} of ${count(page.total)} products shown (${range}, in the snapshot's order). ${rest}</p>`;
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#16202b;margin:1rem;line-height:1.4}
h1{font-size:1.3rem;margin:0 0 .25rem}h2{font-size:1.05rem;margin:1.25rem 0 .5rem}
.meta{color:#5b6876;font-size:.9rem}table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #dde3ea;vertical-align:top}
th{color:#5b6876;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}
.band{display:inline-block;font-size:.75rem;padding:0 .4rem;border-radius:.6rem;background:#e8eef8;color:#1f4f99;margin-left:.3rem}
blockquote{margin:0;padding:.5rem 1rem;border-left:3px solid #1f5fbf;background:#f7f9fb;white-space:pre-wrap}
.wrap{overflow-x:auto}code{font-size:.85rem;background:#f1f4f8;padding:0 .2rem;border-radius:.2rem;overflow-wrap:anywhere}`;

export function snapshotHtml(snapshot: Snapshot): string {
  // Gaps are indicator ids; the page names them as the dimensions do.
  const indicatorNames = new Map(snapshot.dimensions.flatMap((d) => d.indicators.map((i) => [i.id, i.name])));
  const rows = snapshot.products
    .map(
      (p) =>
        `<tr><th scope="row">${escapeHtml(p.name)}</th><td>${escapeHtml(p.vendor)}</td>${AXES.map(
          (axis) => `<td class="num">${p.scores[axis]}<span class="band">${escapeHtml(p.bands[axis])}</span></td>`,
        ).join("")}<td>${escapeHtml(nameList(p.gaps.map((id) => indicatorNames.get(id) ?? id)))}</td></tr>`,
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
${productsNote(snapshot)}
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
