/**
 * An embed's chart, pure: a reading's payload in, what it draws (bars, streaks or a grid, through
 * the dashboard's own transforms, components/charts/chart-data.ts) out, then as a self-contained
 * SVG (title and description for screen readers, caption and citation inside) and as the table
 * that is its alternative. Every name is text someone else wrote: escaped, and stripped of what
 * XML cannot hold. No I/O.
 */
import {
  type CapaIndexPayload,
  capaIndexBars,
  type DeltaPayload,
  deltaGhostBars,
  deltaStreaks,
  type GhostBar,
  type MaxPayload,
  maxGhostBars,
  type Streak,
} from "../../components/charts/chart-data";
import { inkOn, retainedColour } from "../../components/charts/heat-scale";
import { placeLabels, streakLabelPlacement } from "../../components/charts/label-placement";
import {
  EMBED_DRAWN_PRODUCTS,
  type EmbedFacts,
  type EmbedReading,
  type EmbedTheme,
  type EmbedView,
  READING_TITLES,
} from "../domain/embeds";

export type { EmbedFacts, EmbedReading, EmbedTheme, EmbedView } from "../domain/embeds";

export interface AvailabilityPayload {
  marketId: string;
  countries: { country: string; name: string }[];
  products: {
    productId: string;
    name: string;
    vendor: string;
    innovation: number;
    cells: { country: string; available: boolean; innovationRetained: number }[];
  }[];
}

export type EmbedPayload =
  | { reading: "delta"; payload: DeltaPayload }
  | { reading: "servicemax"; payload: MaxPayload }
  | { reading: "capaindex"; payload: CapaIndexPayload }
  | { reading: "availability"; payload: AvailabilityPayload };

export interface ChartRow {
  productId: string;
  name: string;
  vendor: string;
  available: boolean;
}

export type EmbedDrawing =
  | { kind: "bars"; valueLabel: string; ceilingLabel: string | null; bars: GhostBar[] }
  | { kind: "map"; streaks: Streak[] }
  | {
      kind: "grid";
      countries: { country: string; name: string }[];
      rows: (ChartRow & { cells: { country: string; available: boolean; value: number }[] })[];
    };

export interface EmbedChart {
  reading: EmbedReading;
  view: EmbedView;
  theme: EmbedTheme;
  title: string;
  caption: string;
  citation: string;
  note?: string;
  methodologyUrl: string;
  drawing: EmbedDrawing;
  /** How many products the reading has; the drawing holds the first `EMBED_DRAWN_PRODUCTS`. */
  total: number;
  /** Said when the drawing holds fewer products than the reading: how many, and where the rest are. */
  more?: string;
  fullTableUrl?: string;
}

/** The drawing's rows, whichever its kind. */
export const drawnCount = (drawing: EmbedDrawing) =>
  drawing.kind === "bars" ? drawing.bars.length : drawing.kind === "map" ? drawing.streaks.length : drawing.rows.length;

/**
 * The first `limit` products under the reading. The map draws the same products as the bars (the
 * Delta's two views of one embed show one set), in the bars' order of the reading.
 */
function boundedDrawing(data: EmbedPayload, view: EmbedView, limit: number): EmbedDrawing {
  const drawing = drawingOf(data, view);
  switch (drawing.kind) {
    case "bars":
      return { ...drawing, bars: drawing.bars.slice(0, limit) };
    case "grid":
      return { ...drawing, rows: drawing.rows.slice(0, limit) };
    case "map": {
      if (drawing.streaks.length <= limit || data.reading !== "delta")
        return { ...drawing, streaks: drawing.streaks.slice(0, limit) };
      const first = new Set(
        barsOf(data.payload)
          .slice(0, limit)
          .map((bar) => bar.productId),
      );
      return { ...drawing, streaks: drawing.streaks.filter((streak) => first.has(streak.productId)) };
    }
  }
}

const payloadSize = (data: EmbedPayload) => data.payload.products.length;

const count = (n: number) => n.toLocaleString("en-US");

