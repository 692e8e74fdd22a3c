/**
 * How sure is a rank: a Monte Carlo sensitivity analysis of one market release. Each draw perturbs
 * what the published scores take as given — the weights (Dirichlet around the published ones), the
 * missing values (drawn across the indicator's plausible range instead of scoring 0) and the values
 * whose evidence is not verified (a small multiplicative error, or a one-step move) — and scores the
 * market again exactly as engine.ts does: the same field bounds (kept fixed), the same
 * normalisation, the same formula, the same rounding, the same engagement of offerings.
 *
 * Pure and deterministic: no I/O, no clock, no Math.random. The draws come from a small PRNG seeded
 * by `options.seed`, so the same release and seed give bit-identical output; products are taken in
 * productId order, so neither does the output depend on the order of products in the file.
 *
 * Built for size (1,000 products × 50 indicators × 2,000 draws under 60 geographies in about a
 * second): the normalised values sit in one typed matrix computed once, a draw only rewrites the
 * cells it perturbs, scores are kept as integer tenths (exactly what round1 publishes), ranks are
 * counted rather than sorted, and nothing is allocated per draw.
 */
import { offeringEvidence } from "../1-domain/definition-checks";
import {
  AXES,
  type Axis,
  EVIDENCE_CONFIDENCE,
  type Geography,
  type Indicator,
  type IndicatorValue,
  type MarketFile,
  type Offering,
} from "../1-domain/market-definition";
import type { Band } from "../1-domain/scores";
import type {
  AxisSensitivity,
  ControlledSensitivity,
  EvidenceConfidence,
  MarketSensitivity,
  RankOdds,
  RankSensitivity,
} from "../1-domain/sensitivity";
import { bandOf, defaultOffering, exactAxisScores, fieldOf } from "./engine";
import { type FieldBounds, normalize } from "./normalize";
import { round1 } from "./round";

/** What the caller chooses; the seed should name the release (`${marketId}#${release}`) so reruns agree. */
export interface SensitivityOptions {
  seed: string;
  /** Number of Monte Carlo draws (default 2,000): enough for stable 5th/95th percentiles. */
  draws?: number;
  /**
   * Dirichlet concentration κ of the weights (default 100): larger means weights stay closer to the
   * published ones. `Infinity` keeps the published weights exactly (the limit), to isolate the
   * effect of missing values and evidence.
   */
  concentration?: number;
  /** Relative spread per evidence confidence, replacing the defaults for the levels named. */
  spread?: Partial<Record<EvidenceConfidence, number>>;
}

/** The methodology's defaults, exported so the methodology text can quote the numbers in use. */
export const SENSITIVITY_DEFAULTS: {
  draws: number;
  concentration: number;
  spread: Record<EvidenceConfidence, number>;
} = {
  draws: 2000,
  concentration: 100,
  // Verified values are taken as exact; a vendor's claim ±5 %; our own estimate ±15 %.
  spread: { verified: 0, "vendor-claimed": 0.05, estimated: 0.15 },
};

/** The places odds are given for: P(rank ≤ k). */
export const ODDS_PLACES = [1, 3, 5] as const;

/** The share of draws in which one product must be ahead of the next for them not to be tied. */
export const TIE_THRESHOLD = 0.95;

// ------------------------------------------------------------------------------------------ PRNG

/** cyrb128: a string to 128 bits of well-mixed state, so close seeds give unrelated streams. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** The random numbers a draw needs; exported for its own statistical tests. */
export interface Random {
  /** Uniform on the open interval (0, 1): never 0, so logarithms and 1/shape powers are safe. */
  uniform(): number;
  /** Standard normal (Marsaglia's polar method). */
  normal(): number;
  /** log of a Gamma(shape, 1) variate: kept in logs so tiny shapes do not underflow to 0. */
  logGamma(shape: number): number;
}

