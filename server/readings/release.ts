import type { Control } from "../domain/market-definition";
import type { CountryResult, ProductScore } from "../domain/scores";
import type { Dimension } from "../scoring/engine";

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
}

/** The country is not among the geographies the release was scored for. */
export class UnknownCountryError extends Error {
  constructor(readonly country: string) {
    super(`unknown country "${country}"`);
    this.name = "UnknownCountryError";
  }
}
