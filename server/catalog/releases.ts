/**
 * Which release a request means, and that release decoded with its readings. Which release is
 * the latest (and whether the market is listed) is cached and forgotten on every catalogue change
 * (db/changes.ts); the decoded release and its readings live in the readings cache, which never
 * needs forgetting: a stored release is immutable.
 */

import { ChangeAwareCache } from "../../db/changes";
import type { Database } from "../../db/client";
import { serviceMetrics } from "../observability/metrics";
import { type LoadedRelease, ReadingsCache } from "../readings/cache";
import type { ComparableRelease } from "../readings/changes";
import { findRelease, readReleaseById, readScoredInputs } from "./store";

export type { LoadedRelease } from "../readings/cache";

const readings = new ReadingsCache<Database>(16, (cache, hit) => serviceMetrics().cacheLookup(cache, hit));

type Pointer = Awaited<ReturnType<typeof findRelease>>;

/** Which release a market's request means, forgotten whenever the catalogue changes. */
const pointers = new ChangeAwareCache<{ found: Pointer }>("catalogue", { name: "release-pointers" });

async function releasePointer(db: Database, marketId: string, release?: number): Promise<Pointer> {
  const key = `${marketId}\u0000${release ?? "latest"}`;
  const cached = pointers.get(db, key);
  if (cached) return cached.found;
  const begun = pointers.begin();
  const found = await findRelease(db, marketId, release);
  // Unknown markets are remembered too (404s stay cheap); there are only so many keys: see limit.
  pointers.set(db, key, { found }, begun);
  return found;
}

/** The latest (or numbered) release of a listed market; undefined when there is none. */
export async function loadRelease(
  db: Database,
  marketId: string,
  release?: number,
): Promise<LoadedRelease | undefined> {
  const pointer = await releasePointer(db, marketId, release);
  if (!pointer) return undefined;
  return readings.release(db, pointer.id, () => readReleaseById(db, pointer.id));
}

/** What releases scored (definitions, geographies), by release id: immutable, the last 16 kept. */
const scoredInputs = new WeakMap<Database, Map<number, ReturnType<typeof readScoredInputs>>>();

function scoredInputsOf(db: Database, id: number) {
  let byId = scoredInputs.get(db);
  if (!byId) {
    byId = new Map();
    scoredInputs.set(db, byId);
  }
  let inputs = byId.get(id);
  if (!inputs) {
    inputs = readScoredInputs(db, id);
    const cache = byId;
    inputs.catch(() => cache.delete(id));
    byId.set(id, inputs);
    while (byId.size > 16) byId.delete(byId.keys().next().value as number);
  }
  return inputs;
}

/**
 * A release with what it scored, for a comparison (server/readings/changes.ts), and the cache of
 * its readings (a comparison is computed once per earlier release and country).
 */
export async function loadComparableRelease(
  db: Database,
  marketId: string,
  release?: number,
): Promise<{ release: ComparableRelease; loaded: LoadedRelease } | undefined> {
  const pointer = await releasePointer(db, marketId, release);
  if (!pointer) return undefined;
  const [loaded, inputs] = await Promise.all([
    readings.release(db, pointer.id, () => readReleaseById(db, pointer.id)),
    scoredInputsOf(db, pointer.id),
  ]);
  return { release: { ...loaded.data, ...inputs }, loaded };
}
