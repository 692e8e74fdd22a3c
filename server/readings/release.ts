import type { Control } from "../domain/market-definition";
import type { CountryResult, ProductScore } from "../domain/scores";
import type { Dimension } from "../scoring/engine";
import type { MarketSensitivity } from "../scoring/sensitivity";

/** Everything the readings need of one stored release; decoded once, read many times. */
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
  /**
   * How sure each score and rank is: analysed at publish time (or, for a release stored before the
   * analysis existed, once, when first read: a getter, so a release can be copied without it).
   */
  readonly sensitivity: MarketSensitivity;
}

/** The country is not among the geographies the release was scored for. */
export class UnknownCountryError extends Error {
  constructor(readonly country: string) {
    super(`unknown country "${country}"`);
    this.name = "UnknownCountryError";
  }
}
