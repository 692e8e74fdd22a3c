import type { Control, Geography, MarketFile } from "../1-domain/market-definition";
import type { CountryResult, Dimension, ProductScore } from "../1-domain/scores";
import type { MarketSensitivity } from "../1-domain/sensitivity";

/**
 * One stored release, the one type every reading, comparison and preview takes: what it published
 * and what it scored. Decoded once (server/3-catalog/releases.ts loads it), read many times.
 */
export interface ReleaseData {
  marketId: string;
  name: string;
  description: string;
  release: number;
  /** ISO 8601 publish time of the release. */
  lastUpdated: string;
  methodologyVersion: string;
  methodology: string;
  material: boolean;
  notes: string;
  dimensions: Dimension[];
  products: ProductScore[];
  /** The controls catalogue as it was when the release was scored. */
  controls: Control[];
  countries: ReadonlyMap<string, CountryResult>;
  /** The market file as published (evidence included): what was scored. */
  definition: MarketFile;
  /** The geographies (countries and their controls) the release was scored for. */
  geographies: Geography[];
  /**
   * How sure each score and rank is: analysed at publish time (or, for a release stored before the
   * analysis existed, once, when first read: a getter, so a release can be copied without it).
   */
  readonly sensitivity: MarketSensitivity;
}

/**
 * Where a release read from the database gives its sensitivity as the stored JSON text, while
 * nothing has parsed it: a worker thread is handed the text as it is, so the event loop never
 * reads, nor parses, the few megabytes of a large market's analysis that it does not use itself.
 */
export const SENSITIVITY_JSON = Symbol.for("market-positioning.sensitivity-json");

/** The stored sensitivity's JSON text (read when first asked), while unparsed; undefined otherwise. */
export const unparsedSensitivity = async (release: ReleaseData): Promise<string | undefined> =>
  (release as { [SENSITIVITY_JSON]?: () => Promise<string | undefined> })[SENSITIVITY_JSON]?.();

/** The country is not among the geographies the release was scored for. */
export class UnknownCountryError extends Error {
  constructor(readonly country: string) {
    super(`unknown country "${country}"`);
    this.name = "UnknownCountryError";
  }
}