/** sfc32 seeded by cyrb128(seed): small, fast, and the same sequence on every platform. */
export function createRandom(seed: string): Random {
  // The state lives in a typed array: in closure variables, 32-bit integers beyond V8's small-integer
  // range would be boxed on every step, and a run takes millions of steps.
  const state = Int32Array.from(cyrb128(seed));
  const next = () => {
    const a = state[0] as number;
    const b = state[1] as number;
    const c = state[2] as number;
    const d = state[3] as number;
    const t = (((a + b) | 0) + d) | 0;
    state[3] = (d + 1) | 0;
    state[0] = b ^ (b >>> 9);
    state[1] = (c + (c << 3)) | 0;
    state[2] = (((c << 21) | (c >>> 11)) + t) | 0;
    return ((t >>> 0) + 0.5) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next(); // the first outputs still echo the seed's bits
  const normal = () => {
    for (;;) {
      const u = 2 * next() - 1;
      const v = 2 * next() - 1;
      const s = u * u + v * v;
      if (s > 0 && s < 1) return u * Math.sqrt((-2 * Math.log(s)) / s);
    }
  };
  // Marsaglia–Tsang for shape ≥ 1; below 1, Gamma(a) = Gamma(a + 1) · U^(1/a), the usual boost.
  const logGamma = (shape: number): number => {
    if (shape < 1) return logGamma(shape + 1) + Math.log(next()) / shape;
    const dd = shape - 1 / 3;
    const cc = 1 / Math.sqrt(9 * dd);
    for (;;) {
      const x = normal();
      let v = 1 + cc * x;
      if (v <= 0) continue;
      v = v * v * v;
      const u = next();
      const x2 = x * x;
      if (u < 1 - 0.0331 * x2 * x2 || Math.log(u) < 0.5 * x2 + dd * (1 - v + Math.log(v)))
        return Math.log(dd) + Math.log(v);
    }
  };
  return { uniform: next, normal, logGamma };
}

// ------------------------------------------------------------------------------------------ model

/**
 * How a perturbed value is drawn. Kept as numbers in typed arrays rather than closures: a draw runs
 * thousands of them, and a switch over data keeps that loop monomorphic and free of allocation.
 */
const MISSING_ANYWHERE = 0; // a number nobody demonstrates: no scale, normalised uniform on [0, 1]
const NUMBER_LINE = 1; // a number uniform on an interval, normalised: clamp01(a + b·u), u uniform on (0, 1)
const NUMBER_STEP = 2; // the same against a one-value field (a step, not a line): normalize(a + (b − a)·u)
const MISSING_BOOLEAN = 3; // true with probability 1/2
const MISSING_LEVEL = 4; // c: the top level's index; each level equally likely
const VARIED_BOOLEAN = 5; // a: the value (0 or 1), b: the spread; flips with probability spread
const VARIED_LEVEL = 6; // a: the level's index, b: the spread, c: the top index; ±1 with probability spread

/** The perturbed values: source s draws a value of column[s] and writes it to values[cell[s]]. */
interface Sources {
  kind: Uint8Array;
  column: Int32Array;
  a: Float64Array;
  b: Float64Array;
  c: Float64Array;
  cell: Int32Array;
}

interface SourceSpec {
  kind: number;
  a?: number;
  b?: number;
  c?: number;
}

/** A distinct control set: who is available under it and which offerings may be engaged. */
interface ControlSet {
  /** Product indices (productId order) with at least one candidate. */
  available: Int32Array;
  /** Candidates of available[i] are the rows offerings[starts[i] .. starts[i + 1]). */
  starts: Int32Array;
  offerings: Int32Array;
}

/**
 * Everything fixed across draws. `values` is the one thing a draw writes into (its perturbed cells).
 *
 * Rows are the offerings scored: 0..P−1 the products' default offerings, then the sovereign ones
 * some control set can engage. Only the defaults have a full row of values: a sovereign offering
 * inherits most of them, so it is scored as its product's default plus what its own values change,
 * on Innovation only: engagement picks the highest Innovation (Scale and id decide only between
 * equal Innovation), so the Innovation a product retains is its candidates' highest, whichever of
 * them is engaged. An inherited missing value is the same draw for the default and the offering,
 * as it is the same unknown.
 */
interface Model {
  productIds: string[];
  /** Their names (productId order): the published order breaks ties by name, then id. */
  productNames: string[];
  /** Indicators grouped by axis, market order within an axis (so sums run in the engine's order). */
  columns: Indicator[];
  bounds: (FieldBounds | undefined)[];
  /** Axis a spans columns [axisStart[a], axisStart[a + 1]). */
  axisStart: Int32Array;
  weights: Float64Array;
  rows: number;
  /**
   * Normalised values: the defaults' matrix column-major (column × P + product: a score sums down
   * long, tight loops), then the sovereign offerings' own values.
   */
  values: Float64Array;
  /** What the sovereign rows change on Innovation. */
  sovereign: Overrides;
  sources: Sources;
  /** The published scores of every row, in tenths: engine.ts's own arithmetic. */
  published: Tenths;
  /** sets[0] is always the empty set: the Capability Index is the ranking under no controls. */
  sets: ControlSet[];
  setOfCountry: Map<string, number>;
  bandNames: string[][];
  /** Per axis, the band index of every score in tenths 0..1000 (engine's bandOf, looked up). */
  bandOfTenths: Uint16Array[];
}

/**
 * The sovereign rows' Innovation: row[i] (of product[i]) is its default's sum plus, for each e in
 * start[i] .. start[i + 1), weight[column[e]] × (values[own[e]] − values[base[e]]).
 */
interface Overrides {
  row: Int32Array;
  product: Int32Array;
  start: Int32Array;
  column: Int32Array;
  own: Int32Array;
  base: Int32Array;
}

type SpreadTable = Record<EvidenceConfidence, number>;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const setKey = (controls: readonly string[]) => [...controls].sort(byText).join(",");

function buildModel(market: MarketFile, geographies: readonly Geography[], spread: SpreadTable): Model {
  const products = [...market.products].sort((a, b) => byText(a.productId, b.productId));
  const defaults = products.map(defaultOffering);
  const field = fieldOf(market.indicators, defaults);
  const columns = AXES.flatMap((axis) => market.indicators.filter((i) => i.axis === axis));
  const bounds = columns.map((i) => field.get(i.id));
  const axisStart = Int32Array.from([0, 1, 2, 3], (a) => columns.filter((i) => AXES.indexOf(i.axis) < a).length);
  const { sets, setOfCountry, rows } = controlSets(products, defaults, geographies);
  const { values, sovereign, sources } = matrix(columns, bounds, defaults, rows, spread);
  return {
    productIds: products.map((p) => p.productId),
    productNames: products.map((p) => p.name),
    columns,
    bounds,
    axisStart,
    weights: Float64Array.from(columns, (i) => i.weight),
    rows: rows.size,
    values,
    sovereign,
    sources,
    published: publishedTenths(market, defaults, rows, field),
    sets,
    setOfCountry,
    bandNames: AXES.map((axis) => market.dimensions[axis].bands.map((band) => band.name)),
    bandOfTenths: AXES.map((axis) => bandLookup(market.dimensions[axis].bands)),
  };
}

/** The published scores of every row, by the engine itself: what the intervals must contain. */
function publishedTenths(
  market: MarketFile,
  defaults: Offering[],
  rows: Map<Offering, [product: number, row: number]>,
  field: ReturnType<typeof fieldOf>,
): Tenths {
  const tenths: Tenths = [new Uint16Array(rows.size), new Uint16Array(rows.size), new Uint16Array(rows.size)];
  for (const [offering, [product, row]] of rows) {
    const base = defaults[product] as Offering;
    const values = offering === base ? base.values : { ...base.values, ...offering.values };
    const exact = exactAxisScores(market.indicators, values, field);
    AXES.forEach((axis, a) => {
      (tenths[a] as Uint16Array)[row] = Math.round(round1(exact[axis]) * 10);
    });
  }
  return tenths;
}

/**
 * The distinct control sets (the empty one first) with their candidates, which do not depend on the
 * draw, and the matrix row of every offering that can be engaged: defaults take rows 0..P−1, the
 * sovereign ones follow in product order (so a draw reads their products' values in order too).
 */
function controlSets(products: MarketFile["products"], defaults: Offering[], geographies: readonly Geography[]) {
  const keys = [...new Set(["", ...geographies.map((g) => setKey(g.controls))])].sort(byText);
  const candidatesOf = keys.map((key) => {
    const controls = key === "" ? [] : key.split(",");
    return products.map((product, p) =>
      controls.length === 0
        ? [defaults[p] as Offering]
        : product.offerings.filter((o) => controls.every((c) => (o.satisfies ?? []).includes(c))),
    );
  });
  const engageable = new Set(candidatesOf.flat(2));
  const rows = new Map<Offering, [product: number, row: number]>(defaults.map((o, p) => [o, [p, p]]));
  products.forEach((product, p) => {
    for (const offering of product.offerings)
      if (engageable.has(offering) && !rows.has(offering)) rows.set(offering, [p, rows.size]);
  });
  const rowOf = (offering: Offering) => (rows.get(offering) as [number, number])[1];
  const sets = candidatesOf.map((byProduct): ControlSet => {
    const available = byProduct.flatMap((candidates, p) => (candidates.length > 0 ? [p] : []));
    const lists = available.map((p) => byProduct[p] as Offering[]);
    return {
      available: Int32Array.from(available),
      starts: offsets(lists),
      offerings: Int32Array.from(lists.flat(), rowOf),
    };
  });
  const setOfCountry = new Map(geographies.map((g) => [g.country.toUpperCase(), keys.indexOf(setKey(g.controls))]));
  return { sets, setOfCountry, rows };
}

/**
 * The normalised values (a sovereign offering's effective values are the default's overwritten by
 * its own, as in the engine) and the perturbed ones, each written where the model keeps it.
 */
function matrix(
  columns: Indicator[],
  bounds: (FieldBounds | undefined)[],
  defaults: Offering[],
  rows: Map<Offering, [product: number, row: number]>,
  spread: SpreadTable,
) {
  const P = defaults.length;
  const K = columns.length;
  const sovereign = [...rows].filter(([, [, row]]) => row >= P).sort((x, y) => x[1][1] - y[1][1]);
  // Each sovereign row's own Innovation values, after the defaults' matrix.
  const owned = sovereign.map(([offering]) =>
    columns.flatMap((indicator, c) =>
      indicator.axis === "innovation" && Object.hasOwn(offering.values ?? {}, indicator.id) ? [c] : [],
    ),
  );
  const ownStart = offsets(owned);
  const values = new Float64Array(P * K + (ownStart[owned.length] as number));
  const specs: SourceSpec[] = [];
  const column: number[] = [];
  const cells: number[] = [];
  const add = (spec: SourceSpec | null, c: number, cell: number) => {
    if (!spec) return;
    specs.push(spec);
    column.push(c);
    cells.push(cell);
  };
  defaults.forEach((base, p) => {
    columns.forEach((indicator, c) => {
      values[c * P + p] = normalize(indicator, base.values[indicator.id], bounds[c]);
      add(perturbation(indicator, base, bounds[c], spread), c, c * P + p);
    });
  });
  sovereign.forEach(([offering], k) => {
    (owned[k] as number[]).forEach((c, i) => {
      const cell = P * K + (ownStart[k] as number) + i;
      const indicator = columns[c] as Indicator;
      values[cell] = normalize(indicator, offering.values[indicator.id], bounds[c]);
      add(perturbation(indicator, offering, bounds[c], spread), c, cell);
    });
  });
  const innovation = sovereign.map(([, [product]], k) =>
    (owned[k] as number[]).map((c, i) => ({ c, own: P * K + (ownStart[k] as number) + i, base: c * P + product })),
  );
  const overrides: Overrides = {
    row: Int32Array.from(sovereign, ([, [, row]]) => row),
    product: Int32Array.from(sovereign, ([, [product]]) => product),
    start: offsets(innovation),
    column: Int32Array.from(innovation.flat(), (e) => e.c),
    own: Int32Array.from(innovation.flat(), (e) => e.own),
    base: Int32Array.from(innovation.flat(), (e) => e.base),
  };
  const sources: Sources = {
    kind: Uint8Array.from(specs, (spec) => spec.kind),
    column: Int32Array.from(column),
    a: Float64Array.from(specs, (spec) => spec.a ?? 0),
    b: Float64Array.from(specs, (spec) => spec.b ?? 0),
    c: Float64Array.from(specs, (spec) => spec.c ?? 0),
    cell: Int32Array.from(cells),
  };
  return { values, sovereign: overrides, sources };
}

/** Where each list starts in the lists laid end to end, and where the last one ends. */
function offsets(lists: readonly unknown[][]): Int32Array {
  const starts = new Int32Array(lists.length + 1);
  lists.forEach((list, i) => {
    starts[i + 1] = (starts[i] as number) + list.length;
  });
  return starts;
}

/** bandOf for every one-decimal score, as a table: a draw looks its band up instead of scanning. */
function bandLookup(bands: readonly { name: string; from: number }[]): Uint16Array {
  const full: Band[] = bands.map((band, i) => ({ ...band, to: bands[i + 1]?.from ?? 100 }));
  const names = bands.map((band) => band.name);
  return Uint16Array.from({ length: 1001 }, (_, tenths) => names.indexOf(bandOf(full, tenths / 10)));
}

// ------------------------------------------------------------------------------------------ perturbations

/**
 * How one offering's value of one indicator varies, or null when it does not: a missing value is
 * drawn across its range; a present value moves only when its evidence carries a confidence with a
 * spread above 0 (verified, by default, does not move); a value without evidence stays put.
 */
function perturbation(
  indicator: Indicator,
  offering: Offering,
  bounds: FieldBounds | undefined,
  spread: SpreadTable,
): SourceSpec | null {
  const value = offering.values[indicator.id];
  if (value === undefined || value === null) return missingDraw(indicator, bounds);
  const confidence = offeringEvidence(offering)[indicator.id]?.confidence;
  const width = confidence ? spread[confidence] : 0;
  return width > 0 ? variedDraw(indicator, value, bounds, width) : null;
}

/** A missing value, drawn across what it could plausibly be rather than scored 0. */
function missingDraw(indicator: Indicator, bounds: FieldBounds | undefined): SourceSpec {
  switch (indicator.kind) {
    case "boolean":
      return { kind: MISSING_BOOLEAN };
    case "level":
      return { kind: MISSING_LEVEL, c: indicator.levels.length - 1 };
    case "number": {
      if (!bounds) return { kind: MISSING_ANYWHERE };
      const [low, high] = indicator.range ?? [bounds.min, bounds.max];
      return uniformNumber(indicator, low, high, bounds);
    }
  }
}

/** A present value whose evidence is not verified: ±spread relative for numbers, one step otherwise. */
function variedDraw(
  indicator: Indicator,
  value: Exclude<IndicatorValue, null>,
  bounds: FieldBounds | undefined,
  spread: number,
): SourceSpec | null {
  switch (indicator.kind) {
    case "boolean":
      return { kind: VARIED_BOOLEAN, a: value === true ? 1 : 0, b: spread };
    case "level": {
      const index = indicator.levels.indexOf(value as string);
      // Not a level of the indicator: it scores 0 whatever the draw.
      return index < 0 ? null : { kind: VARIED_LEVEL, a: index, b: spread, c: indicator.levels.length - 1 };
    }
    case "number":
      // Without bounds a number normalises to 0 whatever it is: nothing to vary.
      if (typeof value !== "number" || !bounds) return null;
      return uniformNumber(indicator, value * (1 - spread), value * (1 + spread), bounds);
  }
}

/**
 * A number uniform on [low, high], normalised against the field. Min–max scaling is affine, so the
 * normalised draw is clamp01(at + slope × u), u uniform on (0, 1): what normalize() gives for the
 * drawn number (the tests check the distribution), without a call per draw. A one-value field
 * (max = min) normalises by a step, not a line; those keep calling normalize().
 */
function uniformNumber(
  indicator: Extract<Indicator, { kind: "number" }>,
  low: number,
  high: number,
  bounds: FieldBounds,
): SourceSpec {
  const span = bounds.max - bounds.min;
  if (span === 0) return { kind: NUMBER_STEP, a: low, b: high };
  const position = (low - bounds.min) / span;
  const slope = (high - low) / span;
  return indicator.direction === "higher"
    ? { kind: NUMBER_LINE, a: position, b: slope }
    : { kind: NUMBER_LINE, a: 1 - position, b: -slope };
}

// ------------------------------------------------------------------------------------------ one draw

/** Scores of one draw as integer tenths (round1 × 10), per axis, per matrix row. */
type Tenths = [Uint16Array, Uint16Array, Uint16Array];

/** Per axis, Gamma(κ·wᵢ/Σw) variates: the Dirichlet, unnormalised (the score divides by their sum). */
function drawWeights(model: Model, concentration: number, random: Random, out: Float64Array) {
  const { weights, axisStart } = model;
  if (concentration === Number.POSITIVE_INFINITY) {
    out.set(weights);
    return;
  }
  for (let a = 0; a < 3; a++) {
    const from = axisStart[a] as number;
    const to = axisStart[a + 1] as number;
    let total = 0;
    for (let c = from; c < to; c++) total += weights[c] as number;
    let top = Number.NEGATIVE_INFINITY;
    for (let c = from; c < to; c++) {
      const logged = random.logGamma((concentration * (weights[c] as number)) / total);
      out[c] = logged;
      if (logged > top) top = logged;
    }
    // Scaled by the largest, so the axis's weights never all underflow to 0.
    for (let c = from; c < to; c++) out[c] = Math.exp((out[c] as number) - top);
  }
}

/** One draw of every perturbed value, written into the matrix cells that carry it. */
function drawValues(model: Model, random: Random) {
  const { values, columns, bounds } = model;
  const { kind, column, a, b, c, cell } = model.sources;
  for (let s = 0; s < kind.length; s++) {
    let normalised = 0;
    switch (kind[s]) {
      case MISSING_ANYWHERE:
        normalised = random.uniform();
        break;
      case NUMBER_LINE:
        normalised = Math.min(1, Math.max(0, (a[s] as number) + (b[s] as number) * random.uniform()));
        break;
      case NUMBER_STEP: {
        const low = a[s] as number;
        const drawn = low + ((b[s] as number) - low) * random.uniform();
        normalised = normalize(columns[column[s] as number] as Indicator, drawn, bounds[column[s] as number]);
        break;
      }
      case MISSING_BOOLEAN:
        normalised = random.uniform() < 0.5 ? 1 : 0;
        break;
      case MISSING_LEVEL: {
        const top = c[s] as number;
        normalised = Math.min(top, Math.floor(random.uniform() * (top + 1))) / top;
        break;
      }
      case VARIED_BOOLEAN: {
        const kept = a[s] as number;
        normalised = random.uniform() < (b[s] as number) ? 1 - kept : kept;
        break;
      }
      case VARIED_LEVEL: {
        const top = c[s] as number;
        let index = a[s] as number;
        if (random.uniform() < (b[s] as number))
          index = Math.min(top, Math.max(0, index + (random.uniform() < 0.5 ? -1 : 1)));
        normalised = index / top;
        break;
      }
    }
    values[cell[s] as number] = normalised;
  }
}

/**
 * engine.ts's exactAxisScores then round1, on every row: 100 × Σ(w·n) / Σw. Default rows sum in the
 * engine's order (column by column from 0), so with the published weights and values they give the
 * published score to the bit; a sovereign row adds what its own values change to its default's sum,
 * on Innovation only (all that the Innovation a product retains depends on).
 */
function scoreRows(model: Model, weights: Float64Array, work: Workspace) {
  const { values, axisStart } = model;
  const { sums, tenths } = work;
  const P = model.productIds.length;
  for (let a = 0; a < 3; a++) {
    const from = axisStart[a] as number;
    const to = axisStart[a + 1] as number;
    let total = 0;
    for (let c = from; c < to; c++) total += weights[c] as number;
    weightedSums(values, weights, from, to, P, sums);
    const scores = tenths[a] as Uint16Array;
    for (let p = 0; p < P; p++) scores[p] = tenthsOf(sums[p] as number, total);
    if (a === 0) scoreOverrides(model.sovereign, values, weights, sums, total, scores);
  }
}

/** The sovereign rows' Innovation: their default's sum plus what their own values change. */
function scoreOverrides(
  overrides: Overrides,
  values: Float64Array,
  weights: Float64Array,
  sums: Float64Array,
  total: number,
  scores: Uint16Array,
) {
  const { row, product, start, column, own, base } = overrides;
  for (let i = 0; i < row.length; i++) {
    let sum = sums[product[i] as number] as number;
    for (let e = start[i] as number; e < (start[i + 1] as number); e++)
      sum +=
        (weights[column[e] as number] as number) *
        ((values[own[e] as number] as number) - (values[base[e] as number] as number));
    scores[row[i] as number] = tenthsOf(sum, total);
  }
}

/**
 * sums[p] = Σ weights[c] × values[c × P + p] over columns [from, to), added one column after the
 * other from 0 (the engine's order, so the same bits). Four columns per pass over the products:
 * the sum stays in a register instead of going to memory after every column, twice as fast.
 */
function weightedSums(
  values: Float64Array,
  weights: Float64Array,
  from: number,
  to: number,
  P: number,
  sums: Float64Array,
) {
  sums.fill(0);
  let c = from;
  for (; c + 4 <= to; c += 4) {
    const w0 = weights[c] as number;
    const w1 = weights[c + 1] as number;
    const w2 = weights[c + 2] as number;
    const w3 = weights[c + 3] as number;
    const c0 = c * P;
    const c1 = c0 + P;
    const c2 = c1 + P;
    const c3 = c2 + P;
    for (let p = 0; p < P; p++) {
      let sum = sums[p] as number;
      sum += w0 * (values[c0 + p] as number);
      sum += w1 * (values[c1 + p] as number);
      sum += w2 * (values[c2 + p] as number);
      sum += w3 * (values[c3 + p] as number);
      sums[p] = sum;
    }
  }
  for (; c < to; c++) {
    const weight = weights[c] as number;
    const column = c * P;
    for (let p = 0; p < P; p++) sums[p] = (sums[p] as number) + weight * (values[column + p] as number);
  }
}

/** round1(100 × weighted / total) × 10, by round1's own arithmetic: the published score in tenths. */
function tenthsOf(weighted: number, total: number): number {
  const exact = total === 0 ? 0 : (100 * weighted) / total;
  return Math.round(exact * 10 + 1e-7);
}

/**
 * Competition ranks (1, 2, 2, 4) by retained Innovation under one control set: the engaged offering
 * is the candidate with the highest Innovation (then Scale, then id, which only choose between
 * equal Innovation), so a product retains its candidates' highest Innovation. Rank = 1 + the
 * number retaining strictly more.
 * Writes the rank of available[i] at out[offset + i]; returns the rank of a product that retains 0,
 * which is every unavailable one's.
 */
function rankUnder(
  set: ControlSet,
  tenths: Tenths,
  work: Workspace,
  s: number,
  out: Int32Array,
  offset: number,
): number {
  const innovation = tenths[0];
  const retained = work.retained[s] as Uint16Array;
  const { starts, offerings } = set;
  const n = retained.length;
  let positive = 0;
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let k = starts[i] as number; k < (starts[i + 1] as number); k++) {
      const score = innovation[offerings[k] as number] as number;
      if (score > best) best = score;
    }
    retained[i] = best;
    if (best > 0) positive++;
  }
  const rankOf = ranksByCounting(retained, work.rankOfTenths, work);
  for (let i = 0; i < n; i++) out[offset + i] = rankOf[retained[i] as number] as number;
  return 1 + positive;
}