/** "Showing the first 25 of 1,000 products under this reading; every product: URL." */
export function moreOf(drawn: number, total: number, fullTableUrl: string | undefined): string | undefined {
  if (drawn >= total) return undefined;
  const where = fullTableUrl ? ` Every product: ${fullTableUrl}` : "";
  return `Showing the first ${count(drawn)} of ${count(total)} products under this reading; ${count(total - drawn)} more are in the full table.${where}`;
}

/** The Delta's bars, ordered once per payload: its bars view and its map's choice of products share them. */
const deltaBars = new WeakMap<DeltaPayload, GhostBar[]>();
function barsOf(payload: DeltaPayload): GhostBar[] {
  let bars = deltaBars.get(payload);
  if (!bars) {
    bars = deltaGhostBars(payload);
    deltaBars.set(payload, bars);
  }
  return bars;
}

function drawingOf(data: EmbedPayload, view: EmbedView): EmbedDrawing {
  switch (data.reading) {
    case "delta":
      return view === "map"
        ? { kind: "map", streaks: deltaStreaks(data.payload) }
        : {
            kind: "bars",
            valueLabel: "Innovation under controls",
            ceilingLabel: "Published Innovation",
            bars: barsOf(data.payload),
          };
    case "servicemax":
      return {
        kind: "bars",
        valueLabel: "Innovation retained",
        ceilingLabel: "Published Innovation",
        bars: maxGhostBars(data.payload),
      };
    case "capaindex":
      return {
        kind: "bars",
        valueLabel: "Published Innovation",
        ceilingLabel: null,
        bars: capaIndexBars(data.payload),
      };
    case "availability":
      return {
        kind: "grid",
        countries: data.payload.countries.map(({ country, name }) => ({ country, name })),
        rows: data.payload.products.map((p) => ({
          productId: p.productId,
          name: p.name,
          vendor: p.vendor,
          available: p.cells.some((c) => c.available),
          cells: p.cells.map((c) => ({ country: c.country, available: c.available, value: c.innovationRetained })),
        })),
      };
  }
}

const dateOf = (iso: string) => iso.slice(0, 10);

/** The caption: the market, the release and its date, the country and its controls. */
export function captionOf(reading: EmbedReading, facts: EmbedFacts): string {
  const release = `release ${facts.release} of ${dateOf(facts.releasedAt)}${facts.latest ? " (the latest release shown)" : ""}`;
  const under = facts.country
    ? facts.country.controls.length > 0
      ? `under ${facts.country.name} (${facts.country.code}) controls: ${facts.country.controls.join(", ")}`
      : `under ${facts.country.name} (${facts.country.code}), which engages no controls`
    : reading === "availability"
      ? "under every country's controls"
      : "published scores, no country's controls engaged";
  return `${READING_TITLES[reading]} of ${facts.marketName}, ${release}, ${under}.`;
}

/** The one-line citation. */
export function citationOf(reading: EmbedReading, facts: EmbedFacts): string {
  const country = facts.country ? `, ${facts.country.code}` : "";
  return `${facts.publisher}, “${facts.marketName}: ${READING_TITLES[reading]}${country}”, release ${facts.release} (${dateOf(facts.releasedAt)}). Methodology: ${facts.methodologyUrl}`;
}

export function embedChart(
  data: EmbedPayload,
  view: EmbedView,
  theme: EmbedTheme,
  facts: EmbedFacts,
  limit = EMBED_DRAWN_PRODUCTS,
): EmbedChart {
  const drawing = boundedDrawing(data, view, limit);
  const total = payloadSize(data);
  const more = moreOf(drawnCount(drawing), total, facts.fullTableUrl);
  return {
    reading: data.reading,
    view,
    theme,
    title: `${READING_TITLES[data.reading]} — ${facts.marketName}`,
    caption: captionOf(data.reading, facts),
    citation: citationOf(data.reading, facts),
    ...(facts.note ? { note: facts.note } : {}),
    methodologyUrl: facts.methodologyUrl,
    drawing,
    total,
    ...(more ? { more } : {}),
    ...(facts.fullTableUrl ? { fullTableUrl: facts.fullTableUrl } : {}),
  };
}

// ---------------------------------------------------------------- text

