/**
 * An embed's chart, pure: a reading's payload in, what it draws (bars, streaks or a grid, through
 * the dashboard's own transforms, server/2-charts/chart-data.ts) out, then as a self-contained
 * SVG (title and description for screen readers, caption and citation inside) and as the table
 * that is its alternative. Every name is text someone else wrote: escaped, and stripped of what
 * XML cannot hold. No I/O.
 */

import {
  EMBED_DRAWN_PRODUCTS,
  type EmbedFacts,
  type EmbedReading,
  type EmbedTheme,
  type EmbedView,
  READING_TITLES,
} from "../1-domain/embeds";
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
} from "../2-charts/chart-data";
import { inkOn, retainedColour } from "../2-charts/heat-scale";
import { fitText, placeLabels, streakLabelPlacement, textWidth } from "../2-charts/label-placement";
import { csvField, csvText } from "../2-formats/csv";

export type { EmbedFacts, EmbedReading, EmbedTheme, EmbedView } from "../1-domain/embeds";

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

/** A table cell that is a number as the chart writes it ("12.3", "4"): its digits after the point. */
const DRAWN_NUMBER = /^\d+(?:\.(\d+))?$/;

/**
 * The chart's data as CSV: exactly its table (the products drawn, in the order drawn, the
 * columns and values the table says), numbers written as numbers with the chart's decimals, every
 * text through the project's one CSV writer (server/2-formats/csv.ts), which neutralises what a
 * spreadsheet would read as a formula.
 */
export function csvOf(drawing: EmbedDrawing): string {
  const table = tableOf(drawing);
  const field = (cell: string) => {
    const number = DRAWN_NUMBER.exec(cell);
    return number ? csvField(Number(cell), number[1]?.length ?? 0) : csvField(cell);
  };
  const lines = [table.columns.map((column) => csvField(column)), ...table.rows.map((row) => row.cells.map(field))];
  return csvText(lines);
}

// ---------------------------------------------------------------- the SVG

interface Palette {
  background: string;
  ink: string;
  muted: string;
  bar: string;
  ghost: string;
}

/**
 * The two palettes. Each colour is a value nothing else in a chart draws with (the heat scale
 * writes rgb(…), its ink #000 or #fff), so `schemeStyle` can repaint a light chart dark by them.
 */
const PALETTES: Record<"light" | "dark", Palette> = {
  light: { background: "#ffffff", ink: "#1a1a1a", muted: "#555555", bar: "#1f5fa8", ghost: "#c9d6e8" },
  dark: { background: "#16181d", ink: "#f2f2f2", muted: "#b8b8b8", bar: "#6fa8ff", ghost: "#3a4659" },
};

/** What a theme draws with: `auto` draws the light palette, and `schemeStyle` repaints it for a dark reader. */
const paletteOf = (theme: EmbedTheme): Palette => PALETTES[theme === "dark" ? "dark" : "light"];

/**
 * The CSS that repaints a chart drawn in the light palette when the reader's setting is dark
 * (prefers-color-scheme): every light colour, as a fill or a stroke, becomes its dark one. A
 * presentation attribute yields to any CSS rule, so the drawing itself names one palette.
 */
export function schemeStyle(): string {
  const roles = Object.keys(PALETTES.light) as (keyof Palette)[];
  const rules = roles.flatMap((role) => [
    `svg [fill="${PALETTES.light[role]}"]{fill:${PALETTES.dark[role]}}`,
    `svg [stroke="${PALETTES.light[role]}"]{stroke:${PALETTES.dark[role]}}`,
  ]);
  return `@media (prefers-color-scheme: dark){${rules.join("")}}`;
}

/**
 * The two widths a chart is drawn at. Wide: the chart at 720 px, for frames of its size and for
 * the SVG and PNG files. Narrow: 380 px, every text at least 12 px and each name on its own line
 * above its marks, for a phone's frame: at 390 px (374 px inside the page's padding) its text is
 * drawn at 11.8 px. The page shows the one that fits its frame (server/8-embeds/page.ts).
 */
