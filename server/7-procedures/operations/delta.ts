import { z } from "zod";
import { delta as deltaOf } from "../../2-readings/delta";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { gatesOf } from "../gates-input";
import {
  countryHeader,
  distanceSchema,
  narrowingParams,
  pageSchema,
  scoresSchema,
  servicemaxInput,
  underControlsProduct,
} from "../schemas";
import { gatesHeaderSchema, gateVerdictSchema } from "../sovereignty-schemas";
import { controlsLine, engagedText, gateFailuresText, gatesLine, releaseHeader, scoresText } from "./text";

export const viewParam = z.enum(["map", "bars"], { error: "view must be map or bars" }).default("map").meta({
  description: "Which chart a client opens first; the body is the same.",
  example: "map",
});

export const deltaInput = servicemaxInput.extend({ view: viewParam });

export const deltaSchema = z
  .object({
    ...countryHeader,
    products: z.array(
      z
        .object({
          ...underControlsProduct,
          published: scoresSchema,
          underControls: scoresSchema,
          distance: distanceSchema,
          gate: gateVerdictSchema.optional(),
        })
        .meta({ id: "DeltaProduct" }),
    ),
    gates: gatesHeaderSchema.optional(),
    page: pageSchema,
  })
  .meta({
    id: "Delta",
    description: "Each product's published scores, its scores under the controls, and the distance.",
  });

export const delta = declareReading({
  group: "readings",
  name: "delta",
  scope: MARKET_READ_SCOPE,
  credits: 3,
  path: "/markets/{marketId}/delta",
  summary: "Delta reading",
  description:
    "For one market and one country, each product's published scores, its scores with that country's sovereign controls engaged, and the distance between them: what each product keeps and loses.",
  input: deltaInput.extend(narrowingParams),
  narrowing: { lists: ["products"] },
  output: deltaSchema,
  example: { marketId: "foundation-model-apis", country: "FR", view: "bars" },
  caching: "release",
  growsWithMarket: true,
  releases: "one",
  country: "home",
  // map and bars are the same bytes: one ETag, one cached answer.
  sameBytes: ["view"],
  compute: ({ release, country }, input) => deltaOf(release, country as string, gatesOf(input, release)),
  tool: {
    name: "service_market_get_delta",
    title: "Delta under a country's controls",
    chart: true,
    text: (payload) => {
      const nonePass = payload.gates?.passed === 0;
      return [
        `Delta, ${releaseHeader(payload)}. ${controlsLine(payload)}`,
        ...gatesLine(payload.gates),
        ...(nonePass ? [] : payload.products).map((p) =>
          p.gate && !p.gate.passed
            ? `- ${p.name} (${p.vendor}): not through your gates — ${gateFailuresText(p.gate.failed)}`
            : p.available
              ? `- ${p.name} (${p.vendor}): ${scoresText(p.published)} → ${scoresText(p.underControls)} (distance ${p.distance.magnitude}); ${engagedText(p, payload.controls)}`
              : `- ${p.name} (${p.vendor}): ${scoresText(p.published)}; ${engagedText(p, payload.controls)}`,
        ),
      ].join("\n");
    },
  },
});
