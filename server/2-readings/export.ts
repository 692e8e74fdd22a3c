/**
 * A whole release as files (docs/interface.md, "Exports"): every table (./export-tables.ts) as CSV
 * and as JSON, and its citation in BibTeX and CSL-JSON; a manifest lists each file with its rows,
 * bytes and SHA-256, the release, the methodology version and the licence. A file's content is
 * yielded in pieces and the same release gives the same bytes every time, so a file can be
 * streamed, named by an ETag and checked against its digest. Pure: a release in, text out.
 */
import { createHash } from "node:crypto";
import type { Download } from "../1-domain/download";
import { DATA_LICENCE, PUBLISHER } from "../1-domain/licence";
import { bibtex, cslItem, type DatasetCitation } from "../2-formats/citation";
import { csvLines, inPieces, jsonLines } from "../2-formats/table-text";
import { zipArchive } from "../2-formats/zip";
import { type ExportColumn, type ExportTableName, exportTables } from "./export-tables";
import type { ReleaseData } from "./release";

/** The layout of an export; bumped when a file or column is renamed or removed (never silently). */
export const EXPORT_FORMAT_VERSION = 1;

export type ExportFileFormat = "csv" | "json" | "bibtex" | "csl-json";

export const MEDIA_TYPES: Record<ExportFileFormat, string> = {
  csv: "text/csv; charset=utf-8; header=present",
  json: "application/json",
  bibtex: "application/x-bibtex; charset=utf-8",
  "csl-json": "application/vnd.citationstyles.csl+json",
};

export interface ExportFile {
  /** Its path in the archive, and its name when downloaded alone: "snapshot.csv". */
  path: string;
  format: ExportFileFormat;
  /** The table it holds; none for the citation files. */
  table: ExportTableName | null;
  content(): Iterable<string>;
}

/** Where a release is read and cited from: the service's public origin. */
export interface ExportOrigin {
  origin: string;
}

/** A release's citation: the dataset is the market's scores as that release published them. */
export function citationOf(release: ReleaseData, { origin }: ExportOrigin): DatasetCitation {
  return {
    key: `mps-${release.marketId}-r${release.release}`,
    title: `${release.name}: Innovation, Control and Scale scores, release ${release.release}`,
    publisher: PUBLISHER,
    version: `release ${release.release}, methodology ${release.methodologyVersion}`,
    issued: release.lastUpdated,
    url: `${origin}/markets/${release.marketId}?release=${release.release}`,
    note: `Published ${release.lastUpdated.slice(0, 10)}. ${DATA_LICENCE.terms}`,
  };
}

/** The citation files' names. */
export const CITATION_FILES = { bibtex: "CITATION.bib", "csl-json": "CITATION.json" } as const;

/** The release's citation as a file: BibTeX, or a CSL-JSON array of one item. */
export function citationFile(release: ReleaseData, where: ExportOrigin, format: "bibtex" | "csl-json"): ExportFile {
  const cited = citationOf(release, where);
  return {
    path: CITATION_FILES[format],
    format,
    table: null,
    content: () => [format === "bibtex" ? bibtex(cited) : `${JSON.stringify([cslItem(cited)], null, 2)}\n`],
  };
}

/** Every file of a release's export, in the manifest's order: each table as CSV then JSON, then the citation. */
export function exportFiles(release: ReleaseData, where: ExportOrigin): ExportFile[] {
  const tables = exportTables(release).flatMap((table): ExportFile[] => {
    const names = table.columns.map((c) => c.name);
    return [
      { path: `${table.name}.csv`, format: "csv", table: table.name, content: () => csvLines(names, table.rows()) },
      { path: `${table.name}.json`, format: "json", table: table.name, content: () => jsonLines(names, table.rows()) },
    ];
  });
  return [...tables, citationFile(release, where, "bibtex"), citationFile(release, where, "csl-json")];
}

/** A file's content in pieces of about 64 KiB (many small strings make a slow stream). */
export const fileContent = (file: ExportFile) => inPieces(file.content());
export interface ManifestFile {
  path: string;
  format: ExportFileFormat;
  mediaType: string;
  table: ExportTableName | null;
  /** Data rows (the CSV's header not counted); null for the citation files. */
  rows: number | null;
  bytes: number;
  sha256: string;
}

/** Hands the event loop back between two pieces of a long computation (the caller's timer: this module does no I/O). */
export type Pause = () => Promise<void>;

