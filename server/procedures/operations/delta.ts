import { delta as deltaOf } from "../../readings/delta";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { gatesOf } from "../gates-input";
import { deltaInput, deltaSchema, narrowingParams } from "../schemas";
import { controlsLine, engagedText, gateFailuresText, gatesLine, releaseHeader, scoresText } from "./text";

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