/**
 * The rank of every retained value, indexed by tenths: a count per value over their range, then, in
 * place from the top, 1 + how many are above. Counting beats sorting here, even for a few dozen
 * products: the values are small integers and there are at most 1,001 of them.
 */
function ranksByCounting(retained: Uint16Array, rankOf: Int32Array, work?: Workspace): Int32Array {
  const n = retained.length;
  let low = 1000;
  let high = 0;
  for (let i = 0; i < n; i++) {
    const value = retained[i] as number;
    if (value < low) low = value;
    if (value > high) high = value;
  }
  if (work) work.lowestTenths = low;
  rankOf.fill(0, low, high + 1);
  for (let i = 0; i < n; i++) rankOf[retained[i] as number] = (rankOf[retained[i] as number] as number) + 1;
  let above = 0;
  for (let value = high; value >= low; value--) {
    const count = rankOf[value] as number;
    rankOf[value] = 1 + above;
    above += count;
  }
  return rankOf;
}

// ------------------------------------------------------------------------------------------ the run

/**
 * Per-item series of draws (item i's draws contiguous, ready for percentiles), filled a draw at a
 * time. A draw writes every item, which item-major would touch one cache line per item per draw,
 * so draws land first in a small draw-major block that is transposed every BLOCK draws.
 */