export type EmbedLayout = "wide" | "narrow";
interface Layout {
  width: number;
  /** Names and values. */
  font: number;
  /** Legends, axes and ticks. */
  small: number;
  narrow: boolean;
}
const LAYOUTS: Record<EmbedLayout, Layout> = {
  wide: { width: 720, font: 12, small: 11, narrow: false },
  narrow: { width: 380, font: 12, small: 12, narrow: true },
};

const PAD = 16;
const LABEL_WIDTH = 240;
const ROW = 22;
/** A line of a name, 12 px text. */
const NAME_LINE = 14;
const VALUE_WIDTH = 64;

/** The longest start of `text` that fits `maxWidth` px, cut between words, with an ellipsis when cut. */
export function shortenAtWord(text: string, fontSize: number, maxWidth: number): string {
  if (textWidth(text, fontSize) <= maxWidth) return text;
  const words = text.split(/\s+/).filter(Boolean);
  let kept = "";
  for (const word of words) {
    const next = kept ? `${kept} ${word}` : word;
    if (textWidth(`${next}…`, fontSize) > maxWidth) break;
    kept = next;
  }
  // One word too long for the room: only then is it cut inside, as little as fits.
  return kept ? `${kept.replace(/[\s,;:(–-]+$/, "")}…` : fitText(text, fontSize, maxWidth);
}

/**
 * Words on lines of at most `maxWidth` px at `fontSize` (by the generous estimate the map's labels
 * use), at most `maxLines`: what does not fit on the last one is shortened there between words.
 * A word wider than a line (an address) is broken across lines.
 */
export function linesWithin(text: string, fontSize: number, maxWidth: number, maxLines = Infinity): string[] {
  const lines: string[] = [];
  let line = "";
  const words = text.split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    let word = words[i] as string;
    if (lines.length === maxLines - 1) {
      lines.push(shortenAtWord([line, ...words.slice(i)].filter(Boolean).join(" "), fontSize, maxWidth));
      return lines;
    }
    const joined = line ? `${line} ${word}` : word;
    if (textWidth(joined, fontSize) <= maxWidth) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    while (textWidth(word, fontSize) > maxWidth && lines.length < maxLines - 1) {
      const head = fitText(word, fontSize, maxWidth).replace(/…$/, "");
      const cut = Math.max(1, Array.from(head).length);
      lines.push(Array.from(word).slice(0, cut).join(""));
      word = Array.from(word).slice(cut).join("");
    }
    line = word;
  }
  if (line) lines.push(lines.length < maxLines ? line : shortenAtWord(line, fontSize, maxWidth));
  return lines.slice(0, maxLines);
}

interface Part {
  height: number;
  body: string;
}

function textLines(lines: string[], y: number, lineHeight: number, attributes: string): Part {
  const body = lines
    .map((line, i) => `<text x="${PAD}" y="${y + (i + 1) * lineHeight - 4}" ${attributes}>${escapeText(line)}</text>`)
    .join("");
  return { height: lines.length * lineHeight, body };
}

/** A name's lines at `x`, the first baseline at `y`. */
const nameText = (lines: string[], x: number, y: number, attributes: string) =>
  `<text x="${x}" y="${y}" ${attributes}>${lines
    .map((line, i) => `<tspan x="${x}"${i === 0 ? "" : ` dy="${NAME_LINE}"`}>${escapeText(line)}</tspan>`)
    .join("")}</text>`;

/**
 * A mark's opening: reachable by Tab, named for screen readers, and its numbers, the whole name
 * among them, as the tooltip a pointer shows (a <title> child: no script needed).
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

/** "3. Name (Vendor)" on at most two lines of `width` px, shortened between words. */
const productLines = (name: string, vendor: string, prefix: string, layout: Layout, width: number) =>
  linesWithin(`${prefix}${name} (${vendor})`, layout.font, width, 2);

