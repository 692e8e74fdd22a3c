import { capaindex as capaindexOf } from "../../readings/capaindex";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { capaindexSchema, narrowingParams, releaseInput } from "../schemas";
import { oddsText, rankRange, releaseHeader } from "./text";

export const capaindex = declareReading({
  group: "readings",
  name: "capaindex",
  scope: MARKET_READ_SCOPE,
  credits: 2,
  path: "/markets/{marketId}/capaindex",
  summary: "Capability Index",
  description:
    "Products of one market ranked by published Innovation, with no control applied (competition ranking: 1, 2, 2, 4; ties listed by name), with each product's band.",
  input: releaseInput.extend(narrowingParams),
  narrowing: { lists: ["products"] },
  output: capaindexSchema,
  example: { marketId: "foundation-model-apis" },
  caching: "release",
  releases: "one",
  compute: ({ release }) => capaindexOf(release),
  tool: {
    name: "service_market_get_capaindex",
    chart: true,
    text: (payload) =>
      [
        `Capability Index, ${releaseHeader(payload)}:`,
        ...payload.products.map(
          (p) =>
            `${p.rank}. ${p.name} (${p.vendor}) — Innovation ${p.innovation}, ${p.band}${p.bandSettled ? "" : " (band not settled)"}; ${rankRange(p.rankInterval)}; ${oddsText(p.rankOdds)}; tie group ${p.rankOdds.tieGroup}`,
        ),
      ].join("\n"),
  },
});
