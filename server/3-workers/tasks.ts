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

/** Two releases compared under a country, both shared with the thread. */
export interface ComparisonTask {
  from: SharedRelease;
  to: SharedRelease;
  country: string;
}

export interface Tasks {
  /** An SVG rasterised to PNG at a zoom (./png-task.ts). */
  png: { input: { svg: string; zoom: number }; output: Uint8Array | null };
  /**
   * An embed's answers drawn from its bounded charts (../8-embeds/answers-task.ts). Typed by the
   * embeds' surface that asks for them (../8-embeds/answers.ts): this layer sits below it.
   */
  embed: { input: object; output: object };
  /** Two releases compared (./comparison-task.ts), as JSON text. */
  comparison: { input: ComparisonTask; output: string };
  /** A release's export written to a folder (../3-exports/export-worker.ts). */
  export: { input: { request: BuildRequest; release: SharedRelease }; output: BuiltExport };
  /** A reading's declared computation (../7-procedures/reading-task.ts), named by the declaration's name. */
  reading: { input: ReadingTask; output: string };
}

export type TaskName = keyof Tasks;
export type TaskInput<Name extends TaskName> = Tasks[Name]["input"];
export type TaskOutput<Name extends TaskName> = Tasks[Name]["output"];
