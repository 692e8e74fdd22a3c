import { delta as deltaOf } from "../../readings/readings";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { gatesOf } from "../gates-input";
import { deltaInput, deltaSchema, narrowingParams } from "../schemas";
import { controlsLine, gateFailuresText, releaseHeader, scoresText } from "./text";

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
    text: (payload) =>
      [
        `Delta, ${releaseHeader(payload)}. ${controlsLine(payload)}`,
        ...(payload.gates
          ? [
              `Your gates: ${payload.gates.passed} pass, ${payload.gates.failed} do not (listed last). ${payload.gates.note}`,
            ]
          : []),
        ...payload.products.map((p) =>
          p.gate && !p.gate.passed
            ? `- ${p.name} (${p.vendor}): not through your gates — ${gateFailuresText(p.gate.failed)}`
            : `- ${p.name} (${p.vendor}): ${scoresText(p.published)} → ${p.available ? scoresText(p.underControls) : "unavailable"} (distance ${p.distance.magnitude})`,
        ),
      ].join("\n"),
  },
});
