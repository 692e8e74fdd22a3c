/**
 * Where the name of each point on a chart goes, so that no two names overlap and none covers a
 * point: a deterministic greedy pass. Pure (no React, no DOM), so it is tested without a browser.
 *
 * Each label tries places around its point in a fixed order — right, left, above, below, the four
 * diagonals — then further out in rings, with a leader line back to the point, and keeps the first
 * place that stays inside the bounds and clears every label placed before it, every point and
 * every streak line. A label with no free place tries its shorter forms, if it has any; then, all
 * its forms again where a streak may cross it (at a cost, as a leader line crossing does); only
 * then is it hidden (the chart's tooltip and table still name the product). Text is measured by estimate, from the font size and each character's class,
 * on the generous side (the widths of DejaVu Sans, the widest common sans-serif), so drawn text
 * stays inside the box it was placed with.
 */
import type { Point, Streak } from "./chart-data";

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface LabelPoint {
  id: string;
  /** The point's centre, in pixels. */
  x: number;
  y: number;
  text: string;
  /** Shorter texts to try, in order, when `text` finds no free place anywhere. */
  fallbacks?: readonly string[];
  /** The radius of the point's mark (default 5). */
  radius?: number;
}

export interface PlacementOptions {
  /** Labels stay inside this box (the plot area). */
  bounds: Box;
  fontSize: number;
  /** Other marks labels must not cover (points without a label of their own, say). */
  obstacles?: readonly Box[];
  /** Lines labels should rather not cross (streaks); crossing one is allowed at a cost. */
  segments?: readonly Segment[];
  /** Space kept between a mark and a label, and between two labels (default 2). */
  gap?: number;
  /**
   * How far past its nearest place a label may go, with a leader line (default 16 × the font size;
   * 0 — next to its point or nowhere — beyond 150 points, where the search would be slow and the
   * leaders a tangle).
   */
  maxDistance?: number;
}

export interface PlacedLabel {
  id: string;
  /** The text placed: the label's own, or the first of its fallbacks that found a place. */
  text: string;
  /**
   * Where the text is anchored, and how (the SVG text-anchor): a label right of its point starts at
   * its box's left edge, one left of it ends at the right edge, one above or below is centred — so
   * the text, drawn narrower than its estimate, stays snug against its point.
   */
  x: number;
  anchor: "start" | "middle" | "end";
  /** The baseline (alphabetic). */
  y: number;
  /** The box the text is estimated to fill. */
  box: Box;
  /** A line from the point's edge to the label, when the label sits away from its point. */
  leader: Segment | null;
  /** No free place: not drawn. */
  hidden: boolean;
}

/** Ascent and descent in em, generous for common sans-serif fonts (DejaVu Sans: 0.93 and 0.24). */
const ASCENT = 0.95;
const DESCENT = 0.3;

const NARROW = new Set("ijlI|.,:;'");
const SLIGHT = new Set('frt!()[]{}-/\\ _*"?');
const WIDE = new Set("mwMW@%");
const SYMBOL = new Set("#&+=<>~^");

/** The advance of one character, in em: an upper bound for common sans-serif fonts. */
function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if ((code >= 0x300 && code <= 0x36f) || (code >= 0x200b && code <= 0x200f) || code === 0xfe0f) return 0;
  if (code < 0x20) return 0;
  if (NARROW.has(char)) return 0.36;
  if (SLIGHT.has(char)) return 0.5;
  if (WIDE.has(char)) return 1.02;
  if (SYMBOL.has(char)) return 0.86;
  if (char >= "A" && char <= "Z") return 0.8;
  if (char >= "0" && char <= "9") return 0.66;
  if (code < 0x80) return 0.68;
  // Accented Latin, Greek, Cyrillic…; then CJK, emoji and the rest, which run wider than 1 em.
  return code < 0x2e80 ? 0.92 : 1.3;
}

/** The estimated width of a line of text at this font size, in pixels (never less than drawn). */
export function textWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const char of text) em += charWidth(char);
  return Math.ceil(em * fontSize) + 1;
}

/** The estimated height of a line of text, ascent plus descent, in pixels. */
export function textHeight(fontSize: number): number {
  return Math.ceil((ASCENT + DESCENT) * fontSize);
}

/** A label shortened to at most `max` characters, with an ellipsis when it was cut. */
export function shortLabel(text: string, max = 32): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/**
 * The text as it fits in `maxWidth` pixels at this font size (by the same generous estimate): whole
 * when it fits, else its longest start that fits followed by an ellipsis (just the ellipsis when
 * nothing does).
 */
