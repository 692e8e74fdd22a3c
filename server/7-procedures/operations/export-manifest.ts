import { z } from "zod";
import { exportManifest as manifestOf } from "../../2-readings/export";
import { declareReading } from "../declaration";
import { releaseInput, timestamp } from "../schemas";

const manifestFileSchema = z
  .object({
    path: z.string().meta({ description: "The file's name, in the archive's folder and as `file` downloads it." }),
    format: z.enum(["csv", "json", "bibtex", "csl-json"]),
    mediaType: z.string(),
    table: z.string().nullable().meta({ description: "The table it holds; null for the citation files." }),
    rows: z.number().int().nullable().meta({ description: "Data rows (a CSV's header not counted)." }),
    bytes: z.number().int(),
    sha256: z.string().meta({ description: "SHA-256 of the file's bytes, in hex: check a download against it." }),
  })
  .meta({ id: "ExportFile" });

const columnSchema = z.object({
  name: z.string(),
  type: z.enum(["string", "integer", "number", "boolean", "value"]).meta({
    description: "`value`: an indicator value as written, a number, true/false or a level name.",
  }),
  description: z.string(),
});

export const manifestSchema = z
  .object({
    format: z.literal("market-positioning-release-export"),
    formatVersion: z.number().int().meta({ description: "Bumped when a file or column is renamed or removed." }),
    marketId: z.string(),
    name: z.string(),
    release: z.number().int().positive(),
    lastUpdated: timestamp,
    methodologyVersion: z.string(),
    material: z.boolean(),
    licence: z.object({ name: z.string(), identifier: z.string(), terms: z.string() }),
    files: z.array(manifestFileSchema),
    tables: z.array(z.object({ name: z.string(), description: z.string(), columns: z.array(columnSchema) })),
    citation: z.object({
      bibtex: z.string().meta({ description: "A BibTeX entry (@misc) for the release." }),
      csl: z
        .looseObject({ id: z.string(), type: z.literal("dataset"), title: z.string() })
        .meta({ description: "The same as one CSL-JSON item of type dataset." }),
    }),
  })
  .meta({
    id: "ExportManifest",
    description:
      "What a release export holds: each file with its rows, bytes and SHA-256, the tables' columns, the licence and the citation.",
  });

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