interface Series<T extends Uint16Array | Int32Array> {
  width: number;
  store: T;
  block: T;
}

const BLOCK = 32;

function series<T extends Uint16Array | Int32Array>(make: (length: number) => T, width: number, draws: number) {
  return { width, store: make(width * draws), block: make(width * BLOCK) } satisfies Series<T>;
}

function flush(series: Series<Uint16Array | Int32Array>, first: number, count: number, draws: number) {
  const { width, store, block } = series;
  for (let i = 0; i < width; i++) {
    const at = i * draws + first;
    for (let b = 0; b < count; b++) store[at + b] = block[b * width + i] as number;
  }
}

/** The published scores (the engine's) and the ranks they give. */
interface Published {
  tenths: Tenths;
  ranks: Int32Array[];
  /** Per set, what each available product retains with the published scores, in tenths. */
  retained: Uint16Array[];
  zeroRanks: number[];
}

/** What the draws leave behind. */
interface Recorded {
  /** Per axis, every product's scores in tenths. */
  scores: Series<Uint16Array>[];
  /** Per set, every available product's rank. */
  ranks: Series<Int32Array>[];
  /** Per set, the Innovation every available product retains, in tenths. */
  retained: Series<Uint16Array>[];
  /** Per set, per draw: the rank of a product retaining 0. */
  zeroRanks: Int32Array[];
  /** Per set: each available product's places credited, summed over draws (top 1, 3, 5; 3 per product). */
  places: Float64Array[];
  /** Per set: for each product in the published order but the last, the draws it retained more than the next (ties half). */
  ahead: Float64Array[];
}