export function fitText(text: string, fontSize: number, maxWidth: number): string {
  if (textWidth(text, fontSize) <= maxWidth) return text;
  const chars = Array.from(text);
  let fits = 0;
  let lo = 0;
  let hi = chars.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (textWidth(`${chars.slice(0, mid).join("").trimEnd()}…`, fontSize) <= maxWidth) {
      fits = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return `${chars.slice(0, fits).join("").trimEnd()}…`;
}

export function boxesIntersect(a: Box, b: Box): boolean {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}

const inflate = (box: Box, by: number): Box => ({
  left: box.left - by,
  top: box.top - by,
  width: box.width + 2 * by,
  height: box.height + 2 * by,
});

const inside = (box: Box, bounds: Box) =>
  box.left >= bounds.left &&
  box.top >= bounds.top &&
  box.left + box.width <= bounds.left + bounds.width &&
  box.top + box.height <= bounds.top + bounds.height;

/** Whether a segment crosses or enters a box (Liang–Barsky clipping). */
export function segmentHitsBox(s: Segment, box: Box): boolean {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  let t0 = 0;
  let t1 = 1;
  const edges: [number, number][] = [
    [-dx, s.x1 - box.left],
    [dx, box.left + box.width - s.x1],
    [-dy, s.y1 - box.top],
    [dy, box.top + box.height - s.y1],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
  }
  return t0 < t1;
}

function segmentsCross(a: Segment, b: Segment): boolean {
  const side = (s: Segment, x: number, y: number) => Math.sign((s.x2 - s.x1) * (y - s.y1) - (s.y2 - s.y1) * (x - s.x1));
  return side(a, b.x1, b.y1) * side(a, b.x2, b.y2) < 0 && side(b, a.x1, a.y1) * side(b, a.x2, a.y2) < 0;
}

/** The places next to a point, in order of preference (y grows downwards): right, left, up, down, diagonals. */
const NEAR_DIRECTIONS = [0, 180, -90, 90, -45, -135, 45, 135];

/** Boxes in a uniform grid, so a placement only looks at what is near it. */
class BoxGrid {
  private readonly cells = new Map<string, Box[]>();
  constructor(private readonly size: number) {}
  private keys(box: Box): string[] {
    const keys: string[] = [];
    const x0 = Math.floor(box.left / this.size);
    const x1 = Math.floor((box.left + box.width) / this.size);
    const y0 = Math.floor(box.top / this.size);
    const y1 = Math.floor((box.top + box.height) / this.size);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) keys.push(`${x},${y}`);
    return keys;
  }
  add(box: Box) {
    for (const key of this.keys(box)) {
      const cell = this.cells.get(key);
      if (cell) cell.push(box);
      else this.cells.set(key, [box]);
    }
  }
  /** Every stored box that intersects `box`. */
  hits(box: Box): boolean {
    for (const key of this.keys(box))
      for (const other of this.cells.get(key) ?? []) if (boxesIntersect(box, other)) return true;
    return false;
  }
}

interface Candidate {
  box: Box;
  leader: Segment | null;
  anchor: PlacedLabel["anchor"];
  cost: number;
}

/** Where a candidate box touches its point: an offset from it, and whether a leader line reaches it. */
interface Offset {
  dx: number;
  dy: number;
  far: boolean;
}

/** The lattice of far places within reach, unordered: the same for every point of one placement. */
function farLattice(near: number, step: number, maxDistance: number) {
  const far: { dx: number; dy: number; ring: number; degrees: number }[] = [];
  const limit = near + maxDistance;
  const cells = Math.floor(limit / step);
  for (let i = -cells; i <= cells; i++)
    for (let j = -cells; j <= cells; j++) {
      const dx = i * step;
      const dy = j * step;
      const distance = Math.hypot(dx, dy);
      if (distance < near + step / 2 || distance > limit) continue;
      const degrees = ((Math.atan2(dy, dx) * 180) / Math.PI + 360) % 360;
      far.push({ dx, dy, ring: Math.round((distance - near) / step), degrees });
    }
  return far;
}

/**
 * The places around one point, in order of preference: the eight next to it (right, left, above,
 * below, the diagonals), then places further out on the lattice, nearest first, the direction away
 * from the neighbours first within a ring. Offsets only: the order is the same for every text a
 * point tries, and a box is made only for the places a search reaches (./placeLabels).
 */
function candidateOffsets(
  near: number,
  lattice: readonly { dx: number; dy: number; ring: number; degrees: number }[],
  /** The direction away from the point's neighbours, in degrees; far places try it first. */
  outward: number | null,
): Offset[] {
  const round = (n: number) => (Math.abs(n) < 1e-9 ? 0 : n);
  const list: Offset[] = NEAR_DIRECTIONS.map((degrees) => {
    const angle = (degrees * Math.PI) / 180;
    return { dx: round(Math.cos(angle)) * near, dy: round(Math.sin(angle)) * near, far: false };
  });
  const turn = (degrees: number) => (outward === null ? 0 : Math.abs(((degrees - outward + 540) % 360) - 180));
  const far = lattice.map((place) => ({ ...place, turn: turn(place.degrees) }));
  far.sort((a, b) => a.ring - b.ring || a.turn - b.turn || a.degrees - b.degrees);
  for (const { dx, dy } of far) list.push({ dx, dy, far: true });
  return list;
}

