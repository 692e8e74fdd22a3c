import { moveSentence, scoreMoves } from "../../readings/change-summary";
import { changes as changesOf } from "../../readings/changes";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { changesInput, changesSchema, narrowingParams } from "../schemas";

const MOVERS_SHOWN = 5;
const productCount = (n: number) => `${n} product${n === 1 ? "" : "s"}`;

export const changes = declareReading({
  group: "readings",
  name: "changes",
  scope: MARKET_READ_SCOPE,
  credits: 2,
  path: "/markets/{marketId}/changes",
  summary: "Release changes",
  description:
    "What one release of a market changed against an earlier one: products that entered or left; each product's score change per axis split into its own values, the field (bounds moved by other products) and the method (indicators, weights); band and rank changes; for one country, Max rank and availability before and after; and the market's methodology, bands, indicators, weights and products.",
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
    /**
     * What a release changed, as a model can quote it: the products that entered and left, then the
     * biggest score changes with their causes ("of which −2.9 because the field moved").
     */
    text: (payload) => {
      const { market } = payload;
      const lines = [
        `Release ${payload.to.release} of ${payload.marketId} against release ${payload.from.release}, under ${payload.country}'s controls.`,
      ];
      const { from, to } = market.methodologyVersion;
      if (market.methodologyChanged)
        lines.push(
          `${from === to ? `Methodology ${to} reworded` : `Methodology ${from} → ${to}`}${market.material ? " (a material change)" : ""}.`,
        );
      if (market.productsAdded.length)
        lines.push(`${productCount(market.productsAdded.length)} entered: ${market.productsAdded.join(", ")}.`);
      if (market.productsRemoved.length)
        lines.push(`${productCount(market.productsRemoved.length)} left: ${market.productsRemoved.join(", ")}.`);
      if (market.weightsChanged.length || market.indicatorsAdded.length || market.indicatorsRemoved.length)
        lines.push(
          `Indicators: ${market.indicatorsAdded.length} added, ${market.indicatorsRemoved.length} removed, ${market.weightsChanged.length} reweighted.`,
        );
      const movers = scoreMoves(payload).slice(0, MOVERS_SHOWN);
      if (movers.length === 0) lines.push("No score changed.");
      for (const move of movers) lines.push(`- ${moveSentence(move)}.`);
      const availability = payload.products.filter(
        (p) => p.max.availability === "became_available" || p.max.availability === "became_unavailable",
      );
      for (const p of availability)
        lines.push(
          `- ${p.name} ${p.max.availability === "became_available" ? "became available" : "became unavailable"} under ${payload.country}.`,
        );
      return lines.join("\n");
    },
  },
});