/** What XML 1.0 cannot hold at all (control characters, lone surrogates, U+FFFE/U+FFFF): dropped. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text as XML and HTML read it literally, in content and in quoted attributes alike. */
export const escapeText = (text: string) => text.replace(NOT_XML, "").replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);

/** A number as every embed shows it: one decimal. */
export const shown = (value: number) => value.toFixed(1);

/** Words on lines of at most `width` characters (a word longer than that stands alone). */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

// ---------------------------------------------------------------- the table

export interface EmbedTable {
  columns: string[];
  rows: { productId: string; cells: string[] }[];
}

/** The chart's table alternative: what it draws, one row per product. */
export function tableOf(drawing: EmbedDrawing): EmbedTable {
  switch (drawing.kind) {
    case "bars":
      return {
        columns: [
          "Rank",
          "Product",
          "Vendor",
          "State",
          drawing.valueLabel,
          ...(drawing.ceilingLabel ? [drawing.ceilingLabel] : []),
        ],
        rows: drawing.bars.map((b) => ({
          productId: b.productId,
          cells: [
            b.rank === null ? "–" : String(b.rank),
            b.name,
            b.vendor,
            b.available ? "available" : "unavailable",
            b.available ? shown(b.value) : "unavailable",
            ...(drawing.ceilingLabel ? [shown(b.ceiling)] : []),
          ],
        })),
      };
    case "map":
      return {
        columns: [
          "Product",
          "Vendor",
          "State",
          "Published Control",
          "Published Innovation",
          "Under controls Control",
          "Under controls Innovation",
        ],
        rows: drawing.streaks.map((s) => ({
          productId: s.productId,
          cells: [
            s.name,
            s.vendor,
            s.available ? "available" : "unavailable",
            shown(s.from.x),
            shown(s.from.y),
            s.available ? shown(s.to.x) : "unavailable",
            s.available ? shown(s.to.y) : "unavailable",
          ],
        })),
      };
    case "grid":
      return {
        columns: ["Product", "Vendor", ...drawing.countries.map((c) => `${c.name} (${c.country})`)],
        rows: drawing.rows.map((r) => ({
          productId: r.productId,
          cells: [r.name, r.vendor, ...r.cells.map((c) => (c.available ? shown(c.value) : "unavailable"))],
        })),
      };
  }
}

// ---------------------------------------------------------------- the SVG

const THEMES: Record<EmbedTheme, { background: string; ink: string; muted: string; bar: string; ghost: string }> = {
  light: { background: "#ffffff", ink: "#1a1a1a", muted: "#555555", bar: "#1f5fa8", ghost: "#c9d6e8" },
  dark: { background: "#16181d", ink: "#f2f2f2", muted: "#b8b8b8", bar: "#6fa8ff", ghost: "#3a4659" },
};

const WIDTH = 720;
const PAD = 16;
const LINE = 18;
const LABEL_WIDTH = 230;
const ROW = 22;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

interface Part {
  height: number;
  body: string;
}

function textLines(lines: string[], y: number, attributes: string): Part {
  const body = lines
    .map((line, i) => `<text x="${PAD}" y="${y + (i + 1) * LINE - 4}" ${attributes}>${escapeText(line)}</text>`)
    .join("");
  return { height: lines.length * LINE, body };
}

/**
 * A mark's opening: reachable by Tab, named for screen readers, and its numbers as the tooltip a
 * pointer shows (a <title> child: no script needed).
 */
function openMark(table: EmbedTable, index: number, productId: string, value?: string): string {
  const label = escapeText(markLabel(table, index));
  const data = value === undefined ? "" : ` data-value="${value}"`;
  return `<g class="mark" tabindex="0" role="img" aria-label="${label}" data-product="${escapeText(productId)}"${data}><title>${label}</title>`;
}

/** One accessible name per mark: what a screen reader says on reaching it. */
function markLabel(table: EmbedTable, index: number): string {
  const row = table.rows[index];
  if (!row) return "";
  return table.columns.map((column, i) => `${column}: ${row.cells[i]}`).join("; ");
}