/**
 * The box of a `width` × `height` label touching the point at (x + dx, y + dy): by the middle of
 * its near side when it lies mostly right, left, above or below, else by its near corner (a wide
 * box placed by its centre along a diagonal would land far from its point); a far box with its
 * leader line, from the mark's edge to the nearest point of the box.
 */
function placeAt(point: LabelPoint, radius: number, width: number, height: number, { dx, dy, far }: Offset) {
  const length = Math.hypot(dx, dy);
  const ux = dx / length;
  const uy = dy / length;
  const tx = point.x + dx;
  const ty = point.y + dy;
  const horizontal: PlacedLabel["anchor"] = ux > 0.3 ? "start" : ux < -0.3 ? "end" : "middle";
  const box = {
    left: horizontal === "start" ? tx : horizontal === "end" ? tx - width : tx - width / 2,
    top: uy > 0.3 ? ty : uy < -0.3 ? ty - height : ty - height / 2,
    width,
    height,
  };
  let leader: Segment | null = null;
  if (far) {
    const nx = Math.min(Math.max(point.x, box.left), box.left + box.width);
    const ny = Math.min(Math.max(point.y, box.top), box.top + box.height);
    const to = Math.hypot(nx - point.x, ny - point.y);
    leader = {
      x1: point.x + ((nx - point.x) / to) * (radius + 1),
      y1: point.y + ((ny - point.y) / to) * (radius + 1),
      x2: nx,
      y2: ny,
    };
  }
  return { box, leader, anchor: horizontal };
}

/**
 * How crowded each point is (the number of other points within `reach` pixels), and the direction
 * away from the centre of those neighbours, in degrees (null for a point alone or at that centre).
 */
function neighbourhoods(points: readonly LabelPoint[], reach: number) {
  return points.map((p) => {
    const near = points.filter((q) => q !== p && Math.hypot(p.x - q.x, p.y - q.y) <= reach);
    if (near.length === 0) return { crowd: 0, outward: null };
    const cx = near.reduce((sum, q) => sum + q.x, 0) / near.length;
    const cy = near.reduce((sum, q) => sum + q.y, 0) / near.length;
    const away = Math.hypot(p.x - cx, p.y - cy) < 0.5 ? null : (Math.atan2(p.y - cy, p.x - cx) * 180) / Math.PI;
    return { crowd: near.length, outward: away };
  });
}

/**
 * Places every point's label. The most crowded points choose first (ties by id), so the labels
 * with the fewest free places get them; the answer is in the order of `points`.
 */
