/**
 * The tasks a worker thread runs, by name: what each takes and gives back. The pool (./pool.ts)
 * and the threads' entry (./worker-entry.mjs) agree on these names.
 */
import type { SharedRelease } from "./shared-release";

/** What an export build is asked to write: one release's export, at an origin, into a folder. */
export interface BuildRequest {
  origin: string;
  folder: string;
}

/** What it wrote: every file's size in bytes, by its name in the folder. */
export interface BuiltExport {
  files: Record<string, number>;
}

/** A reading computed off the event loop: what its declaration's compute is given, releases shared. */
export interface ReadingTask {
  /** The declaration's name (`whatif`, `changes`, …). */
  name: string;
  release: SharedRelease;
  earlier?: SharedRelease;
  country: string | null;
  origin: string;
  input: Record<string, unknown>;
}

export interface Tasks {
  /** An SVG rasterised to PNG at a zoom (./png-task.ts). */
  png: { input: { svg: string; zoom: number }; output: Uint8Array | null };
  /** A release's export written to a folder (../exports/export-worker.ts). */
  export: { input: { request: BuildRequest; release: SharedRelease }; output: BuiltExport };
  /** A reading's declared computation (../procedures/reading-task.ts), named by the declaration's name. */
  reading: { input: ReadingTask; output: string };
}

export type TaskName = keyof Tasks;
export type TaskInput<Name extends TaskName> = Tasks[Name]["input"];
export type TaskOutput<Name extends TaskName> = Tasks[Name]["output"];
