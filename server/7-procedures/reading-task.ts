/**
 * A reading computed on a worker thread (./off-loop.ts sends it, server/3-workers/pool.ts runs it):
 * the declaration named, on the releases shared with the thread, with the thread's own cache of
 * what is derived from each release (its scoring frames, …), so the answer is what the event loop
 * would have computed.
 */

import type { ReleaseData } from "../2-readings/release";
import { openRelease, releaseKey } from "../3-workers/shared-release";
import type { ReadingTask } from "../3-workers/tasks";
import { answerSchema, type ReadingDeclaration } from "./declaration";
import { DECLARATIONS } from "./operations";

// biome-ignore lint/suspicious/noExplicitAny: any declaration's input and output
type AnyReading = ReadingDeclaration<any, any>;

const BY_NAME = new Map<string, AnyReading>(
  DECLARATIONS.filter((d) => "compute" in d).map((d) => [`${d.group}.${d.name}`, d as AnyReading]),
);

/** What this thread derived from each release it read lately, by release. */
const derived = new Map<string, Map<string, unknown>>();
const DERIVED_RELEASES = 4;

function cacheOf(release: ReleaseData): Map<string, unknown> {
  const key = releaseKey(release);
  let cache = derived.get(key);
  if (!cache) {
    cache = new Map();
    derived.set(key, cache);
    if (derived.size > DERIVED_RELEASES) derived.delete(derived.keys().next().value as string);
  }
  return cache;
}

/**
 * The answer, validated against the declaration's output as the procedure would, as JSON text: a
 * string crosses to the event loop as one copy of its bytes, where the answer's object graph would
 * be rebuilt object by object (the structured clone of a 1,000 × 36 availability matrix held the
 * event loop longer than parsing its JSON).
 */
export default async function computeReadingTask(task: ReadingTask): Promise<string> {
  const declaration = BY_NAME.get(task.name);
  if (!declaration) throw new Error(`no reading named ${task.name}`);
  const release = openRelease(task.release);
  const earlier = task.earlier ? openRelease(task.earlier) : undefined;
  const cache = cacheOf(release);
  const cached = <T>(key: string, compute: (of: ReleaseData) => T): T => {
    if (!cache.has(key)) cache.set(key, compute(release));
    return cache.get(key) as T;
  };
  const payload = await declaration.compute(
    { release, ...(earlier ? { earlier } : {}), country: task.country, origin: task.origin, cached },
    task.input,
  );
  return JSON.stringify(await answerSchema(declaration).parseAsync(payload));
}
