import { snapshot as snapshotOf } from "../../readings/snapshot";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { narrowingParams, releaseInput, snapshotSchema } from "../schemas";
import { snapshotHtml, snapshotResourceUri } from "./snapshot-html";
import { releaseHeader, scoresText } from "./text";

export const snapshot = declareReading({
  group: "readings",
  name: "snapshot",
  scope: MARKET_READ_SCOPE,
  credits: 5,
  path: "/markets/{marketId}/snapshot",
  summary: "Market snapshot",
  description:
    "Every product of one market with its published Innovation, Control and Scale scores (0–100) and band per axis, the band cutoffs and indicators of each dimension, and the market's methodology text, to be quoted verbatim. No country is involved.",
  input: releaseInput.extend(narrowingParams),
  narrowing: { lists: ["products"] },
  output: snapshotSchema,
  example: { marketId: "foundation-model-apis" },
  caching: "release",
  releases: "one",
  compute: ({ release }) => snapshotOf(release),
  tool: {
    name: "service_market_get_snapshot",
    addendum: "Also returns it as a readable HTML table (resource ui://service/snapshot/{marketId}).",
    text: (payload) =>
      [
        `Snapshot of ${payload.name}, ${releaseHeader(payload)}; methodology ${payload.methodologyVersion}.`,
        ...payload.products.map(
          (p) =>
            `- ${p.name} (${p.vendor}): ${scoresText(p.scores)} — ${p.bands.innovation} / ${p.bands.control} / ${p.bands.scale}`,
        ),
        "The methodology text is in structuredContent.methodology; quote it verbatim.",
      ].join("\n"),
    embed: (payload) => [
      {
        type: "resource",
        resource: { uri: snapshotResourceUri(payload.marketId), mimeType: "text/html", text: snapshotHtml(payload) },
        // A page for the person's eyes: the model has the same data in structuredContent and the text.
        annotations: { audience: ["user"], priority: 0.2 },
      },
    ],
  },
});
