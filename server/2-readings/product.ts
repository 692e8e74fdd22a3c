/**
 * One product taken apart (docs/methodology.md, "A product's breakdown"): for each axis, every
 * indicator's raw value, normalised value, weight and contribution in points, the field bounds it
 * was scaled against and the evidence behind it; its offerings and what each overrides; under a
 * country's controls, the offering engaged and what each indicator keeps. Pure: a stored release
 * with what it scored in, a payload out.
 *
 * An axis score is 100 × Σ(weight × normalised) / Σ weight, so indicator i contributes exactly
 * 100 × weight × normalised / Σ weight points. Contributions are shown to one decimal and rounded
 * together (largest remainder, server/2-scoring/round.ts) so that they add up to the published axis
 * score exactly, as the score itself is the exact sum rounded once.
 */
import { offeringEvidence } from "../1-domain/definition-checks";
import {
  AXES,
  type Axis,
  type Evidence,
  type Indicator,
  type IndicatorValue,
  type MarketFile,
  type Offering,
} from "../1-domain/market-definition";
import type { Distance, ProductScore, Scores } from "../1-domain/scores";
import { defaultOffering, exactAxisScores, fieldOf } from "../2-scoring/engine";
import { type FieldBounds, normalize } from "../2-scoring/normalize";
import { partsAddingUp, round1 } from "../2-scoring/round";
import type { ReleaseData } from "./release";
import { UnknownCountryError } from "./release";

export interface IndicatorContribution {
  indicatorId: string;
  name: string;
  kind: Indicator["kind"];
  unit: string | null;
  direction: "higher" | "lower" | null;
  levels: string[] | null;
  /** The value as written in the catalogue; null when not demonstrated (a gap, scored 0). */
  value: IndicatorValue;
  /** 0..1, to four decimals. */
  normalized: number;
  weight: number;
  /** Points this indicator adds to the axis score; the axis's contributions add up to its score. */
  contribution: number;
  /** The min–max bounds of the field a number was scaled against; null for yes/no and levels. */
  field: FieldBounds | null;
  evidence: Evidence | null;
  gap: boolean;
}

export interface AxisBreakdown {
  score: number;
  band: string;
  weightTotal: number;
  indicators: IndicatorContribution[];
}

export interface OfferingDetail {
  offeringId: string;
  name: string;
  default: boolean;
  satisfies: string[];
  /** The values this offering writes instead of the default offering's, with their evidence. */
  overrides: { indicatorId: string; value: IndicatorValue; evidence: Evidence | null }[];
  scores: Scores;
}

export interface IndicatorUnderControls {
  indicatorId: string;
  /** The value of the engaged offering; null when the product is unavailable or does not demonstrate it. */
  value: IndicatorValue;
  normalized: number;
  /** Points under controls; the axis's add up to its score under controls. */
  contribution: number;
  /** contribution under controls − published contribution. */
  change: number;
  /** Whether the engaged offering writes this value itself (else it inherits the default's). */
  overridden: boolean;
  evidence: Evidence | null;
}

export interface ProductUnderCountry {
  country: string;
  controls: { id: string; name: string }[];
  available: boolean;
  offering: { id: string; name: string } | null;
  missingControls: string[];
  underControls: Scores;
  distance: Distance;
  axes: Record<Axis, { score: number; indicators: IndicatorUnderControls[] }>;
}

/** The product's published scores, bands and gaps (as in the snapshot), then where they come from. */
export interface ProductDetail extends ProductScore {
  marketId: string;
  release: number;
  lastUpdated: string;
  methodologyVersion: string;
  axes: Record<Axis, AxisBreakdown>;
  offerings: OfferingDetail[];
  /** What the product keeps under the country's controls; null when no country was asked for. */
  underControls: ProductUnderCountry | null;
}