function barsPart(
  drawing: Extract<EmbedDrawing, { kind: "bars" }>,
  top: number,
  colours: Palette,
  layout: Layout,
): Part {
  const inner = layout.width - PAD * 2;
  // Wide: the name left of its bar; narrow: the name above it, the bar the whole width.
  const x0 = layout.narrow ? PAD : PAD + LABEL_WIDTH;
  const plot = layout.narrow ? inner - VALUE_WIDTH : inner - LABEL_WIDTH - VALUE_WIDTH;
  const table = tableOf(drawing);
  let y = top;
  const body = drawing.bars
    .map((bar, i) => {
      const rank = bar.rank === null ? "– " : `${bar.rank}. `;
      const lines = productLines(bar.name, bar.vendor, rank, layout, layout.narrow ? inner : LABEL_WIDTH - 8);
      const namesHeight = lines.length * NAME_LINE;
      const height = layout.narrow ? namesHeight + ROW : Math.max(ROW, namesHeight + 8);
      const barTop = layout.narrow ? y + namesHeight + 4 : y + (height - 14) / 2;
      const rect = (width: number, fill: string) =>
        `<rect x="${x0}" y="${barTop}" width="${((width / 100) * plot).toFixed(1)}" height="14" fill="${fill}"/>`;
      const ghost = drawing.ceilingLabel ? rect(bar.ceiling, colours.ghost) : "";
      const kept = bar.available ? rect(bar.value, colours.bar) : "";
      const value = bar.available ? shown(bar.value) : "unavailable";
      const nameTop = layout.narrow ? y + NAME_LINE - 2 : y + (height - namesHeight) / 2 + NAME_LINE - 3;
      const mark =
        openMark(table, i, bar.productId, bar.available ? shown(bar.value) : "") +
        nameText(lines, PAD, nameTop, `fill="${colours.ink}" font-size="${layout.font}"`) +
        ghost +
        kept +
        `<text x="${x0 + plot + 6}" y="${barTop + 11}" fill="${bar.available ? colours.ink : colours.muted}" font-size="${layout.font}">${value}</text></g>`;
      y += height;
      return mark;
    })
    .join("");
  const legend = drawing.ceilingLabel
    ? textLines(
        linesWithin(`Bar: ${drawing.valueLabel}; shaded: ${drawing.ceilingLabel}.`, layout.small, inner),
        y + 2,
        layout.small + 5,
        `fill="${colours.muted}" font-size="${layout.small}"`,
      )
    : { height: 0, body: "" };
  return { height: y - top + legend.height + (legend.height ? 4 : 0), body: body + legend.body };
}

type Placed = Map<string, ReturnType<typeof placeLabels>[number]>;
const placements = new WeakMap<EmbedDrawing, Map<string, Placed>>();

/**
 * The map's names placed once per drawing, width and height: the embed's SVG and its page draw
 * the same map, and placing labels is the costliest step of a chart (some 20 ms for 25 names).
 */
function placedOnce(drawing: EmbedDrawing, key: string, place: () => Placed): Placed {
  let byKey = placements.get(drawing);
  if (!byKey) {
    byKey = new Map();
    placements.set(drawing, byKey);
  }
  let placed = byKey.get(key);
  if (!placed) {
    placed = place();
    byKey.set(key, placed);
  }
  return placed;
}

/** A name on the map and its shorter forms, each cut between words (the whole name is the mark's title). */
function mapLabelTexts(name: string, fontSize: number): string[] {
  const texts = [180, 110, 60].map((width) => shortenAtWord(name, fontSize, width));
  return texts.filter((text, index) => texts.indexOf(text) === index);
}

