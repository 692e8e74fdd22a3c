/**
 * The scoring engine: a market definition and the geographies in force → the published scores of
 * every product and, for every country, what each product keeps under that country's controls.
 * Pure: no I/O, no clock, no randomness; the same input gives the same output, whatever the order
 * of products in the input.
 */
import {
  AXES,
  type Axis,
  type Geography,
  type Indicator,
  type IndicatorValue,
  type MarketFile,
  type Offering,
} from "../1-domain/market-definition";
import type {
  AxisBands,
  Band,
  CountryResult,
  Dimension,
  DimensionIndicator,
  Distance,
  ProductScore,
  ProductUnderControls,
  Scores,
} from "../1-domain/scores";
import { type FieldBounds, fieldBounds, normalize } from "./normalize";
import { round1 } from "./round";

export interface ScoredMarket {
  dimensions: Dimension[];
  /** Published scores, ordered by name then productId. */
  products: ProductScore[];
  /** One entry per geography, ordered by country; `products` in the order of `products` above. */
  countries: CountryResult[];
}

interface ScoredOffering {
  id: string;
  name: string;
  satisfies: ReadonlySet<string>;
  scores: Scores;
}

interface ScoredProduct {
  published: ProductScore;
  offerings: ScoredOffering[]; // the default first
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Where scoring is: `done` of `total` in a stage; called often enough to show progress, no I/O here. */
export type ScoringProgress = (stage: "products" | "control sets", done: number, total: number) => void;

export function scoreMarket(
  market: MarketFile,
  geographies: readonly Geography[],
  progress: ScoringProgress = () => {},
): ScoredMarket {
  const dimensions = AXES.map((axis) => describeDimension(market, axis));
  const defaults = market.products.map(defaultOffering);
  const bounds = fieldOf(market.indicators, defaults);

  const scoreValues = (values: Record<string, IndicatorValue>): Scores => axisScores(market.indicators, values, bounds);

  const products: ScoredProduct[] = market.products
    .map((product, index) => {
      if (index % 100 === 0) progress("products", index, market.products.length);
      const base = defaults[index] as Offering;
      const scores = scoreValues(base.values);
      const offerings = [base, ...product.offerings.filter((o) => o !== base)].map((offering) => ({
        id: offering.id,
        name: offering.name,
        satisfies: new Set(offering.satisfies),
        scores: offering === base ? scores : scoreValues({ ...base.values, ...offering.values }),
      }));
      return {
        published: {
          productId: product.productId,
          name: product.name,
          vendor: product.vendor,
          scores,
          bands: bandsOf(dimensions, scores),
          gaps: market.indicators.filter((i) => isMissing(base.values[i.id])).map((i) => i.id),
        },
        offerings,
      };
    })
    .sort((a, b) => byText(a.published.name, b.published.name) || byText(a.published.productId, b.published.productId));

  progress("products", market.products.length, market.products.length);
  // Countries with the same control set share one computation.
  const bySet = new Map<string, ProductUnderControls[]>();
  const sets = new Set(geographies.map((g) => [...g.controls].sort(byText).join(","))).size;
  const countries = [...geographies]
    .sort((a, b) => byText(a.country, b.country))
    .map((geography): CountryResult => {
      const controls = [...geography.controls].sort(byText);
      const key = controls.join(",");
      let underControls = bySet.get(key);
      if (!underControls) {
        underControls = products.map((product) => engage(product, controls));
        bySet.set(key, underControls);
        progress("control sets", bySet.size, sets);
      }
      return { country: geography.country, controls, products: underControls };
    });

  return { dimensions, products: products.map((p) => p.published), countries };
}

/** The field's min–max bounds of each number indicator: over the default offerings' values. */
export function fieldOf(
  indicators: readonly Indicator[],
  defaults: readonly Offering[],
): ReadonlyMap<string, FieldBounds | undefined> {
  const bounds = new Map<string, FieldBounds | undefined>();
  for (const indicator of indicators)
    if (indicator.kind === "number")
      bounds.set(indicator.id, fieldBounds(defaults.map((offering) => offering.values[indicator.id] ?? null)));
  return bounds;
}

export function defaultOffering(product: MarketFile["products"][number]): Offering {
  const found = product.offerings.find((o) => o.default === true);
  if (!found) throw new Error(`product ${product.productId} has no default offering`); // the schema prevents this
  return found;
}

const isMissing = (value: IndicatorValue | undefined) => value === undefined || value === null;

/** axis score = 100 × Σ(weight × normalised) / Σ weight, unrounded (release comparisons attribute with it). */
export function exactAxisScores(
  indicators: readonly Indicator[],
  values: Record<string, IndicatorValue>,
  bounds: ReadonlyMap<string, FieldBounds | undefined>,
): Scores {
  const weighted = { innovation: 0, control: 0, scale: 0 };
  const weights = { innovation: 0, control: 0, scale: 0 };
  for (const indicator of indicators) {
    weighted[indicator.axis] += indicator.weight * normalize(indicator, values[indicator.id], bounds.get(indicator.id));
    weights[indicator.axis] += indicator.weight;
  }
  const score = (axis: Axis) => (weights[axis] === 0 ? 0 : (100 * weighted[axis]) / weights[axis]);
  return { innovation: score("innovation"), control: score("control"), scale: score("scale") };
}

/** The published axis scores: the exact ones to one decimal. */
function axisScores(
  indicators: readonly Indicator[],
  values: Record<string, IndicatorValue>,
  bounds: ReadonlyMap<string, FieldBounds | undefined>,
): Scores {
  const exact = exactAxisScores(indicators, values, bounds);
  return { innovation: round1(exact.innovation), control: round1(exact.control), scale: round1(exact.scale) };
}

/**
 * The engaged offering under controls R: one whose `satisfies` includes all of R; among several,
 * the highest Innovation, then Scale, then id. None → unavailable, nothing retained.
 */
function engage(product: ScoredProduct, controls: readonly string[]): ProductUnderControls {
  const off = product.published.scores;
  if (controls.length === 0) {
    const base = product.offerings[0] as ScoredOffering;
    return unavailableOr(product, { id: base.id, name: base.name }, off, []);
  }
  const candidates = product.offerings.filter((o) => controls.every((c) => o.satisfies.has(c)));
  candidates.sort(
    (a, b) => b.scores.innovation - a.scores.innovation || b.scores.scale - a.scores.scale || byText(a.id, b.id),
  );
  const engaged = candidates[0];
  if (engaged) return unavailableOr(product, { id: engaged.id, name: engaged.name }, engaged.scores, []);
  return unavailableOr(product, null, { innovation: 0, control: 0, scale: 0 }, missingControls(product, controls));
}

function unavailableOr(
  product: ScoredProduct,
  offering: { id: string; name: string } | null,
  on: Scores,
  missing: string[],
): ProductUnderControls {
  return {
    productId: product.published.productId,
    available: offering !== null,
    offering,
    missingControls: missing,
    on,
    distance: distanceBetween(product.published.scores, on),
  };
}

/**
 * The controls in R that no offering satisfies. When every control is satisfied by some offering
 * but no single offering satisfies them all, that set is empty, so we list instead what the
 * offering closest to compliance lacks (most of R satisfied, then id): never an empty list for an
 * unavailable product.
 */
function missingControls(product: ScoredProduct, controls: readonly string[]): string[] {
  const unsatisfied = controls.filter((c) => !product.offerings.some((o) => o.satisfies.has(c)));
  if (unsatisfied.length > 0) return unsatisfied;
  const coverage = (o: ScoredOffering) => controls.filter((c) => o.satisfies.has(c)).length;
  const closest = [...product.offerings].sort((a, b) => coverage(b) - coverage(a) || byText(a.id, b.id))[0];
  return controls.filter((c) => !closest?.satisfies.has(c));
}

/** on − off per axis from rounded scores, rounded again; magnitude is their Euclidean norm. */
export function distanceBetween(off: Scores, on: Scores): Distance {
  const innovation = round1(on.innovation - off.innovation);
  const control = round1(on.control - off.control);
  const scale = round1(on.scale - off.scale);
  return { innovation, control, scale, magnitude: round1(Math.hypot(innovation, control, scale)) };
}

function describeDimension(market: MarketFile, axis: Axis): Dimension {
  const dimension = market.dimensions[axis];
  const bands = dimension.bands.map((band, i) => ({
    name: band.name,
    from: band.from,
    to: dimension.bands[i + 1]?.from ?? 100,
  }));
  const indicators = market.indicators
    .filter((i) => i.axis === axis)
    .map((i): DimensionIndicator => {
      const base = { id: i.id, name: i.name, kind: i.kind, weight: i.weight };
      const extra = {
        description: i.description,
        source: i.source,
        ...(i.kind === "number" ? { direction: i.direction, unit: i.unit } : {}),
        ...(i.kind === "level" ? { levels: i.levels } : {}),
      };
      // Leave out what the file did not say rather than sending nulls.
      return { ...base, ...Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)) };
    });
  return { id: axis, name: dimension.name, description: dimension.description, bands, indicators };
}

/** The band a score falls in: [from, next.from), the last one [from, 100]. */
export function bandOf(bands: readonly Band[], score: number): string {
  let name = bands[0]?.name ?? "";
  for (const band of bands) if (score >= band.from) name = band.name;
  return name;
}

function bandsOf(dimensions: readonly Dimension[], scores: Scores): AxisBands {
  const [innovation, control, scale] = dimensions as [Dimension, Dimension, Dimension];
  return {
    innovation: bandOf(innovation.bands, scores.innovation),
    control: bandOf(control.bands, scores.control),
    scale: bandOf(scale.bands, scores.scale),
  };
}
