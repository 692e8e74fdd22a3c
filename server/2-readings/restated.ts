/**
 * History on one yardstick (docs/methodology.md, "Restated history"): every release of a market
 * re-scored under the methodology of a later one — its indicators, kinds, directions, weights and
 * bands — with the release's own values and its own field of products. Published releases never
 * change: a restatement is computed when asked, labelled as such, and shown beside the published
 * numbers. A value the yardstick's indicator cannot read (its kind or levels changed) counts as
 * not demonstrated, and is named. Pure.
 */
import { valueProblem } from "../1-domain/definition-checks";
import type { MarketFile } from "../1-domain/market-definition";
import type { AxisBands, Scores } from "../1-domain/scores";
import { scoreMarket } from "../2-scoring/engine";
import type { ReleaseData } from "./release";

export interface Restatement {
  /** The release restated and the one whose methodology is the yardstick. */
  release: number;
  yardstick: { release: number; methodologyVersion: string };
  products: Map<string, { scores: Scores; bands: AxisBands; gaps: string[] }>;
  /** Values the yardstick could not read, per product: indicator ids. */
  unreadable: Map<string, string[]>;
}

/** `release`'s own products and values, measured by `yardstick`'s methodology. */
export function restate(release: ReleaseData, yardstick: ReleaseData): Restatement {
  const method = yardstick.definition;
  const indicators = new Map(method.indicators.map((i) => [i.id, i]));
  const unreadable = new Map<string, string[]>();
  const products = release.definition.products.map((product) => ({
    ...product,
    offerings: product.offerings.map((offering) => {
      const values: MarketFile["products"][number]["offerings"][number]["values"] = {};
      for (const [id, value] of Object.entries(offering.values)) {
        const indicator = indicators.get(id);
        if (!indicator) continue; // the yardstick does not measure it
        if (valueProblem(indicator, value)) {
          // Named for the default offering: the one the restated published scores read.
          if (offering.default) unreadable.set(product.productId, [...(unreadable.get(product.productId) ?? []), id]);
          values[id] = null;
        } else values[id] = value;
      }
      return { ...offering, values };
    }),
  }));
  const measured: MarketFile = {
    ...release.definition,
    indicators: method.indicators,
    dimensions: method.dimensions,
    products,
  };
  // Published scores only: no country is engaged, so none is scored.
  const scored = scoreMarket(measured, []);
  return {
    release: release.release,
    yardstick: { release: yardstick.release, methodologyVersion: yardstick.methodologyVersion },
    products: new Map(scored.products.map((p) => [p.productId, { scores: p.scores, bands: p.bands, gaps: p.gaps }])),
    unreadable,
  };
}

/** One product's history: each release it was in, as published and restated under the yardstick. */
export function productHistory(
  releases: readonly ReleaseData[],
  yardstick: ReleaseData,
  productId: string,
  restated: (release: ReleaseData) => Restatement,
) {
  return releases
    .filter((release) => release.products.some((p) => p.productId === productId))
    .map((release) => {
      const published = release.products.find((p) => p.productId === productId);
      const again = restated(release).products.get(productId);
      return {
        release: release.release,
        lastUpdated: release.lastUpdated,
        methodologyVersion: release.methodologyVersion,
        published: { scores: published?.scores as Scores, bands: published?.bands as AxisBands },
        restated: {
          methodologyVersion: yardstick.methodologyVersion,
          scores: again?.scores as Scores,
          bands: again?.bands as AxisBands,
          gaps: again?.gaps ?? [],
          unreadable: restated(release).unreadable.get(productId) ?? [],
        },
      };
    });
}