function barsPart(drawing: Extract<EmbedDrawing, { kind: "bars" }>, top: number, colours: typeof THEMES.light): Part {
  const plot = WIDTH - LABEL_WIDTH - PAD * 2 - 60;
  const x0 = PAD + LABEL_WIDTH;
  const table = tableOf(drawing);
  const body = drawing.bars
    .map((bar, i) => {
      const y = top + i * ROW;
      const label = `${bar.rank === null ? "–" : `${bar.rank}.`} ${clip(bar.name, 28)} (${clip(bar.vendor, 14)})`;
      const ghost = drawing.ceilingLabel
        ? `<rect x="${x0}" y="${y + 4}" width="${((bar.ceiling / 100) * plot).toFixed(1)}" height="${ROW - 8}" fill="${colours.ghost}"/>`
        : "";
      const kept = bar.available
        ? `<rect x="${x0}" y="${y + 4}" width="${((bar.value / 100) * plot).toFixed(1)}" height="${ROW - 8}" fill="${colours.bar}"/>`
        : "";
      const value = bar.available ? shown(bar.value) : "unavailable";
      return (
        openMark(table, i, bar.productId, bar.available ? shown(bar.value) : "") +
        `<text x="${PAD}" y="${y + ROW - 7}" fill="${colours.ink}" font-size="12">${escapeText(label)}</text>${ghost}${kept}` +
        `<text x="${x0 + plot + 6}" y="${y + ROW - 7}" fill="${bar.available ? colours.ink : colours.muted}" font-size="12">${value}</text></g>`
      );
    })
    .join("");
  const legend = drawing.ceilingLabel
    ? `<text x="${PAD}" y="${top + drawing.bars.length * ROW + 14}" fill="${colours.muted}" font-size="11">Bar: ${escapeText(drawing.valueLabel)}; shaded: ${escapeText(drawing.ceilingLabel)}.</text>`
    : "";
  return { height: drawing.bars.length * ROW + (legend ? 20 : 0), body: body + legend };
}

type Placed = Map<string, ReturnType<typeof placeLabels>[number]>;
const placements = new WeakMap<EmbedDrawing, Map<number, Placed>>();

/**
 * The map's names placed once per drawing and height: the embed's SVG and its page draw the same
 * map, and placing labels is the costliest step of a chart (some 20 ms for 25 names).
 */
function placedOnce(drawing: EmbedDrawing, top: number, place: () => Placed): Placed {
  let byTop = placements.get(drawing);
  if (!byTop) {
    byTop = new Map();
    placements.set(drawing, byTop);
  }
  let placed = byTop.get(top);
  if (!placed) {
    placed = place();
    byTop.set(top, placed);
  }
  return placed;
}

