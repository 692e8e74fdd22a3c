/**
 * Notifications and weekly summaries composed from release comparisons. Pure: comparisons and
 * release facts in, the content stored with a notification or an e-mail out.
 */

import type { NotificationContent, WeeklyMarket } from "../1-domain/notification-content";
import { bandMoves, moversPerAxis, scoreMoves } from "../2-comparisons/comparison-summary";
import type { ReleaseComparison } from "../2-comparisons/release-comparison";

/** How many score moves a release notification names. */
export const TOP_MOVES = 5;
/** How many band moves a notification or summary names per market. */
export const BAND_MOVES = 10;
/** How many movers per axis the weekly summary names per market. */
export const MOVERS_PER_AXIS = 3;

const namesOf = (comparison: ReleaseComparison, status: "entered" | "left") =>
  comparison.products.filter((p) => p.status === status).map((p) => p.name);

export interface PublishedRelease {
  marketId: string;
  marketName: string;
  release: number;
  publishedAt: string;
  methodologyVersion: string;
  material: boolean;
  notes: string;
  /** Every product's name, for a market's first release (nothing to compare it with). */
  productNames: string[];
}

/** A release was published: what it changed against the release before it (null for the first). */
export function releaseNotification(
  published: PublishedRelease,
  comparison: ReleaseComparison | null,
): NotificationContent {
  return {
    kind: "release_published",
    marketId: published.marketId,
    marketName: published.marketName,
    occurredAt: published.publishedAt,
    release: published.release,
    comparedWith: comparison?.from.release ?? null,
    methodologyVersion: published.methodologyVersion,
    methodologyChanged: comparison ? comparison.market.methodologyChanged : true,
    material: published.material,
    notes: published.notes,
    productsEntered: comparison ? namesOf(comparison, "entered") : published.productNames,
    productsLeft: comparison ? namesOf(comparison, "left") : [],
    topMoves: comparison ? scoreMoves(comparison).slice(0, TOP_MOVES) : [],
    bandMoves: comparison ? bandMoves(comparison).slice(0, BAND_MOVES) : [],
  };
}

/** A market was archived: it is no longer listed; its releases are kept. */
export function archiveNotification(market: {
  marketId: string;
  marketName: string;
  archivedAt: string;
  lastRelease: number | null;
}): NotificationContent {
  return {
    kind: "market_archived",
    marketId: market.marketId,
    marketName: market.marketName,
    occurredAt: market.archivedAt,
    release: market.lastRelease,
    comparedWith: null,
    methodologyVersion: null,
    methodologyChanged: false,
    material: false,
    notes: null,
    productsEntered: [],
    productsLeft: [],
    topMoves: [],
    bandMoves: [],
  };
}

/**
 * One followed market's week: its releases, whether it was archived, and what the week changed
 * (the last release before the week against the week's last, under `comparison.country`).
 */
export function weeklyMarket(
  market: { marketId: string; marketName: string },
  releases: WeeklyMarket["releases"],
  archived: boolean,
  comparison: ReleaseComparison | null,
  firstReleaseProducts: string[] = [],
): WeeklyMarket {
  return {
    marketId: market.marketId,
    marketName: market.marketName,
    releases,
    archived,
    compared: comparison ? { from: comparison.from.release, to: comparison.to.release } : null,
    movers: comparison ? moversPerAxis(scoreMoves(comparison), MOVERS_PER_AXIS) : [],
    bandMoves: comparison ? bandMoves(comparison).slice(0, BAND_MOVES) : [],
    availability: comparison
      ? comparison.products.flatMap((p) =>
          p.max.availability && p.max.availability !== "unchanged"
            ? [
                {
                  product: p.name,
                  change: p.max.availability,
                  offeringFrom: p.max.offering.from,
                  offeringTo: p.max.offering.to,
                },
              ]
            : [],
        )
      : [],
    productsEntered: comparison ? namesOf(comparison, "entered") : firstReleaseProducts,
    productsLeft: comparison ? namesOf(comparison, "left") : [],
  };
}

/** Whether a market's week has anything to say. */
export const weekHasNews = (market: WeeklyMarket) => market.releases.length > 0 || market.archived;