export function placeLabels(points: readonly LabelPoint[], options: PlacementOptions): PlacedLabel[] {
  const { bounds, fontSize } = options;
  const gap = options.gap ?? 2;
  const height = textHeight(fontSize);
  const step = Math.max(4, Math.round(height * 0.8));
  const maxDistance = options.maxDistance ?? (points.length > 150 ? 0 : fontSize * 16);
  const segments = options.segments ?? [];
  /** A soft conflict (a line through the label) costs as much as this many places further on. */
  const SOFT = 12;

  const grid = new BoxGrid(Math.max(16, height * 2));
  for (const point of points) {
    const r = (point.radius ?? 5) + gap;
    grid.add({ left: point.x - r, top: point.y - r, width: 2 * r, height: 2 * r });
  }
  for (const obstacle of options.obstacles ?? []) grid.add(inflate(obstacle, gap));
  const leaders: Segment[] = [];
  const placedBoxes: Box[] = [];

  const hoods = neighbourhoods(points, height * 4);
  const crowd = hoods.map((h) => h.crowd);
  const order = points
    .map((point, index) => ({ point, index }))
    .sort(
      (a, b) =>
        (crowd[b.index] ?? 0) - (crowd[a.index] ?? 0) ||
        (a.point.id < b.point.id ? -1 : a.point.id > b.point.id ? 1 : a.index - b.index),
    );

  /**
   * The cheapest free place for a label of this width around this point, if any. Without
   * `crossing`, a place a streak runs through is not free; with it, it is, at a cost.
   */
  // One order of places per point, whatever text it tries; one lattice for every point of the same mark size.
  const lattices = new Map<number, ReturnType<typeof farLattice>>();
  const orders = new Map<number, Offset[]>();
  const offsetsOf = (point: LabelPoint, index: number) => {
    let order = orders.get(index);
    if (!order) {
      const near = (point.radius ?? 5) + gap;
      let lattice = lattices.get(near);
      if (!lattice) {
        lattice = farLattice(near, step, maxDistance);
        lattices.set(near, lattice);
      }
      order = candidateOffsets(near, lattice, hoods[index]?.outward ?? null);
      orders.set(index, order);
    }
    return order;
  };

  /**
   * The cheapest free place for a label of this width around this point, if any. Without
   * `crossing`, a place a streak runs through is not free; with it, it is, at a cost.
   */
  const bestPlace = (point: LabelPoint, index: number, width: number, crossing: boolean): Candidate | null => {
    let best: Candidate | null = null;
    const offsets = offsetsOf(point, index);
    const radius = point.radius ?? 5;
    for (let i = 0; i < offsets.length; i++) {
      if (best && best.cost <= i) break; // nothing later can be cheaper
      const place = placeAt(point, radius, width, height, offsets[i] as Offset);
      const { box, leader } = place;
      if (!inside(box, bounds) || grid.hits(box)) continue;
      if (!crossing && segments.some((s) => segmentHitsBox(s, box))) continue;
      let soft = 0;
      if (leader) for (const placed of placedBoxes) if (segmentHitsBox(leader, inflate(placed, 1))) soft += 8;
      for (const s of segments) if (segmentHitsBox(s, box)) soft++;
      for (const l of leaders) if (segmentHitsBox(l, box)) soft++;
      if (leader) for (const s of [...segments, ...leaders]) if (segmentsCross(leader, s)) soft++;
      const cost = i + SOFT * soft;
      if (!best || cost < best.cost) best = { ...place, cost };
    }
    return best;
  };

  const result = new Array<PlacedLabel>(points.length);
  for (const { point, index } of order) {
    let chosen: { text: string; place: Candidate } | null = null;
    // Clear of every streak in any of its forms first; only then across one, rather than not at all.
    for (const crossing of [false, true]) {
      for (const text of [point.text, ...(point.fallbacks ?? [])]) {
        const place = bestPlace(point, index, textWidth(text, fontSize), crossing);
        if (place) {
          chosen = { text, place };
          break;
        }
      }
      if (chosen) break;
    }
    if (!chosen) {
      const box = { left: point.x, top: point.y, width: 0, height: 0 };
      result[index] = {
        id: point.id,
        text: point.text,
        x: point.x,
        y: point.y,
        anchor: "middle",
        box,
        leader: null,
        hidden: true,
      };
      continue;
    }
    const { box, leader, anchor } = chosen.place;
    const x = anchor === "start" ? box.left : anchor === "end" ? box.left + box.width : box.left + box.width / 2;
    grid.add(inflate(box, gap / 2));
    placedBoxes.push(box);
    if (leader) leaders.push(leader);
    // The baseline sits one ascent below the box's top.
    result[index] = {
      id: point.id,
      text: chosen.text,
      x,
      y: box.top + ASCENT * fontSize,
      anchor,
      box,
      leader,
      hidden: false,
    };
  }
  return result;
}

/**
 * A product's label on the delta map and its shorter forms, tried in turn where the plot is
 * crowded (a phone, an embed): the name, the name cut at 16 characters, its first word. Whether
 * it is unavailable is said by its mark (in the legend) and its colour on every label alike, not by
 * a suffix that a crowded label would have to drop.
 */
export function streakLabelTexts(streak: Streak): string[] {
  const name = shortLabel(streak.name, 28);
  const firstWord = Array.from(name.split(/\s+/)[0] ?? name).length >= 3 ? `${name.split(/\s+/)[0]}…` : name;
  const texts = [name, shortLabel(name, 16), firstWord];
  return texts.filter((text, index) => texts.indexOf(text) === index);
}

/**
 * What the placement needs of the delta map, wherever it is drawn (the dashboard's recharts
 * figure, the embed's SVG): each product's name at its point under controls (where it was
 * published, when unavailable), the published points it must not cover, the streaks it should
 * not cross. `pixel` says where a point of the chart is drawn.
 */
export function streakLabelPlacement(
  streaks: readonly Streak[],
  pixel: (point: Point) => { x: number; y: number },
  radius = 5,
): { points: LabelPoint[]; obstacles: Box[]; segments: Segment[] } {
  const points: LabelPoint[] = [];
  const obstacles: Box[] = [];
  const segments: Segment[] = [];
  for (const streak of streaks) {
    const from = pixel(streak.from);
    const to = pixel(streak.to);
    const at = streak.available ? to : from;
    const [text = streak.name, ...fallbacks] = streakLabelTexts(streak);
    points.push({ id: streak.productId, x: at.x, y: at.y, text, fallbacks, radius });
    if (streak.available && streak.moves) {
      obstacles.push({ left: from.x - radius, top: from.y - radius, width: radius * 2, height: radius * 2 });
      segments.push({ x1: from.x, y1: from.y, x2: to.x, y2: to.y });
    }
  }
  return { points, obstacles, segments };
}