function settle(options: SensitivityOptions) {
  const draws = options.draws ?? SENSITIVITY_DEFAULTS.draws;
  const concentration = options.concentration ?? SENSITIVITY_DEFAULTS.concentration;
  const spread = { ...SENSITIVITY_DEFAULTS.spread };
  for (const confidence of EVIDENCE_CONFIDENCE) {
    const width = options.spread?.[confidence];
    if (width !== undefined) spread[confidence] = width;
  }
  if (!Number.isInteger(draws) || draws < 1) throw new RangeError(`draws must be a whole number ≥ 1, not ${draws}`);
  if (!(concentration > 0)) throw new RangeError(`concentration must be > 0, not ${concentration}`);
  for (const [confidence, width] of Object.entries(spread))
    if (!(width >= 0 && width <= 1)) throw new RangeError(`spread of ${confidence} must be in [0, 1], not ${width}`);
  return { seed: options.seed, draws, concentration, spread };
}

export function analyseSensitivity(
  market: MarketFile,
  geographies: readonly Geography[],
  options: SensitivityOptions,
): MarketSensitivity {
  const settings = settle(options);
  const model = buildModel(market, geographies, settings.spread);
  const work = workspace(model);
  const published = publishedOf(model, work);
  const orders = publishedOrders(model, published);
  const recorded = runDraws(model, work, settings, orders);
  return summarise(model, settings, published, recorded, orders);
}

