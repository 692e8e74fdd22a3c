/** What the export cache and its worker thread agree on: the folder's layout and their messages. */

/** The archive's name in a built folder (the table files keep their own names beside it). */
export const ARCHIVE_FILE = "release.zip";

/** What the worker task is asked to write, and what it wrote (named with the pool's tasks). */
export type { BuildRequest, BuiltExport } from "../3-workers/tasks";
