/**
 * Pure transforms from reading payloads to what the charts draw: one streak per product for the
 * delta map, bars with a ghost ceiling for rankings. Shared by the MCP chart view and the
 * dashboard, so both draw the same thing from the same numbers.
 */
import { round1 } from "../../server/scoring/round";

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

/** A ranking bar: what is kept (`value`) in front of what was published (`ceiling`). */
export interface GhostBar extends ProductRef {
  rank: number;
  value: number;
  ceiling: number;
  /** Ceiling minus value, one decimal: what the product gives up. */
  givesUp: number;
  /** The 5th–95th percentile of `value` across the sensitivity analysis: the whisker. */
  interval?: { low: number; high: number };
  /** The 5th–95th percentile of `rank`. */
  rankInterval?: { best: number; worst: number };
  /** The product's band is not settled (under 95 % of the draws in it). */
  unsettled?: boolean;
}

const byValueThenName = (a: GhostBar, b: GhostBar) =>
  b.value - a.value || a.name.localeCompare(b.name) || a.productId.localeCompare(b.productId);

/** Competition ranks (1, 2, 2, 4) over bars already in order. */
function ranked(bars: Omit<GhostBar, "rank">[]): GhostBar[] {
  const withRank = bars.map((bar) => ({ ...bar, rank: 0 }));
  withRank.sort(byValueThenName);
  withRank.forEach((bar, i) => {
    const previous = withRank[i - 1];
    bar.rank = previous && previous.value === bar.value ? previous.rank : i + 1;
  });
  return withRank;
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

/** The Max reading as bars: `on` in front of `off`, in the reading's own rank order. */
export function maxGhostBars(max: MaxPayload): GhostBar[] {
  return max.products.map(({ rank, productId, name, vendor, available, on, off, rankInterval, retainedInterval }) => ({
    rank,
    productId,
    name,
    vendor,
    available,
    value: on.innovation,
    ceiling: off.innovation,
    givesUp: round1(off.innovation - on.innovation),
    ...(available && retainedInterval ? { interval: { low: retainedInterval.p5, high: retainedInterval.p95 } } : {}),
    ...(rankInterval ? { rankInterval } : {}),
  }));
}

/** The Capability Index as bars: published Innovation, nothing given up. */
export function capaIndexBars(index: CapaIndexPayload): GhostBar[] {
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
    }),
  );
}
