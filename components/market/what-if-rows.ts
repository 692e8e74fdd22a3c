/**
 * What the what-if view shows, worked out from the API's what-if payload: pure, so it is tested
 * on its own. The reader orders the rows by any axis. By Innovation the rows are the API's own
 * rankings, rank and move as served (the Capability Index and the Max order by Innovation). By
 * Control or Scale they are ordered with rankBy — the competition ranking every reading uses — on
 * the scores recomputed with the reader's weights, each beside the rank its published score gives;
 * so a Control or Scale weight reorders something too, not only a column. An unavailable product
 * is never ranked or scored: it is set apart.
 */
import { AXES, type Axis } from "@/server/1-domain/market-definition";
import type { Scores } from "@/server/1-domain/scores";
import { rankBy } from "@/server/2-readings/rank";
import type { WhatIfReading } from "./reading-types";

export interface WhatIfRow {
  productId: string;
  name: string;
  vendor: string;
  rank: number;
  publishedRank: number;
  /** Places gained against publishedRank: positive when it moved up. */
  rankChange: number;
  /** Every axis with the reader's weights (under the controls, for the Max). */
  now: Scores;
  /** Every axis as published (under the controls, for the Max). */
  published: Scores;
}

export interface WhatIfRows {
  capabilityIndex: WhatIfRow[];
  max?: {
    country: string;
    ranked: WhatIfRow[];
    /** No offering meets every control: no rank, no score. */
    unavailable: { productId: string; name: string; vendor: string }[];
  };
}

type Scored = Omit<WhatIfRow, "rank" | "publishedRank" | "rankChange"> & Partial<WhatIfRow>;

/** The rows by this axis: the API's ranks by Innovation; by another, ranked here the same way. */
function ordered(items: readonly Scored[], by: Axis): WhatIfRow[] {
  if (by === "innovation") return items as WhatIfRow[];
  const publishedRanks = new Map(rankBy(items, (p) => p.published[by]).map((p) => [p.productId, p.rank]));
  return rankBy(items, (p) => p.now[by]).map((p) => {
    const publishedRank = publishedRanks.get(p.productId) as number;
    return { ...p, publishedRank, rankChange: publishedRank - p.rank };
  });
}

export function whatIfRows(reading: WhatIfReading, by: Axis): WhatIfRows {
  const identity = (p: { productId: string; name: string; vendor: string }) => ({
    productId: p.productId,
    name: p.name,
    vendor: p.vendor,
  });
  const capabilityIndex = ordered(
    reading.capabilityIndex.products.map((p) => ({
      ...identity(p),
      rank: p.rank,
      publishedRank: p.publishedRank,
      rankChange: p.rankChange,
      now: p.scores,
      published: p.publishedScores,
    })),
    by,
  );
  if (!reading.max) return { capabilityIndex };
  const usable = reading.max.products.flatMap((p) =>
    p.available && p.on && p.publishedOn
      ? [
          {
            ...identity(p),
            rank: p.rank,
            publishedRank: p.publishedRank,
            rankChange: p.rankChange,
            now: p.on,
            published: p.publishedOn,
          },
        ]
      : [],
  );
  const unavailable = reading.max.products
    .filter((p) => !p.available)
    .map(identity)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { capabilityIndex, max: { country: reading.max.country, ranked: ordered(usable, by), unavailable } };
}

/** A score's change, to the one decimal scores have (no 0.30000000000000004). */
export const scoreChange = (row: WhatIfRow, axis: Axis) => Math.round((row.now[axis] - row.published[axis]) * 10) / 10;

/** What the reader's weights did to one axis, over every product. */
export interface AxisMove {
  axis: Axis;
  /** Products whose score on this axis is not the published one. */
  changed: number;
  of: number;
  /** The largest change (ties: the first in the rows' order), or null when nothing changed. */
  largest: { name: string; change: number; now: number } | null;
}

export function axisMoves(rows: readonly WhatIfRow[]): AxisMove[] {
  return AXES.map((axis) => {
    let largest: AxisMove["largest"] = null;
    let changed = 0;
    for (const row of rows) {
      const change = scoreChange(row, axis);
      if (change === 0) continue;
      changed += 1;
      if (!largest || Math.abs(change) > Math.abs(largest.change))
        largest = { name: row.name, change, now: row.now[axis] };
    }
    return { axis, changed, of: rows.length, largest };
  });
}

/** How many of the rows are not at their published rank. */
export const rankMoves = (rows: readonly WhatIfRow[]) => rows.filter((row) => row.rankChange !== 0).length;

/** "+4.2", "−0.5" (a true minus sign), or "0". */
export const signedScore = (change: number) =>
  change > 0 ? `+${change.toFixed(1)}` : change < 0 ? `−${Math.abs(change).toFixed(1)}` : "0";