function mapPart(drawing: Extract<EmbedDrawing, { kind: "map" }>, top: number, colours: Palette, layout: Layout): Part {
  const size = layout.narrow ? layout.width - PAD * 2 - 40 : 360;
  const x0 = PAD + 40;
  const y0 = top + 8;
  const small = layout.small;
  const px = (x: number) => (x0 + (x / 100) * size).toFixed(1);
  const py = (y: number) => (y0 + size - (y / 100) * size).toFixed(1);
  const axes =
    `<rect x="${x0}" y="${y0}" width="${size}" height="${size}" fill="none" stroke="${colours.muted}"/>` +
    `<text x="${x0 + size / 2}" y="${y0 + size + 30}" fill="${colours.muted}" font-size="${small}" text-anchor="middle">Control →</text>` +
    `<text x="${PAD}" y="${y0 + size / 2}" fill="${colours.muted}" font-size="${small}" transform="rotate(-90 ${PAD + 4} ${y0 + size / 2})">Innovation →</text>` +
    [0, 50, 100]
      .map(
        (t) =>
          `<text x="${px(t)}" y="${y0 + size + 15}" fill="${colours.muted}" font-size="${small}" text-anchor="middle">${t}</text>` +
          `<text x="${x0 - 6}" y="${py(t)}" fill="${colours.muted}" font-size="${small}" text-anchor="end">${t}</text>`,
      )
      .join("");
  // Names placed all at once, as on the dashboard's map: none overlaps another or covers a point.
  const pixel = (point: { x: number; y: number }) => ({ x: Number(px(point.x)), y: Number(py(point.y)) });
  // Wide: the legend right of the plot; narrow: below it.
  const legendAt = layout.narrow ? { x: PAD, y: y0 + size + 44 } : { x: x0 + size + 16, y: y0 + 12 };
  const legendBox = { left: x0 + size + 12, top: y0, width: layout.width - PAD - (x0 + size + 12), height: 34 };
  const names = new Map(drawing.streaks.map((s) => [s.productId, s.name]));
  const placed = placedOnce(drawing, `${layout.width}:${y0}`, () => {
    const { points, obstacles, segments } = streakLabelPlacement(drawing.streaks, pixel);
    const worded = points.map((point) => {
      const [text = "", ...fallbacks] = mapLabelTexts(names.get(point.id) ?? point.text, layout.small);
      return { ...point, text, fallbacks };
    });
    return new Map(
      placeLabels(worded, {
        bounds: { left: x0, top: y0, width: layout.width - PAD - x0, height: size },
        fontSize: layout.small,
        obstacles: layout.narrow ? obstacles : [...obstacles, legendBox],
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
            `<text x="${label.x.toFixed(1)}" y="${label.y.toFixed(1)}" text-anchor="${label.anchor}" fill="${ink}" font-size="${layout.small}">${escapeText(label.text)}</text>`;
      return `${openMark(table, i, s.productId, s.available ? shown(s.to.y) : "")}${line}${dot}${name}</g>`;
    })
    .join("");
  const legend = `<text x="${legendAt.x}" y="${legendAt.y}" fill="${colours.muted}" font-size="${small}">Line: published → under controls.</text><text x="${legendAt.x}" y="${legendAt.y + small + 5}" fill="${colours.muted}" font-size="${small}">Dashed ring, grey name: unavailable.</text>`;
  return { height: size + (layout.narrow ? 80 : 40), body: axes + marks + legend };
}

function gridPart(
  drawing: Extract<EmbedDrawing, { kind: "grid" }>,
  top: number,
  colours: Palette,
  layout: Layout,
): Part {
  const inner = layout.width - PAD * 2;
  const room = layout.narrow ? inner : inner - LABEL_WIDTH;
  const cell = Math.max(
    layout.narrow ? 36 : 30,
    Math.min(48, Math.floor(room / Math.max(1, drawing.countries.length))),
  );
  const x0 = layout.narrow ? PAD : PAD + LABEL_WIDTH;
  const cellFont = layout.narrow ? layout.font : 10;
  const head = drawing.countries
    .map(
      (c, j) =>
        `<text x="${x0 + j * cell + cell / 2}" y="${top + 14}" fill="${colours.ink}" font-size="${layout.small}" text-anchor="middle">${escapeText(c.country.slice(0, 4))}</text>`,
    )
    .join("");
  const table = tableOf(drawing);
  let y = top + 20;
  const rows = drawing.rows
    .map((r, i) => {
      const lines = productLines(r.name, r.vendor, "", layout, layout.narrow ? inner : LABEL_WIDTH - 8);
      const namesHeight = lines.length * NAME_LINE;
      const height = layout.narrow ? namesHeight + ROW : Math.max(ROW, namesHeight + 8);
      const cellTop = layout.narrow ? y + namesHeight + 2 : y + (height - ROW) / 2;
      const cells = r.cells
        .map((c, j) => {
          const fill = c.available ? retainedColour(c.value) : colours.background;
          const ink = c.available ? inkOn(fill) : colours.muted;
          return (
            `<rect x="${x0 + j * cell + 1}" y="${cellTop + 1}" width="${cell - 2}" height="${ROW - 2}" fill="${fill}" stroke="${colours.ghost}"/>` +
            `<text x="${x0 + j * cell + cell / 2}" y="${cellTop + ROW - 7}" fill="${ink}" font-size="${cellFont}" text-anchor="middle">${c.available ? shown(c.value) : "–"}</text>`
          );
        })
        .join("");
      const nameTop = layout.narrow ? y + NAME_LINE - 2 : y + (height - namesHeight) / 2 + NAME_LINE - 3;
      y += height;
      return (
        openMark(table, i, r.productId) +
        nameText(lines, PAD, nameTop, `fill="${colours.ink}" font-size="${layout.font}"`) +
        `${cells}</g>`
      );
    })
    .join("");
  const legend = textLines(
    linesWithin("Innovation retained under each country's controls; – : unavailable there.", layout.small, inner),
    y + 2,
    layout.small + 5,
    `fill="${colours.muted}" font-size="${layout.small}"`,
  );
  return { height: y - top + legend.height + 4, body: head + rows + legend.body };
}

/**
 * The chart's alt text, from its data: what it shows, how many products it draws, and its first
 * three entries with their numbers (the top of the ranking; the map's highest Innovation under
 * controls; the grid's first rows with the countries each is available in).
 */
export function altTextOf(chart: EmbedChart): string {
  const drawing = chart.drawing;
  const first = (entries: string[]) => entries.slice(0, 3).join("; ");
  let top: string;
  switch (drawing.kind) {
    case "bars":
      top = `First: ${first(
        drawing.bars.map(
          (b) =>
            `${b.rank === null ? "" : `${b.rank}. `}${b.name} (${b.vendor}) ${b.available ? shown(b.value) : "unavailable"}`,
        ),
      )}.`;
      break;
    case "map":
      top = `Highest Innovation under controls: ${first(
        drawing.streaks
          .filter((s) => s.available)
          .sort((a, b) => b.to.y - a.to.y)
          .map((s) => `${s.name} (${s.vendor}) ${shown(s.to.y)}, published ${shown(s.from.y)}`),
      )}.`;
      break;
    case "grid":
      top = `First: ${first(
        drawing.rows.map(
          (r) =>
            `${r.name} (${r.vendor}) available in ${r.cells.filter((c) => c.available).length} of ${r.cells.length}`,
        ),
      )}.`;
      break;
  }
  const unavailable = tableOf(drawing).rows.filter((row) => row.cells.includes("unavailable")).length;
  const drawn = drawnCount(drawing);
  return [
    `${chart.title}: ${drawn === chart.total ? `${count(drawn)} products` : `the first ${count(drawn)} of ${count(chart.total)} products`}.`,
    top,
    unavailable > 0 ? `${count(unavailable)} drawn as unavailable.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/** The SVG's description for screen readers: the alt text, the caption, then every row of the table. */
export function descriptionOf(chart: EmbedChart): string {
  const table = tableOf(chart.drawing);
  const rows = table.rows.map((row) => table.columns.map((c, i) => `${c} ${row.cells[i]}`).join(", "));
  return [altTextOf(chart), chart.caption, chart.note ?? "", chart.more ?? "", ...rows.map((r) => `${r}.`)]
    .filter(Boolean)
    .join(" ");
}

export interface SvgOptions {
  /** One image, named and described (the .svg and .png files); else the element inlined in the page. */
  standalone?: boolean;
  idPrefix?: string;
  layout?: EmbedLayout;
  /** Whether an `auto` chart carries the CSS that repaints it for a dark reader (not for the PNG's renderer). */
  schemes?: boolean;
}

/**
 * The chart as a standalone SVG document (`standalone`: one image, named and described for screen
 * readers, its caption and citation drawn inside) or as the element inlined in a page: there a
 * group named by its title and described by its alt text, so each mark inside stays reachable and
 * named; the page says the caption and citation around it. Ids prefixed (`idPrefix`) so a page
 * may hold several. It scales to its container's width (viewBox); the width attribute is its
 * natural size.
 */
export function embedSvg(
  chart: EmbedChart,
  { standalone = true, idPrefix = "embed", layout: layoutName = "wide", schemes = true }: SvgOptions = {},
): string {
  const layout = LAYOUTS[layoutName];
  const colours = paletteOf(chart.theme);
  const inner = layout.width - PAD * 2;
  let y = PAD;
  const parts: string[] = [];
  const add = (part: Part) => {
    parts.push(part.body);
    y += part.height;
  };
  add(
    textLines(linesWithin(chart.title, 15, inner, 2), y, 20, `fill="${colours.ink}" font-size="15" font-weight="bold"`),
  );
  if (standalone) {
    add(textLines(linesWithin(chart.caption, 12, inner), y, 18, `fill="${colours.ink}" font-size="12"`));
    if (chart.note) add(textLines(linesWithin(chart.note, 12, inner), y, 18, `fill="${colours.muted}" font-size="12"`));
    if (chart.more)
      add(textLines(linesWithin(chart.more, 12, inner), y, 18, `fill="${colours.muted}" font-size="12" class="more"`));
  }
  y += 8;
  const drawing = chart.drawing;
  const body =
    drawing.kind === "bars"
      ? barsPart(drawing, y, colours, layout)
      : drawing.kind === "map"
        ? mapPart(drawing, y, colours, layout)
        : gridPart(drawing, y, colours, layout);
  add(body);
  y += 8;
  if (standalone)
    add(
      textLines(
        linesWithin(chart.citation, 11, inner),
        y,
        16,
        `fill="${colours.muted}" font-size="11" class="citation"`,
      ),
    );
  const height = Math.ceil(y + PAD);
  // A grid of many countries is wider than its layout: drawn whole, scaled to the frame.
  const width = Math.max(layout.width, drawing.kind === "grid" ? gridWidth(drawing, layout) : 0);
  const head = standalone ? '<?xml version="1.0" encoding="UTF-8"?>\n' : "";
  const naming = standalone
    ? `role="img" aria-labelledby="${idPrefix}-title ${idPrefix}-desc"`
    : `role="group" aria-labelledby="${idPrefix}-title" aria-describedby="${idPrefix}-desc"`;
  const style = standalone && schemes && chart.theme === "auto" ? `<style>${schemeStyle()}</style>` : "";
  return (
    `${head}<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ${naming} font-family="system-ui, -apple-system, 'Segoe UI', sans-serif">` +
    `<title id="${idPrefix}-title">${escapeText(chart.title)}</title><desc id="${idPrefix}-desc">${escapeText(standalone ? descriptionOf(chart) : altTextOf(chart))}</desc>${style}` +
    `<rect width="100%" height="100%" fill="${colours.background}"/>${parts.join("")}</svg>`
  );
}

function gridWidth(drawing: Extract<EmbedDrawing, { kind: "grid" }>, layout: Layout): number {
  const cells = drawing.countries.length * (layout.narrow ? 36 : 30);
  return PAD * 2 + cells + (layout.narrow ? 0 : LABEL_WIDTH);
}

/** The SVG's size (for oEmbed and the iframe). */
export function svgSize(svg: string): { width: number; height: number } {
  const match = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  return { width: Number(match?.[1] ?? LAYOUTS.wide.width), height: Number(match?.[2] ?? 400) };
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
