import type { Axis, Indicator } from "./market-definition";

export type Scores = Record<Axis, number>;
export type AxisBands = Record<Axis, string>;

export interface Distance extends Scores {
  /** Euclidean norm of the three axis distances, rounded to one decimal. */
  magnitude: number;
}

/** A band of one axis as published: covers [from, to), the last one [from, 100]. */
export interface Band {
  name: string;
  from: number;
  to: number;
}

/** The published scores of one product: its default offering against the field. */
export interface ProductScore {
  productId: string;
  name: string;
  vendor: string;
  scores: Scores;
  bands: AxisBands;
  /** Indicators the default offering does not demonstrate (scored 0). */
  gaps: string[];
}

/** What one product keeps under one country's controls. */
export interface ProductUnderControls {
  productId: string;
  available: boolean;
  offering: { id: string; name: string } | null;
  missingControls: string[];
  on: Scores;
  distance: Distance;
}

export interface CountryResult {
  country: string;
  controls: string[];
  products: ProductUnderControls[];
}

/** One indicator of a dimension, as the methodology states it (scoring/engine.ts describes them). */
export interface DimensionIndicator {
  id: string;
  name: string;
  description?: string;
  kind: Indicator["kind"];
  weight: number;
  direction?: "higher" | "lower";
  unit?: string;
  levels?: string[];
  source?: string;
}

/** One axis of a market as the methodology states it: its bands and weighted indicators. */
export interface Dimension {
  id: Axis;
  name: string;
  description: string;
  bands: Band[];
  indicators: DimensionIndicator[];
}
