import { exportManifest as manifestOf } from "../../readings/export";
import { declareReading } from "../declaration";
import { manifestSchema } from "../export-schemas";
import { releaseInput } from "../schemas";

/** The event loop's turn for other calls between two pieces of a long measurement. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

export const exportManifest = declareReading({
  group: "exports",
  name: "manifest",
  scope: "Market.Read.All",
  credits: 0,
  path: "/markets/{marketId}/export",
  summary: "Release export: manifest",
  description:
    "What a whole-release export holds: every table of the release (products, offerings, indicators, bands, values with their evidence, controls, geographies, the snapshot, the Capability Index with its rank odds, the Max reading, the Delta and the sovereignty profiles under every country) as CSV and as JSON, each with its rows, bytes and SHA-256; the tables' columns; the methodology version; the licence; and the citation in BibTeX and CSL-JSON. `release` defaults to the latest.",
  input: releaseInput,
  output: manifestSchema,
  example: { marketId: "foundation-model-apis", release: 3 },
  caching: "release",
  releases: "one",
  namedByOrigin: true,
  compute: ({ release, origin }) => manifestOf(release, { origin }, pause),
});