/** Buffers every draw reuses, allocated once. */
interface Workspace {
  /** Per product, the weighted sum of the axis being scored. */
  sums: Float64Array;
  tenths: Tenths;
  /** Per set, what each available product retains. */
  retained: Uint16Array[];
  /** Per score in tenths, the rank it gets. */
  rankOfTenths: Int32Array;
  /** The lowest value the last ranking saw: below it `rankOfTenths` is stale. */
  lowestTenths: number;
}

function workspace(model: Model): Workspace {
  return {
    sums: new Float64Array(model.productIds.length),
    tenths: [new Uint16Array(model.rows), new Uint16Array(model.rows), new Uint16Array(model.rows)],
    retained: model.sets.map((set) => new Uint16Array(set.available.length)),
    rankOfTenths: new Int32Array(1001),
    lowestTenths: 0,
  };
}

function publishedOf(model: Model, work: Workspace): Published {
  const ranks = model.sets.map((set) => new Int32Array(set.available.length));
  const retained: Uint16Array[] = [];
  const zeroRanks = model.sets.map((set, s) => {
    const zero = rankUnder(set, model.published, work, s, ranks[s] as Int32Array, 0);
    retained.push(Uint16Array.from(work.retained[s] as Uint16Array));
    return zero;
  });
  return { tenths: model.published, ranks, retained, zeroRanks };
}

/**
 * Each set's available products in the published order: by retained Innovation, then name, then id
 * (as the readings rank them); indices into `available`.
 */
function publishedOrders(model: Model, published: Published): Int32Array[] {
  return model.sets.map((set, s) => {
    const retained = published.retained[s] as Uint16Array;
    const order = Array.from(set.available, (_, i) => i);
    const name = (i: number) => model.productNames[set.available[i] as number] as string;
    const id = (i: number) => model.productIds[set.available[i] as number] as string;
    order.sort(
      (a, b) => (retained[b] as number) - (retained[a] as number) || byText(name(a), name(b)) || byText(id(a), id(b)),
    );
    return Int32Array.from(order);
  });
}

