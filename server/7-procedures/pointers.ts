/**
 * The operations an error points a caller to, with what each gives: one wording, used wherever
 * such an error is thrown; each surface names the operation its own way (see-also.ts).
 */
import type { SeeAlso } from "../1-errors/api-error";

export const LISTS_MARKETS: SeeAlso = {
  operation: "markets.list",
  says: "lists the markets with their latest release",
};
export const LISTS_COUNTRIES: SeeAlso = { operation: "geographies.list", says: "lists the valid countries" };
export const LISTS_PRODUCTS: SeeAlso = {
  operation: "readings.products",
  says: "lists the market's products with their ids (free)",
};
export const LISTS_CONTROLS: SeeAlso = {
  operation: "geographies.list",
  says: "lists every country's controls with their ids",
};
export const LISTS_INDICATORS: SeeAlso = {
  operation: "readings.snapshot",
  says: "lists each indicator of the market with its id and published weight",
};
