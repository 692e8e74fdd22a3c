import { signed } from "../../readings/change-summary";
import { servicemax as servicemaxOf } from "../../readings/readings";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { narrowingParams, servicemaxInput, servicemaxSchema } from "../schemas";
import { controlsLine, rankRange, releaseHeader, scoresText } from "./text";

export const servicemax = declareReading({
  group: "readings",
  name: "servicemax",
  scope: MARKET_READ_SCOPE,
  credits: 3,
  path: "/markets/{marketId}/servicemax",
  summary: "Max reading",
  description:
    "For one market and one country, products ranked by the Innovation they retain with every sovereign control of the country engaged, each with its scores off (published) and on (under controls) and the distance; unavailable products list the controls they miss. `country` defaults to the organization's home country.",
  input: servicemaxInput.extend(narrowingParams),
  narrowing: { lists: ["products"] },
  output: servicemaxSchema,
  example: { marketId: "foundation-model-apis", country: "FR" },
  caching: "release",
  releases: "one",
  country: "home",
  compute: ({ release, country }) => servicemaxOf(release, country as string),
  tool: {
    name: "service_market_get_servicemax",
    title: "Max reading under a country's controls",
    chart: true,
    text: (payload) =>
      [
        `Max reading, ${releaseHeader(payload)}. ${controlsLine(payload)}`,
        ...payload.products.map((p) =>
          p.available
            ? `${p.rank}. ${p.name} (${p.vendor}): on ${scoresText(p.on)}; off ${scoresText(p.off)}; Innovation ${signed(p.distance.innovation)}; ${rankRange(p.rankInterval)}`
            : `${p.rank}. ${p.name} (${p.vendor}): unavailable — misses ${p.missingControls.join(", ")}`,
        ),
      ].join("\n"),
  },
});
