import { z } from "zod";
import { downloadName, MEDIA_TYPES } from "../../2-readings/export";
import { EXPORT_TABLE_NAMES } from "../../2-readings/export-tables";
import { builtDownload } from "../built-download";
import { declareDownload } from "../declaration";
import { releaseInput } from "../schemas";

/**
 * Every file one table can be downloaded as: `snapshot.csv`, `snapshot.json`, … The names come from
 * the tables themselves (server/2-readings/export-tables.ts): a table added there is a file here.
 */
export const TABLE_FILES = EXPORT_TABLE_NAMES.flatMap((name) => [`${name}.csv`, `${name}.json`]) as [
  string,
  ...string[],
];

export const exportFileInput = releaseInput.extend({
  file: z
    .enum(TABLE_FILES, { error: `file must be one of the tables as .csv or .json: ${TABLE_FILES.join(", ")}` })
    .meta({
      description: "A table of the release, as CSV or JSON (the manifest lists them).",
      example: "snapshot.csv",
    }),
});

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
