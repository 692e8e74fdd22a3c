/**
 * What the catalogue's JSON columns hold (db/stored-shapes.ts names them; db/ takes nothing from
 * server/, so the shapes are declared from here, where the catalogue is written).
 */
import type { Control, Geography, MarketFile } from "../1-domain/market-definition";
import type { CountryResult, Dimension, ProductScore } from "../1-domain/scores";
import type { MarketSensitivity } from "../1-domain/sensitivity";

declare module "../../db/stored-shapes" {
  interface StoredShapes {
    /** controls.sov: the sovereignty objectives a control evidences. */
    controlSov: NonNullable<Control["sov"]>;
    /** releases.definition: the market file as published. */
    marketFile: MarketFile;
    /** releases.controls and releases.geographies: the catalogue the release was scored with. */
    controls: Control[];
    geographies: Geography[];
    /** releases.dimensions and releases.products: the scored field. */
    dimensions: Dimension[];
    productScores: ProductScore[];
    /** releases.sensitivity: how far each score and rank could move with the evidence. */
    sensitivity: MarketSensitivity;
    /** release_country_results.result: one country's controls engaged on the release. */
    countryResult: CountryResult;
  }
}