function mapPart(drawing: Extract<EmbedDrawing, { kind: "map" }>, top: number, colours: typeof THEMES.light): Part {
  const size = 360;
  const x0 = PAD + 40;
  const y0 = top + 8;
  const px = (x: number) => (x0 + (x / 100) * size).toFixed(1);
  const py = (y: number) => (y0 + size - (y / 100) * size).toFixed(1);
  const axes =
    `<rect x="${x0}" y="${y0}" width="${size}" height="${size}" fill="none" stroke="${colours.muted}"/>` +
    `<text x="${x0 + size / 2}" y="${y0 + size + 28}" fill="${colours.muted}" font-size="11" text-anchor="middle">Control →</text>` +
    `<text x="${PAD}" y="${y0 + size / 2}" fill="${colours.muted}" font-size="11" transform="rotate(-90 ${PAD + 4} ${y0 + size / 2})">Innovation →</text>` +
    [0, 50, 100]
      .map(
        (t) =>
          `<text x="${px(t)}" y="${y0 + size + 14}" fill="${colours.muted}" font-size="10" text-anchor="middle">${t}</text>` +
          `<text x="${x0 - 6}" y="${py(t)}" fill="${colours.muted}" font-size="10" text-anchor="end">${t}</text>`,
      )
      .join("");
  // Names placed all at once, as on the dashboard's map: none overlaps another or covers a point.
  const pixel = (point: { x: number; y: number }) => ({ x: Number(px(point.x)), y: Number(py(point.y)) });
  const legendBox = { left: x0 + size + 12, top: y0, width: WIDTH - PAD - (x0 + size + 12), height: 34 };
  const placed = placedOnce(drawing, y0, () => {
    const { points, obstacles, segments } = streakLabelPlacement(drawing.streaks, pixel);
    return new Map(
      placeLabels(points, {
        bounds: { left: x0, top: y0, width: WIDTH - PAD - x0, height: size },
        fontSize: 11,
        obstacles: [...obstacles, legendBox],
        segments,
      }).map((label) => [label.id, label]),
    );
  });
  const table = tableOf(drawing);
  const marks = drawing.streaks
    .map((s, i) => {
      const line =
        s.available && s.moves
          ? `<line x1="${px(s.from.x)}" y1="${py(s.from.y)}" x2="${px(s.to.x)}" y2="${py(s.to.y)}" stroke="${colours.ghost}" stroke-width="3"/>`
          : "";
      const at = s.available ? s.to : s.from;
      const dot = s.available
        ? `<circle cx="${px(at.x)}" cy="${py(at.y)}" r="5" fill="${colours.bar}"/>`
        : `<circle cx="${px(at.x)}" cy="${py(at.y)}" r="5" fill="none" stroke="${colours.muted}" stroke-dasharray="2 2"/>`;
      const label = placed.get(s.productId);
      const ink = s.available ? colours.ink : colours.muted;
      const name =
        !label || label.hidden
          ? ""
          : (label.leader
              ? `<line x1="${label.leader.x1.toFixed(1)}" y1="${label.leader.y1.toFixed(1)}" x2="${label.leader.x2.toFixed(1)}" y2="${label.leader.y2.toFixed(1)}" stroke="${colours.muted}" stroke-width="0.75"/>`
              : "") +
            `<text x="${label.x.toFixed(1)}" y="${label.y.toFixed(1)}" text-anchor="${label.anchor}" fill="${ink}" font-size="11">${escapeText(label.text)}</text>`;
      return `${openMark(table, i, s.productId, s.available ? shown(s.to.y) : "")}${line}${dot}${name}</g>`;
    })
    .join("");
  const legend = `<text x="${x0 + size + 16}" y="${y0 + 12}" fill="${colours.muted}" font-size="11">Line: published → under controls.</text><text x="${x0 + size + 16}" y="${y0 + 28}" fill="${colours.muted}" font-size="11">Dashed ring, grey name: unavailable.</text>`;
  return { height: size + 40, body: axes + marks + legend };
}

function gridPart(drawing: Extract<EmbedDrawing, { kind: "grid" }>, top: number, colours: typeof THEMES.light): Part {
  const cell = Math.max(
    30,
    Math.min(48, Math.floor((WIDTH - PAD * 2 - LABEL_WIDTH) / Math.max(1, drawing.countries.length))),
  );
  const x0 = PAD + LABEL_WIDTH;
  const head = drawing.countries
    .map(
      (c, j) =>
        `<text x="${x0 + j * cell + cell / 2}" y="${top + 14}" fill="${colours.ink}" font-size="11" text-anchor="middle">${escapeText(clip(c.country, 4))}</text>`,
    )
    .join("");
  const table = tableOf(drawing);
  const rows = drawing.rows
    .map((r, i) => {
      const y = top + 20 + i * ROW;
      const cells = r.cells
        .map((c, j) => {
          const fill = c.available ? retainedColour(c.value) : colours.background;
          const ink = c.available ? inkOn(fill) : colours.muted;
          return (
            `<rect x="${x0 + j * cell + 1}" y="${y + 1}" width="${cell - 2}" height="${ROW - 2}" fill="${fill}" stroke="${colours.ghost}"/>` +
            `<text x="${x0 + j * cell + cell / 2}" y="${y + ROW - 7}" fill="${ink}" font-size="10" text-anchor="middle">${c.available ? shown(c.value) : "–"}</text>`
          );
        })
        .join("");
      return (
        openMark(table, i, r.productId) +
        `<text x="${PAD}" y="${y + ROW - 7}" fill="${colours.ink}" font-size="12">${escapeText(`${clip(r.name, 28)} (${clip(r.vendor, 14)})`)}</text>${cells}</g>`
      );
    })
    .join("");
  const legend = `<text x="${PAD}" y="${top + 20 + drawing.rows.length * ROW + 14}" fill="${colours.muted}" font-size="11">Innovation retained under each country's controls; – : unavailable there.</text>`;
  return { height: 20 + drawing.rows.length * ROW + 20, body: head + rows + legend };
}

