/**
 * What each webhook event says (docs/webhooks.md), as data: built from the same release
 * comparisons as notifications and e-mails, with ids a program can join on beside the names a
 * person reads. Pure: comparisons and release facts in, envelopes out; the body is serialised
 * once, when the message is written, and every attempt sends those bytes.
 */

import { AXES, type Axis } from "../1-domain/market-definition";
import type { WebhookEnvelope } from "../1-domain/webhook-events";
import { scoreMoves } from "../2-comparisons/comparison-summary";
import type { Availability, ReleaseComparison } from "../2-comparisons/release-comparison";

/** How many score moves a release event names, biggest first (the comparison has them all). */
export const WEBHOOK_TOP_MOVES = 10;

interface ProductRef {
  productId: string;
  name: string;
  vendor: string;
}

export interface ReleaseFacts {
  marketId: string;
  marketName: string;
  release: number;
  publishedAt: string;
  methodologyVersion: string;
  material: boolean;
  notes: string;
  /** Every product, for a market's first release (nothing to compare it with). */
  products: ProductRef[];
}

/** Where a program reads more: absolute URLs of the API. */
const links = (origin: string, marketId: string, release: number, comparedWith: number | null) => {
  const market = `${origin}/v1/markets/${encodeURIComponent(marketId)}`;
  return {
    snapshot: `${market}/snapshot?release=${release}`,
    ...(comparedWith === null ? {} : { changes: `${market}/changes?from=${comparedWith}&to=${release}` }),
    export: `${market}/export?release=${release}`,
  };
};

const ref = (p: ProductRef): ProductRef => ({ productId: p.productId, name: p.name, vendor: p.vendor });

export function releasePublishedEvent(
  facts: ReleaseFacts,
  comparison: ReleaseComparison | null,
  origin: string,
): WebhookEnvelope<unknown> {
  return {
    type: "release.published",
    timestamp: facts.publishedAt,
    data: {
      marketId: facts.marketId,
      marketName: facts.marketName,
      release: facts.release,
      lastUpdated: facts.publishedAt,
      methodologyVersion: facts.methodologyVersion,
      material: facts.material,
      notes: facts.notes,
      summary: {
        comparedWith: comparison?.from.release ?? null,
        methodologyChanged: comparison ? comparison.market.methodologyChanged : true,
        productsEntered: comparison
          ? comparison.products.filter((p) => p.status === "entered").map(ref)
          : facts.products.map(ref),
        productsLeft: comparison ? comparison.products.filter((p) => p.status === "left").map(ref) : [],
        biggestMoves: comparison
          ? scoreMoves(comparison)
              .slice(0, WEBHOOK_TOP_MOVES)
              .map((m) => ({
                productId: m.productId ?? null,
                name: m.product,
                axis: m.axis,
                from: m.from,
                to: m.to,
                change: m.change,
                attribution: m.attribution,
              }))
          : [],
        bandMoves: comparison
          ? comparison.products.flatMap((p) =>
              AXES.filter((axis) => p.bands[axis].changed).map((axis) => ({
                productId: p.productId,
                name: p.name,
                axis,
                from: p.bands[axis].from,
                to: p.bands[axis].to,
              })),
            )
          : [],
      },
      links: links(origin, facts.marketId, facts.release, comparison?.from.release ?? null),
    },
  };
}

export function marketArchivedEvent(market: {
  marketId: string;
  marketName: string;
  archivedAt: string;
  lastRelease: number | null;
}): WebhookEnvelope<unknown> {
  return {
    type: "market.archived",
    timestamp: market.archivedAt,
    data: { marketId: market.marketId, marketName: market.marketName, lastRelease: market.lastRelease },
  };
}

interface ProductMove extends ProductRef {
  availability: { from: boolean | null; to: boolean | null; change: Exclude<Availability, "unchanged"> } | null;
  bands: { axis: Axis; from: string | null; to: string | null }[];
}

/**
 * What a release changed under one country for the products in both releases: availability under
 * its controls, and bands. Null when nothing did (no event is sent for a quiet country).
 */
export function marketChangedEvent(
  facts: Pick<ReleaseFacts, "marketId" | "marketName" | "release" | "publishedAt">,
  comparison: ReleaseComparison,
  origin: string,
): WebhookEnvelope<unknown> | null {
  const products: ProductMove[] = comparison.products.flatMap((p) => {
    if (p.status !== "stayed") return [];
    const moved = p.max.availability !== null && p.max.availability !== "unchanged";
    const bands = AXES.filter((axis) => p.bands[axis].changed).map((axis) => ({
      axis,
      from: p.bands[axis].from,
      to: p.bands[axis].to,
    }));
    if (!moved && bands.length === 0) return [];
    return [
      {
        ...ref(p),
        availability: moved
          ? {
              from: p.max.available.from,
              to: p.max.available.to,
              change: p.max.availability as Exclude<Availability, "unchanged">,
            }
          : null,
        bands,
      },
    ];
  });
  if (products.length === 0) return null;
  return {
    type: "market.changed",
    timestamp: facts.publishedAt,
    data: {
      marketId: facts.marketId,
      marketName: facts.marketName,
      country: comparison.country,
      release: facts.release,
      comparedWith: comparison.from.release,
      products,
      links: links(origin, facts.marketId, facts.release, comparison.from.release),
    },
  };
}

/** The test event an owner asks for from the dashboard. */
export function testEvent(endpointId: string, at: string): WebhookEnvelope<unknown> {
  return {
    type: "webhook.test",
    timestamp: at,
    data: { endpointId, message: "A test event, sent because someone asked for one from the dashboard." },
  };
}
