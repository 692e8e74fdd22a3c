/** What the export cache and its worker thread agree on: the folder's layout and their messages. */

/** The archive's name in a built folder (the table files keep their own names beside it). */
export const ARCHIVE_FILE = "release.zip";

/** What the worker is asked to write: one release's export, at an origin, into a folder. */
export interface BuildRequest {
  origin: string;
  folder: string;
}

/** What it wrote: every file's size in bytes, by its name in the folder. */
export interface BuiltExport {
  files: Record<string, number>;
}
