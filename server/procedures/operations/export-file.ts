import { downloadName, MEDIA_TYPES } from "../../readings/export";
import { builtDownload } from "../built-download";
import { declareDownload } from "../declaration";
import { exportFileInput } from "../export-schemas";

export const exportFile = declareDownload({
  group: "exports",
  name: "file",
  scope: "Market.Read.All",
  credits: 3,
  path: "/markets/{marketId}/export/files/{file}",
  summary: "Release export: one table",
  description:
    "One table of a release as CSV (RFC 4180, a header line) or as JSON (an array of objects), streamed: the file the manifest lists, byte for byte, so its SHA-256 matches. Where a product is unavailable under a country's controls, its scores under controls, distance and Max rank are empty (null in JSON) beside `available`. `release` defaults to the latest; a pinned `release` is served `immutable`.",
  input: exportFileInput,
  example: { marketId: "foundation-model-apis", release: 3, file: "snapshot.csv" },
  caching: "per-call",
  releases: "one",
  namedByOrigin: true,
  download: {
    mediaTypes: [MEDIA_TYPES.csv, MEDIA_TYPES.json],
    file: ({ release, origin }, input) =>
      builtDownload(
        release,
        origin,
        downloadName(release, input.file),
        input.file.endsWith(".csv") ? MEDIA_TYPES.csv : MEDIA_TYPES.json,
        input.file,
      ),
  },
});
