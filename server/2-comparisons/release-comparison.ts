/**
 * What a release changed against an earlier one (docs/methodology.md, "Comparing releases"). Pure:
 * two stored releases and a country in, a payload out.
 *
 * Every score change of a product in both releases is attributed, by rescoring its default
 * offering with one factor changed at a time, in this order:
 *   1. its own values (the earlier release's field and method, the later release's values);
 *   2. the field (the later release's min–max bounds, which other products moved);
 *   3. the method (the later release's indicators and weights).
 * The three steps end at the later release's score, so the exact parts add up to the exact change.
 * Published scores have one decimal, so the change is the difference of the published scores and
 * each part is rounded to one decimal; the tenths rounding leaves over (at most a few) go, one at a
 * time, to the part its rounding moved furthest from its exact value, ties in the order above. The
 * parts shown therefore always add up to the change shown.
 */
import { AXES, type Axis, type Indicator, type Offering } from "../1-domain/market-definition";
import type { Band, Scores } from "../1-domain/scores";
import { capaindex } from "../2-readings/capaindex";
import type { ReleaseData } from "../2-readings/release";
import { servicemax } from "../2-readings/servicemax";
import { defaultOffering, exactAxisScores, fieldOf } from "../2-scoring/engine";
import { normalize } from "../2-scoring/normalize";
import { partsAddingUp, round1 } from "../2-scoring/round";

export interface Attribution {
  /** The product's own values changed. */
  ownValues: number;
  /** The field moved: other products changed the min–max bounds. */
  field: number;
  /** The method changed: indicators or weights. */
  method: number;
}

/** One indicator's share of an axis's own-values part: its value moved, and so many points with it. */
export interface IndicatorMove {
  indicatorId: string;
  name: string;
  points: number;
}

export interface AxisChange {
  from: number;
  to: number;
  change: number;
  attribution: Attribution;
  /**
   * The own-values part by indicator: the indicators whose values moved this axis most (at most
   * INDICATORS_SHOWN, largest first, their points rounded so that all of them, shown or not, add
   * up to `attribution.ownValues`), and how many more indicators' values moved it.
   */
  ownValuesBy: { indicators: IndicatorMove[]; more: number };
}

/** How many indicators of an axis's own-values part a comparison names (the rest are counted). */
export const INDICATORS_SHOWN = 3;

export type Availability = "became_available" | "became_unavailable" | "offering_changed" | "unchanged";

/**
 * A rank in two releases. `movedUp` is the one sign every reading uses for a rank's move: places
 * gained, positive when the product moved up (3 → 1 is +2). `change` is the older, opposite sign
 * (to − from), kept until its sunset (server/1-domain/deprecations.ts).
 */
export interface RankMove {
  from: number | null;
  to: number | null;
  movedUp: number | null;
  change: number | null;
}

export interface ProductChange {
  productId: string;
  name: string;
  vendor: string;
  status: "entered" | "left" | "stayed";
  /** Per axis, for a product in both releases; null when it entered or left. */
  scores: Record<Axis, AxisChange> | null;
  bands: Record<Axis, { from: string | null; to: string | null; changed: boolean }>;
  capabilityIndexRank: RankMove;
  max: {
    rank: RankMove;
    available: { from: boolean | null; to: boolean | null };
    offering: { from: string | null; to: string | null };
    availability: Availability | null;
  };
}

/** A product as a headline names it. */
export interface NamedProduct {
  productId: string;
  name: string;
}

/** Who held first place in each release (several when tied); an empty list when nobody did. */
export interface FirstPlace {
  from: NamedProduct[];
  to: NamedProduct[];
}

export interface MarketChange {
  /** First place of the Capability Index, and of Max among the products usable under the country. */
  firstPlace: { capabilityIndex: FirstPlace; max: FirstPlace };
  /** The name of every indicator the lists below name by id (the later release's name where it has one). */
  indicatorNames: { indicatorId: string; name: string }[];
  methodologyChanged: boolean;
  material: boolean;
  methodologyVersion: { from: string; to: string };
  bandsChanged: { axis: Axis; from: Band[]; to: Band[] }[];
  indicatorsAdded: string[];
  indicatorsRemoved: string[];
  weightsChanged: { indicatorId: string; from: number; to: number }[];
  /** Indicators in both whose definition (axis, kind, direction, levels) changed. */
  indicatorsRedefined: string[];
  productsAdded: string[];
  productsRemoved: string[];
}

