/**
 * Decoded releases kept in memory. A release never changes once stored, so its decoded form — and
 * every reading computed from it — is cached by release id, per database, without invalidation.
 * Which release is the latest (and whether the market is listed) is cached too, and forgotten on
 * every catalogue change (server/cache/changes.ts).
 */
import type { Database } from "../../db/client";
import { ChangeAwareCache } from "../cache/changes";
import type { ReleaseData } from "../readings/release";
import { findRelease, readReleaseById } from "./store";

const MAX_RELEASES = 16;

interface CachedRelease {
  data: Promise<ReleaseData>;
  readings: Map<string, unknown>;
}

const caches = new WeakMap<Database, Map<number, CachedRelease>>();

export interface LoadedRelease {
  data: ReleaseData;
  /** A reading of this release, computed once per key. */
  reading<T>(key: string, compute: (release: ReleaseData) => T): T;
}

type Pointer = Awaited<ReturnType<typeof findRelease>>;

/** Which release a market's request means, forgotten whenever the catalogue changes. */
const pointers = new ChangeAwareCache<{ found: Pointer }>("catalogue");

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
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let entry = cache.get(pointer.id);
  if (entry) {
    cache.delete(pointer.id); // re-insert: most recently used last
  } else {
    entry = { data: readReleaseById(db, pointer.id), readings: new Map() };
    entry.data.catch(() => cache?.delete(pointer.id));
  }
  cache.set(pointer.id, entry);
  while (cache.size > MAX_RELEASES) cache.delete(cache.keys().next().value as number);
  const { readings } = entry;
  const data = await entry.data;
  return {
    data,
    reading: <T>(key: string, compute: (release: ReleaseData) => T): T => {
      if (!readings.has(key)) readings.set(key, compute(data));
      return readings.get(key) as T;
    },
  };
}
