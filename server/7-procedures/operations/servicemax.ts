import { z } from "zod";
import { signed } from "../../2-comparisons/comparison-summary";
import { servicemax as servicemaxOf } from "../../2-readings/servicemax";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { gatesOf } from "../gates-input";
import {
  countryHeader,
  distanceSchema,
  narrowingParams,
  pageSchema,
  rankIntervalSchema,
  score,
  scoresSchema,
  servicemaxInput,
  underControlsProduct,
} from "../schemas";
import { gatesHeaderSchema, gateVerdictSchema, rankOddsSchema, sealSchema } from "../sovereignty-schemas";
import {
  controlsLine,
  engagedText,
  gateFailuresText,
  gatesLine,
  oddsText,
  rankRange,
  releaseHeader,
  scoresText,
  sealText,
} from "./text";

export const servicemaxSchema = z
  .object({
    ...countryHeader,
    products: z.array(
      z
        .object({
          rank: z.number().int().positive(),
          ...underControlsProduct,
          off: scoresSchema,
          on: scoresSchema,
          distance: distanceSchema,
          rankInterval: rankIntervalSchema,
          retainedInterval: z.object({ p5: score, p95: score }).meta({
            description:
              "5th and 95th percentile of on.innovation (the Innovation kept under the controls) across the sensitivity analysis, widened to contain it; 0–0 for an unavailable product.",
          }),
          seal: sealSchema,
          rankOdds: rankOddsSchema,
          gate: gateVerdictSchema.optional(),
          publishedRank: z.number().int().positive().optional().meta({
            description: "With gates: the product's rank in the whole field (`rank` is among those that pass).",
          }),
        })
        .meta({ id: "MaxProduct" }),
    ),
    gates: gatesHeaderSchema.optional(),
    page: pageSchema,
  })
  .meta({
    id: "Max",
    description: "Products ranked by the Innovation they retain with every control engaged; off, on and the distance.",
  });

export const servicemax = declareReading({
  group: "readings",
  name: "servicemax",
  scope: MARKET_READ_SCOPE,
  credits: 3,
  path: "/markets/{marketId}/servicemax",
  summary: "Max reading",
  description:
    "For one market and one country, products ranked by the Innovation they retain with every sovereign control of the country engaged, each with its scores off (published) and on (under controls) and the distance, rank range and rank odds (P(top 1, 3, 5)); unavailable products list the controls they miss.",
  input: servicemaxInput.extend(narrowingParams),
  narrowing: { lists: ["products"] },
  output: servicemaxSchema,
  example: { marketId: "foundation-model-apis", country: "FR" },
  caching: "release",
  growsWithMarket: true,
  releases: "one",
  country: "home",
  compute: ({ release, country }, input) => servicemaxOf(release, country as string, gatesOf(input, release)),
  tool: {
    name: "service_market_get_servicemax",
    title: "Max reading under a country's controls",
    chart: true,
    text: (payload) => {
      const nonePass = payload.gates?.passed === 0;
      return [
        `Max reading, ${releaseHeader(payload)}. ${controlsLine(payload)}`,
        ...gatesLine(payload.gates),
        ...(nonePass ? [] : payload.products).map((p) =>
          p.gate && !p.gate.passed
            ? `- ${p.name} (${p.vendor}): not through your gates — ${gateFailuresText(p.gate.failed)}`
            : p.available
              ? `${p.rank}. ${p.name} (${p.vendor}): on ${scoresText(p.on)}; off ${scoresText(p.off)}; Innovation ${signed(p.distance.innovation)}; ${engagedText(p, payload.controls)}; ${sealText(p.seal)}; ${rankRange(p.rankInterval)}; ${oddsText(p.rankOdds)}`
              : `- ${p.name} (${p.vendor}): ${engagedText(p, payload.controls)} (unranked)`,
        ),
      ].join("\n");
    },
  },
});
