/**
 * Pure transforms from reading payloads to what the charts draw: one streak per product for the
 * delta map, bars with a ghost ceiling for rankings. Shared by the MCP chart view and the
 * dashboard, so both draw the same thing from the same numbers.
 */
import { count } from "../2-formats/count";
import { round1 } from "../2-scoring/round";

export interface Scores {
  innovation: number;
  control: number;
  scale: number;
}

interface ProductRef {
  productId: string;
  name: string;
  vendor: string;
  available: boolean;
}

export interface DeltaPayload {
  marketId: string;
  country: string;
  products: (ProductRef & { published: Scores; underControls: Scores; distance: Scores & { magnitude: number } })[];
}

/** How sure a value and a rank are (docs/methodology.md, Uncertainty); absent in older payloads. */
interface Uncertain {
  rankInterval?: { best: number; worst: number };
}

export interface MaxPayload {
  marketId: string;
  country: string;
  products: (ProductRef &
    Uncertain & {
      rank: number;
      off: Scores;
      on: Scores;
      missingControls: string[];
      retainedInterval?: { p5: number; p95: number };
    })[];
}

export interface CapaIndexPayload {
  marketId: string;
  products: (Uncertain & {
    rank: number;
    productId: string;
    name: string;
    vendor: string;
    innovation: number;
    band: string;
    innovationInterval?: { p5: number; p95: number };
    bandSettled?: boolean;
  })[];
}

export interface Point {
  /** Control, 0..100. */
  x: number;
  /** Innovation, 0..100. */
  y: number;
}

/** A product's move on the Innovation × Control map: from its published point to under controls. */
export interface Streak extends ProductRef {
  from: Point;
  to: Point;
  /** Whether the point moves at all (a country with no controls moves nothing). */
  moves: boolean;
}

export function deltaStreaks(delta: DeltaPayload): Streak[] {
  return delta.products.map(({ productId, name, vendor, available, published, underControls }) => {
    const from = { x: published.control, y: published.innovation };
    const to = { x: underControls.control, y: underControls.innovation };
    return { productId, name, vendor, available, from, to, moves: from.x !== to.x || from.y !== to.y };
  });
}

/**
 * A ranking bar: what is kept (`value`) in front of what was published (`ceiling`). An unavailable
 * product keeps nothing to rank: it has no rank and gives up no number, and is drawn apart, never
 * as a bar (nor a tie) among the products that can be used.
 */
export interface GhostBar extends ProductRef {
  /** Rank among the available products; null for an unavailable one. */
  rank: number | null;
  value: number;
  ceiling: number;
  /** Ceiling minus value, one decimal: what the product gives up; null when unavailable. */
  givesUp: number | null;
  /** The 5th–95th percentile of `value` across the sensitivity analysis: the whisker. */
  interval?: { low: number; high: number };
  /** The 5th–95th percentile of `rank`. */
  rankInterval?: { best: number; worst: number };
  /** The product's band is not settled (under 95 % of the draws in it). */
  unsettled?: boolean;
  /**
   * The country whose controls exclude the product, on a chart of published values (the Capability
   * Index read under a country): the bar is the published value, drawn as such, never as kept.
   */
  excludedUnder?: string;
}

/**
 * One collator for every sort here: the order of `localeCompare` without a locale, at a fraction
 * of its cost (it builds a collator per call: 10,000 products' bars took 50 ms to sort).
 */
const collator = new Intl.Collator();

const byValueThenName = (a: GhostBar, b: GhostBar) =>
  b.value - a.value || collator.compare(a.name, b.name) || collator.compare(a.productId, b.productId);

const byName = (a: ProductRef, b: ProductRef) =>
  collator.compare(a.name, b.name) || collator.compare(a.productId, b.productId);

/** Competition ranks (1, 2, 2, 4) over the available bars; the unavailable after them, by name, unranked. */
function ranked(bars: Omit<GhostBar, "rank">[]): GhostBar[] {
  const usable: GhostBar[] = bars.filter((bar) => bar.available).map((bar) => ({ ...bar, rank: 0 }));
  usable.sort(byValueThenName);
  usable.forEach((bar, i) => {
    const previous = usable[i - 1];
    bar.rank = previous && previous.value === bar.value ? previous.rank : i + 1;
  });
  const unusable = bars.filter((bar) => !bar.available).map((bar) => ({ ...bar, rank: null, givesUp: null }));
  return [...usable, ...unusable.sort(byName)];
}

/** "3." for a ranked bar, "–" for an unavailable one (it has no rank). */
export const rankLabel = (bar: Pick<GhostBar, "rank">) => (bar.rank === null ? "–" : `${bar.rank}.`);

/** How many products can be used under a country's controls: the headline of every country reading. */
export function usableCount(products: readonly { available: boolean }[]) {
  const usable = products.filter((p) => p.available).length;
  return { usable, total: products.length };
}

/** "2 of 13 products are usable under FR's controls." */
export function usableHeadline(products: readonly { available: boolean }[], country: string): string {
  const { usable, total } = usableCount(products);
  return `${count(usable)} of ${count(total)} product${total === 1 ? "" : "s"} ${usable === 1 ? "is" : "are"} usable under ${country}'s controls.`;
}

/** The delta as bars: Innovation under controls, ranked, with the published Innovation as ghost. */
export function deltaGhostBars(delta: DeltaPayload): GhostBar[] {
  return ranked(
    delta.products.map(({ productId, name, vendor, available, published, underControls }) => ({
      productId,
      name,
      vendor,
      available,
      value: underControls.innovation,
      ceiling: published.innovation,
      givesUp: round1(published.innovation - underControls.innovation),
    })),
  );
}

/**
 * The Max reading as bars: `on` in front of `off`, in the reading's own rank order; the products
 * unavailable under the controls after them, unranked (the reading ties them last).
 */
export function maxGhostBars(max: MaxPayload): GhostBar[] {
  const bars = max.products.map(
    ({ rank, productId, name, vendor, available, on, off, rankInterval, retainedInterval }) => ({
      rank: available ? rank : null,
      productId,
      name,
      vendor,
      available,
      value: available ? on.innovation : 0,
      ceiling: off.innovation,
      givesUp: available ? round1(off.innovation - on.innovation) : null,
      ...(available && retainedInterval ? { interval: { low: retainedInterval.p5, high: retainedInterval.p95 } } : {}),
      ...(available && rankInterval ? { rankInterval } : {}),
    }),
  );
  return [...bars.filter((b) => b.available), ...bars.filter((b) => !b.available).sort(byName)];
}

/** The Capability Index as bars: published Innovation, nothing given up. */
export function capaIndexBars(
  index: CapaIndexPayload,
  under?: { country: string; unavailable: ReadonlySet<string> },
): GhostBar[] {
  return index.products.map(
    ({ rank, productId, name, vendor, innovation, rankInterval, innovationInterval, bandSettled }) => ({
      rank,
      productId,
      name,
      vendor,
      available: true,
      value: innovation,
      ceiling: innovation,
      givesUp: 0,
      ...(innovationInterval ? { interval: { low: innovationInterval.p5, high: innovationInterval.p95 } } : {}),
      ...(rankInterval ? { rankInterval } : {}),
      ...(bandSettled === false ? { unsettled: true } : {}),
      ...(under?.unavailable.has(productId) ? { excludedUnder: under.country } : {}),
    }),
  );
}
