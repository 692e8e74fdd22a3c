/**
 * Decoded releases and the readings computed from them, kept in memory. A release never changes
 * once stored, so an entry is never invalidated: it is named by its release id, per store, and
 * only the least recently used fall out. Pure: the caller passes how to load a release.
 */
import type { ReleaseData } from "./release";

export interface LoadedRelease {
  data: ReleaseData;
  /** A reading of this release, computed once per key. */
  reading<T>(key: string, compute: (release: ReleaseData) => T): T;
}

interface Entry {
  data: Promise<ReleaseData>;
  readings: Map<string, unknown>;
  /** The release once decoded, with its readings: handed out as it is, without awaiting anything. */
  loaded?: LoadedRelease;
}

/** Told of every lookup: of a decoded release ("releases") or of a computed reading ("readings"). */
export type CacheObserver = (cache: "releases" | "readings", hit: boolean) => void;

export class ReadingsCache<Store extends object> {
  private readonly stores = new WeakMap<Store, Map<number, Entry>>();

  constructor(
    private readonly maxReleases = 16,
    private readonly observe: CacheObserver = () => {},
  ) {}

  /**
   * A release already decoded, at once (no promise: what is in memory is not awaited); undefined
   * when it is not, or not yet, decoded: then `release` loads it.
   */
  releaseNow(store: Store, id: number): LoadedRelease | undefined {
    const cache = this.stores.get(store);
    const entry = cache?.get(id);
    if (!cache || !entry?.loaded) return undefined;
    this.observe("releases", true);
    cache.delete(id); // re-insert: most recently used last
    cache.set(id, entry);
    return entry.loaded;
  }

  async release(store: Store, id: number, load: () => Promise<ReleaseData>): Promise<LoadedRelease> {
    let cache = this.stores.get(store);
    if (!cache) {
      cache = new Map();
      this.stores.set(store, cache);
    }
    let entry = cache.get(id);
    this.observe("releases", entry !== undefined);
    if (entry) {
      cache.delete(id); // re-insert: most recently used last
    } else {
      entry = { data: load(), readings: new Map() };
      const loading = cache;
      entry.data.catch(() => loading.delete(id)); // a failed load is tried again next time
    }
    cache.set(id, entry);
    while (cache.size > this.maxReleases) cache.delete(cache.keys().next().value as number);
    const data = await entry.data;
    entry.loaded ??= this.loadedOf(data, entry.readings);
    return entry.loaded;
  }

  private loadedOf(data: ReleaseData, readings: Map<string, unknown>): LoadedRelease {
    return {
      data,
      reading: <T>(key: string, compute: (release: ReleaseData) => T): T => {
        const hit = readings.has(key);
        this.observe("readings", hit);
        if (!hit) {
          const value = compute(data);
          readings.set(key, value);
          // A computation that fails (a full worker pool, …) is tried again by the next caller.
          if (value instanceof Promise)
            value.catch(() => {
              if (readings.get(key) === value) readings.delete(key);
            });
        }
        return readings.get(key) as T;
      },
    };
  }
}