export interface ReleaseComparison {
  marketId: string;
  from: { release: number; lastUpdated: string; methodologyVersion: string };
  to: { release: number; lastUpdated: string; methodologyVersion: string };
  country: string;
  market: MarketChange;
  products: ProductChange[];
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Rounds the parts to tenths so they add up to `change` exactly (largest remainder, signed). */
export function roundedParts(exact: Attribution, change: number): Attribution {
  const [ownValues, field, method] = partsAddingUp([exact.ownValues, exact.field, exact.method], change) as [
    number,
    number,
    number,
  ];
  return { ownValues, field, method };
}

/**
 * What rescoring needs of the pair, computed once per comparison: each product's default values
 * in both releases, both methods, and the three fields (the later one also under the earlier
 * method, so that only the bounds move in step 2).
 */
function attributionInputs(from: ReleaseData, to: ReleaseData) {
  const defaultsFrom = from.definition.products.map(defaultOffering);
  const defaultsTo = to.definition.products.map(defaultOffering);
  const methodFrom = from.definition.indicators;
  const methodTo = to.definition.indicators;
  return {
    valuesFrom: new Map(from.definition.products.map((p, i) => [p.productId, (defaultsFrom[i] as Offering).values])),
    valuesTo: new Map(to.definition.products.map((p, i) => [p.productId, (defaultsTo[i] as Offering).values])),
    methodFrom,
    methodTo,
    fieldFrom: fieldOf(methodFrom, defaultsFrom),
    fieldToUnderOldMethod: fieldOf(methodFrom, defaultsTo),
    fieldTo: fieldOf(methodTo, defaultsTo),
    names: new Map([...methodFrom, ...methodTo].map((i) => [i.id, i.name])),
  };
}

const sameValue = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/**
 * Step 1 split by indicator: an axis score is 100 × Σ(weight × normalised) / Σ weight, so under the
 * earlier field and method each indicator whose value moved accounts for exactly
 * 100 × weight × Δnormalised / Σ weight of the own-values part. Rounded so that all of them add
 * up to the part shown; those that round to nothing are not named.
 */
function ownValuesBy(
  inputs: ReturnType<typeof attributionInputs>,
  valuesFrom: Offering["values"],
  valuesTo: Offering["values"],
  axis: Axis,
  ownValues: number,
): AxisChange["ownValuesBy"] {
  const { methodFrom, fieldFrom } = inputs;
  const onAxis = methodFrom.filter((i) => i.axis === axis);
  const total = onAxis.reduce((sum, i) => sum + i.weight, 0);
  const moved = onAxis.filter((i) => !sameValue(valuesFrom[i.id], valuesTo[i.id]));
  const exact = moved.map((i) =>
    total === 0
      ? 0
      : (100 *
          i.weight *
          (normalize(i, valuesTo[i.id], fieldFrom.get(i.id)) - normalize(i, valuesFrom[i.id], fieldFrom.get(i.id)))) /
        total,
  );
  const points = partsAddingUp(exact, ownValues);
  const named = moved
    .map((indicator, k) => ({
      indicatorId: indicator.id,
      name: inputs.names.get(indicator.id) ?? indicator.name,
      points: points[k] as number,
    }))
    .filter((move) => move.points !== 0)
    .sort((a, b) => Math.abs(b.points) - Math.abs(a.points) || byText(a.name, b.name));
  return { indicators: named.slice(0, INDICATORS_SHOWN), more: Math.max(0, named.length - INDICATORS_SHOWN) };
}

function attribute(
  inputs: ReturnType<typeof attributionInputs>,
  productId: string,
  published: { from: Scores; to: Scores },
) {
  const { methodFrom, methodTo, fieldFrom, fieldToUnderOldMethod, fieldTo } = inputs;
  const valuesFrom = inputs.valuesFrom.get(productId) as Offering["values"];
  const valuesTo = inputs.valuesTo.get(productId) as Offering["values"];
  const s0 = exactAxisScores(methodFrom, valuesFrom, fieldFrom);
  const s1 = exactAxisScores(methodFrom, valuesTo, fieldFrom);
  const s2 = exactAxisScores(methodFrom, valuesTo, fieldToUnderOldMethod);
  const s3 = exactAxisScores(methodTo, valuesTo, fieldTo);
  return Object.fromEntries(
    AXES.map((axis) => {
      const change = round1(published.to[axis] - published.from[axis]);
      const exact = { ownValues: s1[axis] - s0[axis], field: s2[axis] - s1[axis], method: s3[axis] - s2[axis] };
      const attribution = roundedParts(exact, change);
      return [
        axis,
        {
          from: published.from[axis],
          to: published.to[axis],
          change,
          attribution,
          ownValuesBy: ownValuesBy(inputs, valuesFrom, valuesTo, axis, attribution.ownValues),
        },
      ];
    }),
  ) as Record<Axis, AxisChange>;
}

function indicatorShape(indicator: Indicator): string {
  const {
    weight: _weight,
    name: _name,
    description: _description,
    source: _source,
    ...shape
  } = indicator as Indicator & {
    description?: string;
    source?: string;
  };
  return JSON.stringify(shape, Object.keys(shape).sort());
}

/**
 * Bands compared by value, not as JSON: a release read back from the database has its keys in
 * jsonb's order, one scored in memory (`ops catalog preview`) in the engine's.
 */
const sameBands = (a: readonly Band[], b: readonly Band[]) =>
  a.length === b.length &&
  a.every((band, i) => band.name === b[i]?.name && band.from === b[i]?.from && band.to === b[i]?.to);

function marketChange(from: ReleaseData, to: ReleaseData): Omit<MarketChange, "firstPlace" | "indicatorNames"> {
  const indicatorsFrom = new Map(from.definition.indicators.map((i) => [i.id, i]));
  const indicatorsTo = new Map(to.definition.indicators.map((i) => [i.id, i]));
  const both = [...indicatorsTo.keys()].filter((id) => indicatorsFrom.has(id)).sort(byText);
  const productsFrom = new Set(from.products.map((p) => p.productId));
  const productsTo = new Set(to.products.map((p) => p.productId));
  const bandsOf = (release: ReleaseData, axis: Axis) => release.dimensions.find((d) => d.id === axis)?.bands ?? [];
  return {
    methodologyChanged: from.methodology !== to.methodology || from.methodologyVersion !== to.methodologyVersion,
    material: to.material,
    methodologyVersion: { from: from.methodologyVersion, to: to.methodologyVersion },
    bandsChanged: AXES.filter((axis) => !sameBands(bandsOf(from, axis), bandsOf(to, axis))).map((axis) => ({
      axis,
      from: bandsOf(from, axis),
      to: bandsOf(to, axis),
    })),
    indicatorsAdded: [...indicatorsTo.keys()].filter((id) => !indicatorsFrom.has(id)).sort(byText),
    indicatorsRemoved: [...indicatorsFrom.keys()].filter((id) => !indicatorsTo.has(id)).sort(byText),
    weightsChanged: both
      .filter((id) => indicatorsFrom.get(id)?.weight !== indicatorsTo.get(id)?.weight)
      .map((id) => ({
        indicatorId: id,
        from: (indicatorsFrom.get(id) as Indicator).weight,
        to: (indicatorsTo.get(id) as Indicator).weight,
      })),
    indicatorsRedefined: both.filter(
      (id) => indicatorShape(indicatorsFrom.get(id) as Indicator) !== indicatorShape(indicatorsTo.get(id) as Indicator),
    ),
    productsAdded: [...productsTo].filter((id) => !productsFrom.has(id)).sort(byText),
    productsRemoved: [...productsFrom].filter((id) => !productsTo.has(id)).sort(byText),
  };
}

/**
 * Who ranked first in each release, by name: a Max rank counts only for a product usable under
 * the country (an unavailable one is ranked tied last, never first in any sense).
 */
function firstPlace(
  products: readonly ProductChange[],
  rankOf: (p: ProductChange) => RankMove,
  counts: (p: ProductChange, side: "from" | "to") => boolean,
): FirstPlace {
  const first = (side: "from" | "to") =>
    products
      .filter((p) => rankOf(p)[side] === 1 && counts(p, side))
      .map((p) => ({ productId: p.productId, name: p.name }));
  return { from: first("from"), to: first("to") };
}

/** The names of the indicators the market's change lists name by id. */
function indicatorNames(
  from: ReleaseData,
  to: ReleaseData,
  market: Omit<MarketChange, "firstPlace" | "indicatorNames">,
) {
  const names = new Map([...from.definition.indicators, ...to.definition.indicators].map((i) => [i.id, i.name]));
  const named = new Set([
    ...market.indicatorsAdded,
    ...market.indicatorsRemoved,
    ...market.indicatorsRedefined,
    ...market.weightsChanged.map((w) => w.indicatorId),
  ]);
  return [...named].sort(byText).map((indicatorId) => ({ indicatorId, name: names.get(indicatorId) ?? indicatorId }));
}

const difference = (from: number | null, to: number | null) => (from === null || to === null ? null : to - from);

function availabilityChange(
  from: { available: boolean; offering: { id: string } | null } | undefined,
  to: { available: boolean; offering: { id: string } | null } | undefined,
): Availability | null {
  if (!from || !to) return null;
  if (!from.available && to.available) return "became_available";
  if (from.available && !to.available) return "became_unavailable";
  if (from.offering?.id !== to.offering?.id) return "offering_changed";
  return "unchanged";
}

/**
 * The comparison of `from` with `to` (later) for `country`. Throws UnknownCountryError when
 * either release was not scored for the country.
 */
export function changes(from: ReleaseData, to: ReleaseData, country: string): ReleaseComparison {
  const capaFrom = new Map(capaindex(from).products.map((p) => [p.productId, p.rank]));
  const capaTo = new Map(capaindex(to).products.map((p) => [p.productId, p.rank]));
  const maxFrom = new Map(servicemax(from, country).products.map((p) => [p.productId, p]));
  const maxTo = servicemax(to, country);
  const maxToById = new Map(maxTo.products.map((p) => [p.productId, p]));
  const publishedFrom = new Map(from.products.map((p) => [p.productId, p]));
  const publishedTo = new Map(to.products.map((p) => [p.productId, p]));
  const inputs = attributionInputs(from, to);

  const change = (productId: string): ProductChange => {
    const before = publishedFrom.get(productId);
    const after = publishedTo.get(productId);
    const shown = (after ?? before) as NonNullable<typeof after>;
    const status = before && after ? "stayed" : after ? "entered" : "left";
    const mFrom = maxFrom.get(productId);
    const mTo = maxToById.get(productId);
    const rank = (a: number | undefined, b: number | undefined): RankMove => {
      const change = difference(a ?? null, b ?? null);
      return { from: a ?? null, to: b ?? null, movedUp: change === null ? null : -change || 0, change };
    };
    return {
      productId,
      name: shown.name,
      vendor: shown.vendor,
      status,
      scores: before && after ? attribute(inputs, productId, { from: before.scores, to: after.scores }) : null,
      bands: Object.fromEntries(
        AXES.map((axis) => {
          const a = before?.bands[axis] ?? null;
          const b = after?.bands[axis] ?? null;
          return [axis, { from: a, to: b, changed: a !== null && b !== null && a !== b }];
        }),
      ) as ProductChange["bands"],
      capabilityIndexRank: rank(capaFrom.get(productId), capaTo.get(productId)),
      max: {
        rank: rank(mFrom?.rank, mTo?.rank),
        available: { from: mFrom?.available ?? null, to: mTo?.available ?? null },
        offering: { from: mFrom?.offering?.id ?? null, to: mTo?.offering?.id ?? null },
        availability: availabilityChange(mFrom, mTo),
      },
    };
  };

  // The later release's products in its order (by name), then those that left, by name.
  const left = from.products.filter((p) => !publishedTo.has(p.productId)).map((p) => p.productId);
  const market = marketChange(from, to);
  const products = [...to.products.map((p) => p.productId), ...left].map(change);
  return {
    marketId: to.marketId,
    from: { release: from.release, lastUpdated: from.lastUpdated, methodologyVersion: from.methodologyVersion },
    to: { release: to.release, lastUpdated: to.lastUpdated, methodologyVersion: to.methodologyVersion },
    country: maxTo.country,
    market: {
      firstPlace: {
        capabilityIndex: firstPlace(
          products,
          (p) => p.capabilityIndexRank,
          () => true,
        ),
        max: firstPlace(
          products,
          (p) => p.max.rank,
          (p, side) => p.max.available[side] === true,
        ),
      },
      indicatorNames: indicatorNames(from, to, market),
      ...market,
    },
    products,
  };
}
