/**
 * Pieces of the generated markets the property tests share (fast-check): the controls they draw
 * from, geographies over them, and the market file around generated indicators and products.
 */
import fc from "fast-check";
import { type Geography, type MarketFile, marketFileSchema } from "@/server/1-domain/market-definition";
import { plainDimensions } from "./fixtures";

export const GENERATED_CONTROLS = ["k1", "k2", "k3"];

/** A country with no controls, then one to five with any subset of the controls. */
export const generatedGeographies: fc.Arbitrary<Geography[]> = fc
  .array(fc.subarray(GENERATED_CONTROLS), { minLength: 1, maxLength: 5 })
  .map((sets) => [
    { country: "ZZ", name: "No controls", controls: [] },
    ...sets.map((controls, i) => ({ country: `C${String.fromCharCode(65 + i)}`, name: `Country ${i}`, controls })),
  ]);

/** The market file of generated indicators and products, through the schema (so it is a valid one). */
export const generatedMarketFile = (indicators: unknown[], products: unknown[]): MarketFile =>
  marketFileSchema.parse({
    kind: "market",
    marketId: "generated",
    name: "Generated",
    description: "d",
    methodologyVersion: "1",
    methodology: "m",
    dimensions: plainDimensions(60),
    indicators,
    products,
  });
