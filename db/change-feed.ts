/**
 * What in-memory caches must forget, and when. Every write the service makes to tokens,
 * organizations' settings, credits grants or the catalogue is announced here at once, in process;
 * writes by other processes (another instance, the CLI) arrive through PostgreSQL's NOTIFY on
 * `mps_changes` (db/migrations/0005), once the database's change feed listens. Caches are used
 * only for databases whose feed listens: anywhere else (tests, the CLI) every read goes to the
 * database, as before.
 */
import { tellCacheLookup } from "./cache-lookups";
import type { Database } from "./client";

export type ChangeTopic = "credentials" | "catalogue";
export const CHANGE_CHANNEL = "mps_changes";

// On globalThis, like the database handle (db/index.ts): Next may load this module in several
// bundles (instrumentation, each route), and they must share one feed.
const shared = globalThis as typeof globalThis & {
  __mpsChanges?: { subscribers: Set<(topic: ChangeTopic) => void>; listening: WeakSet<Database> };
};
shared.__mpsChanges ??= { subscribers: new Set(), listening: new WeakSet() };
const { subscribers, listening } = shared.__mpsChanges;

export function onChange(subscriber: (topic: ChangeTopic) => void): void {
  subscribers.add(subscriber);
}

/** Tells every cache that `topic` changed (for every database: forgetting too much is harmless). */
export function announceChange(topic: ChangeTopic): void {
  for (const subscriber of subscribers) subscriber(topic);
}

/** The feed of this database is (again) listening: anything may have changed while it was not. */
export function feedListening(db: Database): void {
  listening.add(db);
  announceChange("credentials");
  announceChange("catalogue");
}

export function isTopic(value: string): value is ChangeTopic {
  return value === "credentials" || value === "catalogue";
}

/** Whether readings of this database may be cached: its change feed listens. */
export function cachesEnabled(db: Database): boolean {
  return listening.has(db);
}

/**
 * A small per-database cache that forgets on its topic and after `ttlMs` (a safety net for a
 * notification lost while the feed reconnected). Holds at most `limit` entries, oldest out first.
 * Its hits and misses are counted under `name` (mps_cache_hits_total, mps_cache_misses_total)
 * while it is in use; lookups while caches are off are not counted.
 */
export class ChangeAwareCache<V> {
  private maps = new WeakMap<Database, Map<string, { value: V; at: number }>>();
  /** Bumped by every forget: a value read before it must not be stored after it. */
  private generation = 0;
  private readonly name: string;
  private readonly ttlMs: number;
  private readonly limit: number;

  constructor(topic: ChangeTopic, options: { name?: string; ttlMs?: number; limit?: number } = {}) {
    this.name = options.name ?? topic;
    this.ttlMs = options.ttlMs ?? 30_000;
    this.limit = options.limit ?? 10_000;
    onChange((changed) => {
      if (changed !== topic) return;
      this.maps = new WeakMap();
      this.generation++;
    });
  }

  /** Call before reading what will be stored, and pass the result to `set`. */
  begin(): number {
    return this.generation;
  }

  get(db: Database, key: string): V | undefined {
    const value = this.peek(db, key);
    if (cachesEnabled(db)) tellCacheLookup(this.name, value !== undefined);
    return value;
  }

  /** The same, not counted as a lookup (a glance that decides nothing by itself, e.g. at the door). */
  peek(db: Database, key: string): V | undefined {
    if (!cachesEnabled(db)) return undefined;
    const entry = this.maps.get(db)?.get(key);
    return entry !== undefined && performance.now() - entry.at <= this.ttlMs ? entry.value : undefined;
  }

  /** Stores what was read since `begin`, unless the topic changed meanwhile (it may be stale). */
  set(db: Database, key: string, value: V, begun: number): void {
    if (!cachesEnabled(db) || begun !== this.generation) return;
    let map = this.maps.get(db);
    if (!map) {
      map = new Map();
      this.maps.set(db, map);
    }
    map.delete(key);
    map.set(key, { value, at: performance.now() });
    if (map.size > this.limit) map.delete(map.keys().next().value as string);
  }
}
