import { archiveFolder } from "../../2-readings/export";
import { builtDownload } from "../built-download";
import { declareDownload } from "../declaration";
import { releaseInput } from "../schemas";

const ZIP = "application/zip";

export const exportZip = declareDownload({
  group: "exports",
  name: "zip",
  scope: "Market.Read.All",
  credits: 25,
  path: "/markets/{marketId}/export/zip",
  summary: "Release export: every file as a ZIP archive",
  description:
    "The whole release in one ZIP archive, streamed: one folder holding every table as CSV and JSON, the citation (CITATION.bib, CITATION.json) and manifest.json, the manifest the manifest operation answers. The same release gives the same bytes. `release` defaults to the latest; a pinned `release` is served `immutable`.",
  input: releaseInput,
  example: { marketId: "foundation-model-apis", release: 3 },
  caching: "per-call",
  releases: "one",
  namedByOrigin: true,
  download: {
    mediaTypes: [ZIP],
    file: ({ release, origin }) => builtDownload(release, origin, `${archiveFolder(release)}.zip`, ZIP, "archive"),
  },
});