/**
 * What one pass over a file measures as its content goes by: bytes, digest and the parts its
 * writer yielded (the CSV writer yields one part per line: the header, then a row each; a quoted
 * cell's line break is no row). `pieces()` yields the content in pieces of about 64 KiB.
 */
class Measured {
  private readonly hash = createHash("sha256");
  private bytes = 0;
  private parts = 0;

  constructor(readonly file: ExportFile) {}

  *pieces(): Generator<string> {
    const counted = function* (this: Measured) {
      for (const part of this.file.content()) {
        this.parts += 1;
        yield part;
      }
    }.call(this);
    for (const piece of inPieces(counted)) {
      this.hash.update(piece, "utf8");
      this.bytes += Buffer.byteLength(piece, "utf8");
      yield piece;
    }
  }

  /** The file's entry in the manifest, once its content has gone by. */
  entry(): ManifestFile {
    const { file } = this;
    return {
      path: file.path,
      format: file.format,
      mediaType: MEDIA_TYPES[file.format],
      table: file.table,
      rows: file.format === "csv" ? this.parts - 1 : null,
      bytes: this.bytes,
      sha256: this.hash.digest("hex"),
    };
  }
}

/** Rows of each table from its CSV entry (the JSON holds the same rows). */
function withRows(entries: ManifestFile[]): ManifestFile[] {
  const rowsOf = new Map(entries.flatMap((e) => (e.format === "csv" && e.table ? [[e.table, e.rows]] : [])));
  return entries.map((e) => ({ ...e, rows: e.table ? (rowsOf.get(e.table) ?? null) : null }));
}

/** The manifest of a release's export from its measured files: what it holds, how to check it and how to cite it. */
function manifestOf(release: ReleaseData, where: ExportOrigin, files: ManifestFile[]) {
  const citation = citationOf(release, where);
  return {
    format: "market-positioning-release-export" as const,
    formatVersion: EXPORT_FORMAT_VERSION,
    marketId: release.marketId,
    name: release.name,
    release: release.release,
    lastUpdated: release.lastUpdated,
    methodologyVersion: release.methodologyVersion,
    material: release.material,
    licence: { ...DATA_LICENCE },
    files: withRows(files),
    tables: exportTables(release).map((table) => ({
      name: table.name,
      description: table.description,
      columns: table.columns.map((c: ExportColumn) => ({ ...c })),
    })),
    citation: { bibtex: bibtex(citation), csl: cslItem(citation) },
  };
}

export type ExportManifest = ReturnType<typeof manifestOf>;

/**
 * The manifest, every file measured in one pass each; pauses after each piece, so a large release
 * (80 MB of text at 1,000 products × 60 countries) is measured without holding the event loop.
 */
export async function exportManifest(release: ReleaseData, where: ExportOrigin, pause: Pause): Promise<ExportManifest> {
  const entries: ManifestFile[] = [];
  for (const file of exportFiles(release, where)) {
    const measured = new Measured(file);
    for (const _ of measured.pieces()) await pause();
    entries.push(measured.entry());
  }
  return manifestOf(release, where, entries);
}

/** The manifest's name in an archive. */
export const MANIFEST_FILE = "manifest.json";

/** The folder an archive's files are in, so unpacking it makes one folder. */
export const archiveFolder = (release: ReleaseData) => `${release.marketId}-release-${release.release}`;

/** A downloaded file's name: the market and release before the file's own name. */
export const downloadName = (release: ReleaseData, path: string) => `${archiveFolder(release)}-${path}`;

/** One file of the export as a download, named for its market and release. */
export const downloadOf = (release: ReleaseData, file: ExportFile): Download => ({
  fileName: downloadName(release, file.path),
  mediaType: MEDIA_TYPES[file.format],
  content: () => fileContent(file),
});

/**
 * The whole release as a ZIP archive, written as it is read: every file in one folder, measured as
 * it goes into the archive, then the manifest of what went in (the same manifest the manifest
 * operation answers, indented).
 */
export function* releaseArchive(release: ReleaseData, where: ExportOrigin): Generator<Uint8Array> {
  const folder = archiveFolder(release);
  const measured = exportFiles(release, where).map((file) => new Measured(file));
  const entries = [
    ...measured.map((m) => ({ path: `${folder}/${m.file.path}`, content: () => m.pieces() })),
    {
      path: `${folder}/${MANIFEST_FILE}`,
      content: () => [
        `${JSON.stringify(
          manifestOf(
            release,
            where,
            measured.map((m) => m.entry()),
          ),
          null,
          2,
        )}\n`,
      ],
    },
  ];
  yield* zipArchive(entries, new Date(release.lastUpdated));
}