/**
 * One draw's places under one set: a product whose value v is shared by c products, ranked a
 * (1 + how many retain more), spans places a … a + c − 1 and is credited, for each k, the share of
 * them within the top k. Then, along the published order, who retains more than the next.
 */
function creditPlaces(
  retained: Uint16Array,
  rankOf: Int32Array,
  low: number,
  order: Int32Array,
  places: Float64Array,
  ahead: Float64Array,
) {
  const n = retained.length;
  const deepest = ODDS_PLACES[ODDS_PLACES.length - 1] as number;
  for (let i = 0; i < n; i++) {
    const value = retained[i] as number;
    const first = rankOf[value] as number;
    if (first > deepest) continue; // beyond every place counted: no credit to give
    // How many share the value: ranks run down by counting, so the next lower value's rank says it.
    const count = (value > low ? (rankOf[value - 1] as number) : n + 1) - first;
    for (let j = 0; j < ODDS_PLACES.length; j++) {
      const k = ODDS_PLACES[j] as number;
      const within = first > k ? 0 : first + count - 1 <= k ? 1 : (k - first + 1) / count;
      places[i * 3 + j] = (places[i * 3 + j] as number) + within;
    }
  }
  for (let j = 0; j + 1 < order.length; j++) {
    const here = retained[order[j] as number] as number;
    const next = retained[order[j + 1] as number] as number;
    if (here >= next) ahead[j] = (ahead[j] as number) + (here > next ? 1 : 0.5);
  }
}

function runDraws(model: Model, work: Workspace, settings: ReturnType<typeof settle>, orders: Int32Array[]): Recorded {
  const { draws } = settings;
  const products = model.productIds.length;
  const { tenths } = work;
  const recorded: Recorded = {
    scores: AXES.map(() => series((n) => new Uint16Array(n), products, draws)),
    ranks: model.sets.map((set) => series((n) => new Int32Array(n), set.available.length, draws)),
    retained: model.sets.map((set) => series((n) => new Uint16Array(n), set.available.length, draws)),
    zeroRanks: model.sets.map(() => new Int32Array(draws)),
    places: model.sets.map((set) => new Float64Array(set.available.length * 3)),
    ahead: model.sets.map((set) => new Float64Array(Math.max(0, set.available.length - 1))),
  };
  const weights = new Float64Array(model.columns.length);
  const random = createRandom(settings.seed);
  for (let d = 0; d < draws; d++) {
    drawWeights(model, settings.concentration, random, weights);
    drawValues(model, random);
    scoreRows(model, weights, work);
    const b = d % BLOCK;
    for (let a = 0; a < 3; a++) {
      const from = tenths[a] as Uint16Array;
      const block = (recorded.scores[a] as Series<Uint16Array>).block;
      for (let p = 0; p < products; p++) block[b * products + p] = from[p] as number;
    }
    for (let s = 0; s < model.sets.length; s++) {
      const ranks = recorded.ranks[s] as Series<Int32Array>;
      const zero = rankUnder(model.sets[s] as ControlSet, tenths, work, s, ranks.block, b * ranks.width);
      (recorded.zeroRanks[s] as Int32Array)[d] = zero;
      (recorded.retained[s] as Series<Uint16Array>).block.set(work.retained[s] as Uint16Array, b * ranks.width);
      creditPlaces(
        work.retained[s] as Uint16Array,
        work.rankOfTenths,
        work.lowestTenths,
        orders[s] as Int32Array,
        recorded.places[s] as Float64Array,
        recorded.ahead[s] as Float64Array,
      );
    }
    if (b < BLOCK - 1 && d < draws - 1) continue;
    for (const each of recorded.scores) flush(each, d - b, b + 1, draws);
    for (const each of recorded.ranks) flush(each, d - b, b + 1, draws);
    for (const each of recorded.retained) flush(each, d - b, b + 1, draws);
  }
  return recorded;
}

// ------------------------------------------------------------------------------------------ summaries

/**
 * The 5th and 95th percentiles (nearest rank: the ⌈q·N⌉-th smallest) of small non-negative integers,
 * by counting over their range, or by sorting when the range is wide for the count.
 */
function percentiles(values: Uint16Array | Int32Array, counts: Int32Array): [number, number] {
  const n = values.length;
  const low = Math.max(0, Math.ceil((n * 5) / 100) - 1);
  const high = Math.max(0, Math.ceil((n * 95) / 100) - 1);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const value = values[i] as number;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  if (max - min >= counts.length || max - min > 4 * n) {
    const sorted = Int32Array.from(values).sort();
    return [sorted[low] as number, sorted[high] as number];
  }
  counts.fill(0, 0, max - min + 1);
  for (let i = 0; i < n; i++) {
    const bin = (values[i] as number) - min;
    counts[bin] = (counts[bin] as number) + 1;
  }
  let seen = 0;
  let lowValue = min;
  for (let bin = 0; bin <= max - min; bin++) {
    const before = seen;
    seen += counts[bin] as number;
    if (before <= low && low < seen) lowValue = min + bin;
    if (before <= high && high < seen) return [lowValue, min + bin];
  }
  return [lowValue, max];
}

/**
 * The shares, in thousandths, each rounded so that the column adds up to exactly `total` thousandths
 * (largest remainder: the thousandths rounding leaves over go to the shares rounding cut most).
 */