/** The product is not in this release. */
export class UnknownProductError extends Error {
  constructor(readonly productId: string) {
    super(`unknown product "${productId}"`);
    this.name = "UnknownProductError";
  }
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
const weightTotals = (indicators: readonly Indicator[]) => {
  const totals: Record<Axis, number> = { innovation: 0, control: 0, scale: 0 };
  for (const indicator of indicators) totals[indicator.axis] += indicator.weight;
  return totals;
};
const evidenceOf = (offering: Offering, indicatorId: string): Evidence | null =>
  offeringEvidence(offering)[indicatorId] ?? null;

/** What a release's scoring needs once per market: the field bounds and the weight per axis. */
export interface ScoringFrame {
  indicators: readonly Indicator[];
  bounds: ReadonlyMap<string, FieldBounds | undefined>;
  totals: Record<Axis, number>;
}

export function scoringFrame(definition: MarketFile): ScoringFrame {
  return {
    indicators: definition.indicators,
    bounds: fieldOf(definition.indicators, definition.products.map(defaultOffering)),
    totals: weightTotals(definition.indicators),
  };
}

/** Each indicator of an axis with its normalised value and contribution, rounded to add up to `score`. */
function contributions(frame: ScoringFrame, axis: Axis, values: Record<string, IndicatorValue>, score: number) {
  const indicators = frame.indicators.filter((indicator) => indicator.axis === axis);
  const total = frame.totals[axis];
  const normalized = indicators.map((i) => normalize(i, values[i.id], frame.bounds.get(i.id)));
  const exact = indicators.map((i, k) => (total === 0 ? 0 : (100 * i.weight * (normalized[k] as number)) / total));
  const shown = partsAddingUp(exact, score);
  return indicators.map((indicator, k) => ({
    indicator,
    normalized: round4(normalized[k] as number),
    contribution: shown[k] as number,
  }));
}

/** An offering's scores as the engine publishes them: the exact ones to one decimal. */
function scoresOf(frame: ScoringFrame, values: Record<string, IndicatorValue>): Scores {
  const exact = exactAxisScores(frame.indicators, values, frame.bounds);
  return { innovation: round1(exact.innovation), control: round1(exact.control), scale: round1(exact.scale) };
}

export function product(
  release: ReleaseData,
  productId: string,
  country: string | null,
  frame: ScoringFrame = scoringFrame(release.definition),
): ProductDetail {
  const published = release.products.find((p) => p.productId === productId);
  const product = release.definition.products.find((p) => p.productId === productId);
  if (!published || !product) throw new UnknownProductError(productId);
  const base = defaultOffering(product);

  const axes = Object.fromEntries(AXES.map((axis) => [axis, axisBreakdown(frame, axis, base, published)])) as Record<
    Axis,
    AxisBreakdown
  >;

  const offerings: OfferingDetail[] = [base, ...product.offerings.filter((o) => o !== base)].map((offering) => ({
    offeringId: offering.id,
    name: offering.name,
    default: offering === base,
    satisfies: [...offering.satisfies],
    overrides:
      offering === base
        ? []
        : Object.entries(offering.values).map(([indicatorId, value]) => ({
            indicatorId,
            value,
            evidence: evidenceOf(offering, indicatorId),
          })),
    scores: offering === base ? published.scores : scoresOf(frame, { ...base.values, ...offering.values }),
  }));

  return {
    marketId: release.marketId,
    release: release.release,
    lastUpdated: release.lastUpdated,
    methodologyVersion: release.methodologyVersion,
    productId: published.productId,
    name: published.name,
    vendor: published.vendor,
    scores: published.scores,
    bands: published.bands,
    gaps: published.gaps,
    axes,
    offerings,
    underControls: country === null ? null : underCountry(frame, release, product, axes, country),
  };
}

function axisBreakdown(frame: ScoringFrame, axis: Axis, base: Offering, published: ProductScore): AxisBreakdown {
  const band = published.bands[axis];
  return {
    score: published.scores[axis],
    band,
    weightTotal: frame.totals[axis],
    indicators: contributions(frame, axis, base.values, published.scores[axis]).map(
      ({ indicator, normalized, contribution }) => {
        const value = base.values[indicator.id] ?? null;
        const bounds = indicator.kind === "number" ? frame.bounds.get(indicator.id) : undefined;
        return {
          indicatorId: indicator.id,
          name: indicator.name,
          kind: indicator.kind,
          unit: indicator.kind === "number" ? (indicator.unit ?? null) : null,
          direction: indicator.kind === "number" ? indicator.direction : null,
          levels: indicator.kind === "level" ? [...indicator.levels] : null,
          value,
          normalized,
          weight: indicator.weight,
          contribution,
          field: bounds ? { min: bounds.min, max: bounds.max } : null,
          evidence: evidenceOf(base, indicator.id),
          gap: published.gaps.includes(indicator.id),
        };
      },
    ),
  };
}

function underCountry(
  frame: ScoringFrame,
  release: ReleaseData,
  product: MarketFile["products"][number],
  published: Record<Axis, AxisBreakdown>,
  country: string,
): ProductUnderCountry {
  const result = release.countries.get(country);
  if (!result) throw new UnknownCountryError(country);
  const engaged = result.products.find((p) => p.productId === product.productId);
  if (!engaged) throw new UnknownProductError(product.productId);
  const base = defaultOffering(product);
  const offering = engaged.offering ? product.offerings.find((o) => o.id === engaged.offering?.id) : undefined;
  // Unavailable: nothing is retained; every value counts as not demonstrated.
  const values: Record<string, IndicatorValue> = offering ? { ...base.values, ...offering.values } : {};
  const axes = Object.fromEntries(
    AXES.map((axis) => {
      const before = new Map(published[axis].indicators.map((i) => [i.indicatorId, i.contribution]));
      const indicators = contributions(frame, axis, values, engaged.on[axis]).map(
        ({ indicator, normalized, contribution }): IndicatorUnderControls => {
          const overridden = offering !== undefined && offering !== base && indicator.id in offering.values;
          return {
            indicatorId: indicator.id,
            value: values[indicator.id] ?? null,
            normalized,
            contribution,
            change: round1(contribution - (before.get(indicator.id) ?? 0)),
            overridden,
            evidence: offering ? evidenceOf(overridden ? offering : base, indicator.id) : null,
          };
        },
      );
      return [axis, { score: engaged.on[axis], indicators }];
    }),
  ) as ProductUnderCountry["axes"];
  const names = new Map(release.controls.map((c) => [c.id, c.name]));
  return {
    country,
    controls: result.controls.map((id) => ({ id, name: names.get(id) ?? id })),
    available: engaged.available,
    offering: engaged.offering,
    missingControls: engaged.missingControls,
    underControls: engaged.on,
    distance: engaged.distance,
    axes,
  };
}
