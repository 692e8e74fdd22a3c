import { comparisonText } from "../../readings/comparison-summary";
import { changes as changesOf } from "../../readings/release-comparison";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { changesInput, changesSchema, narrowingParams } from "../schemas";

export const changes = declareReading({
  group: "readings",
  name: "changes",
  scope: MARKET_READ_SCOPE,
  credits: 2,
  path: "/markets/{marketId}/changes",
  summary: "Release changes",
  description:
    "What a release of a market changed against an earlier one: products in and out; each score change per axis split into own values, the field (bounds other products moved) and the method (indicators, weights); band and rank changes (movedUp: places gained); under one country, Max rank and availability before and after; the market's methodology, bands, indicators and weights.",
  input: changesInput.extend(narrowingParams),
  narrowing: { lists: ["products"] },
  output: changesSchema,
  example: { marketId: "foundation-model-apis", country: "FR" },
  // The pair is immutable: the ETag holds for good once both releases are named.
  caching: "release",
  releases: "pair",
  country: "home",
  compute: ({ earlier, release, country }) => changesOf(earlier as typeof release, release, country as string),
  tool: {
    name: "service_market_get_changes",
    /** What a release changed, as a model can quote it (readings/comparison-summary.ts): nothing left unsaid. */
    text: comparisonText,
  },
});