function sharesAddingUp(exact: readonly number[], total: number): number[] {
  const scaled = exact.map((value) => value * 1000);
  const rounded = scaled.map((value) => Math.floor(value + 1e-9));
  const left = total * 1000 - rounded.reduce((sum, value) => sum + value, 0);
  const byRemainder = scaled
    .map((value, i) => ({ i, remainder: value - (rounded[i] as number) }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (let t = 0; t < left && t < byRemainder.length; t++) {
    const i = (byRemainder[t] as { i: number }).i;
    rounded[i] = (rounded[i] as number) + 1;
  }
  return rounded.map((value) => value / 1000);
}

/** The odds of every product under one set (zeros and no group for the unavailable). */
function oddsUnder(
  model: Model,
  s: number,
  draws: number,
  recorded: Recorded,
  order: Int32Array,
): Record<string, RankOdds> {
  const set = model.sets[s] as ControlSet;
  const n = set.available.length;
  const places = recorded.places[s] as Float64Array;
  const columns = ODDS_PLACES.map((k, j) =>
    sharesAddingUp(
      Array.from({ length: n }, (_, i) => (places[i * 3 + j] as number) / draws),
      Math.min(k, n),
    ),
  );
  const group = new Int32Array(n);
  const ahead = recorded.ahead[s] as Float64Array;
  let current = 1;
  order.forEach((i, j) => {
    if (j > 0 && (ahead[j - 1] as number) / draws >= TIE_THRESHOLD) current += 1;
    group[i] = current;
  });
  const byProduct: RankOdds[] = model.productIds.map(() => ({ top1: 0, top3: 0, top5: 0, tieGroup: null }));
  for (let i = 0; i < n; i++)
    byProduct[set.available[i] as number] = {
      top1: columns[0]?.[i] as number,
      top3: columns[1]?.[i] as number,
      top5: columns[2]?.[i] as number,
      tieGroup: group[i] as number,
    };
  return Object.fromEntries(model.productIds.map((id, p) => [id, byProduct[p] as RankOdds]));
}

function summarise(
  model: Model,
  settings: ReturnType<typeof settle>,
  published: Published,
  recorded: Recorded,
  orders: Int32Array[],
): MarketSensitivity {
  const { draws } = settings;
  const counts = new Int32Array(Math.max(1001, model.productIds.length + 1));
  const slice = <T extends Uint16Array | Int32Array>(array: T, i: number) => array.subarray(i * draws, (i + 1) * draws);

  // The published score is round1 of a score that counts a missing value as 0, and the draws fill
  // it in: without widening, a product with gaps could get an interval that excludes it.
  const axisOf = (a: number, p: number): AxisSensitivity => {
    const names = model.bandNames[a] as string[];
    const table = model.bandOfTenths[a] as Uint16Array;
    const scores = slice((recorded.scores[a] as Series<Uint16Array>).store, p);
    const shown = (published.tenths[a] as Uint16Array)[p] as number;
    const [p5, p95] = percentiles(scores, counts);
    const inBand = new Int32Array(names.length);
    for (const score of scores) inBand[table[score] as number] = (inBand[table[score] as number] as number) + 1;
    return {
      interval: { p5: Math.min(p5, shown) / 10, p95: Math.max(p95, shown) / 10 },
      bands: Object.fromEntries(
        names.map((name, b) => [name, Math.round(((inBand[b] as number) / draws) * 1000) / 1000]),
      ),
      bandSettled: (inBand[table[shown] as number] as number) * 20 >= draws * 19,
    };
  };

  // Ranks are widened likewise, to contain the published rank.
  const widen = ([best, worst]: [number, number], rank: number): RankSensitivity => ({
    rankInterval: { best: Math.min(best, rank), worst: Math.max(worst, rank) },
  });
  const ranksUnder = (s: number): Record<string, ControlledSensitivity> => {
    const set = model.sets[s] as ControlSet;
    const zero = percentiles(recorded.zeroRanks[s] as Int32Array, counts);
    // An unavailable product retains nothing in every draw: its engaged offering never changes.
    const byProduct: ControlledSensitivity[] = model.productIds.map(() => ({
      ...widen(zero, published.zeroRanks[s] ?? 0),
      retained: { p5: 0, p95: 0 },
    }));
    set.available.forEach((p, i) => {
      const ranks = slice((recorded.ranks[s] as Series<Int32Array>).store, i);
      const shown = (published.retained[s] as Uint16Array)[i] as number;
      const [low, high] = percentiles(slice((recorded.retained[s] as Series<Uint16Array>).store, i), counts);
      byProduct[p] = {
        ...widen(percentiles(ranks, counts), (published.ranks[s] as Int32Array)[i] as number),
        retained: { p5: Math.min(low, shown) / 10, p95: Math.max(high, shown) / 10 },
      };
    });
    return Object.fromEntries(model.productIds.map((id, p) => [id, byProduct[p] as ControlledSensitivity]));
  };

  const underSet = model.sets.map((_, s) => ranksUnder(s));
  return {
    seed: settings.seed,
    draws,
    concentration: settings.concentration,
    spread: settings.spread,
    products: Object.fromEntries(
      model.productIds.map((id, p) => [id, { innovation: axisOf(0, p), control: axisOf(1, p), scale: axisOf(2, p) }]),
    ),
    capabilityIndex: Object.fromEntries(
      Object.entries(underSet[0] as Record<string, ControlledSensitivity>).map(([id, { rankInterval }]) => [
        id,
        { rankInterval },
      ]),
    ),
    max: Object.fromEntries(
      [...model.setOfCountry]
        .sort(([a], [b]) => byText(a, b))
        .map(([country, s]) => [country, underSet[s] as Record<string, ControlledSensitivity>]),
    ),
    odds: (() => {
      const bySet = model.sets.map((_, s) => oddsUnder(model, s, draws, recorded, orders[s] as Int32Array));
      return {
        capabilityIndex: bySet[0] as Record<string, RankOdds>,
        max: Object.fromEntries(
          [...model.setOfCountry]
            .sort(([a], [b]) => byText(a, b))
            .map(([country, s]) => [country, bySet[s] as Record<string, RankOdds>]),
        ),
      };
    })(),
  };
}