/** The SVG's description for screen readers: the caption, then every row of the table. */
export function descriptionOf(chart: EmbedChart): string {
  const table = tableOf(chart.drawing);
  const rows = table.rows.map((row) => table.columns.map((c, i) => `${c} ${row.cells[i]}`).join(", "));
  return [chart.caption, chart.note ?? "", chart.more ?? "", ...rows.map((r) => `${r}.`)].filter(Boolean).join(" ");
}

/**
 * The chart as a standalone SVG document (`standalone`: one image, named and described for screen
 * readers) or as the element inlined in a page: there a group, so each mark inside stays reachable
 * and named, and its ids prefixed (`idPrefix`) so a page may hold the map and the bars at once.
 */
export function embedSvg(
  chart: EmbedChart,
  { standalone = true, idPrefix = "embed" }: { standalone?: boolean; idPrefix?: string } = {},
): string {
  const colours = THEMES[chart.theme];
  let y = PAD;
  const parts: string[] = [];
  const add = (part: Part) => {
    parts.push(part.body);
    y += part.height;
  };
  add(textLines([clip(chart.title, 90)], y, `fill="${colours.ink}" font-size="15" font-weight="bold"`));
  add(textLines(wrapText(chart.caption, 100), y, `fill="${colours.ink}" font-size="12"`));
  if (chart.note) add(textLines(wrapText(chart.note, 100), y, `fill="${colours.muted}" font-size="12"`));
  if (chart.more) add(textLines(wrapText(chart.more, 100), y, `fill="${colours.muted}" font-size="12" class="more"`));
  y += 8;
  const drawing = chart.drawing;
  add(
    drawing.kind === "bars"
      ? barsPart(drawing, y, colours)
      : drawing.kind === "map"
        ? mapPart(drawing, y, colours)
        : gridPart(drawing, y, colours),
  );
  y += 8;
  add(textLines(wrapText(chart.citation, 110), y, `fill="${colours.muted}" font-size="11" class="citation"`));
  const height = Math.ceil(y + PAD);
  const head = standalone ? '<?xml version="1.0" encoding="UTF-8"?>\n' : "";
  return (
    `${head}<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" ${standalone ? `role="img" aria-labelledby="${idPrefix}-title ${idPrefix}-desc"` : `role="group" aria-labelledby="${idPrefix}-title"`} font-family="system-ui, -apple-system, 'Segoe UI', sans-serif">` +
    `<title id="${idPrefix}-title">${escapeText(chart.title)}</title>${standalone ? `<desc id="${idPrefix}-desc">${escapeText(descriptionOf(chart))}</desc>` : ""}` +
    `<rect width="100%" height="100%" fill="${colours.background}"/>${parts.join("")}</svg>`
  );
}

/** The SVG's size (for oEmbed and the iframe). */
export function svgSize(svg: string): { width: number; height: number } {
  const match = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  return { width: Number(match?.[1] ?? WIDTH), height: Number(match?.[2] ?? 400) };
}

// ---------------------------------------------------------------- oEmbed sizing

/**
 * The frame's size within a consumer's maxwidth and maxheight: the chart's own size, scaled down
 * (keeping its aspect) to fit; never up. Sizes are whole pixels, at least 1.
 */
export function fitWithin(
  size: { width: number; height: number },
  max: { width?: number; height?: number },
): { width: number; height: number } {
  const scale = Math.min(
    1,
    max.width !== undefined && max.width > 0 ? max.width / size.width : 1,
    max.height !== undefined && max.height > 0 ? max.height / size.height : 1,
  );
  return {
    width: Math.max(1, Math.floor(size.width * scale)),
    height: Math.max(1, Math.floor(size.height * scale)),
  };
}
