/**
 * Inputs and outputs of the release exports (docs/interface.md, "Exports"). The files' names come
 * from the tables themselves (server/readings/export-tables.ts): a table added there is a file here.
 */
import "zod-openapi";
import { z } from "zod";
import { EXPORT_TABLE_NAMES } from "../readings/export-tables";
import { releaseInput } from "./schemas";

const timestamp = z.string().meta({ description: "ISO 8601 timestamp.", example: "2026-05-04T09:00:00.000Z" });

/** Every file one table can be downloaded as: `snapshot.csv`, `snapshot.json`, … */
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

export const citationInput = releaseInput.extend({
  format: z
    .enum(["bibtex", "csl-json"], { error: "format must be bibtex or csl-json" })
    .default("bibtex")
    .meta({ description: "BibTeX (default) or CSL-JSON, as reference managers read them." }),
});

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
