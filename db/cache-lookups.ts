/**
 * Lookups of the in-memory caches over this database (db/change-feed.ts), told to whoever listens:
 * the service's metrics (server/3-observability/metrics.ts) listen from their start, before the
 * database opens. Storage counts nothing itself and imports nothing above it; the listener is kept
 * on globalThis because Next may load this module in several bundles, and every copy must tell
 * the one set of metrics.
 */
export type CacheLookupListener = (cache: string, hit: boolean) => void;

const shared = globalThis as typeof globalThis & { __mpsCacheLookupListener?: CacheLookupListener };

/** One lookup of `cache`: answered from memory (`hit`) or not. */
export function tellCacheLookup(cache: string, hit: boolean): void {
  shared.__mpsCacheLookupListener?.(cache, hit);
}

/** Who is told of every lookup from now on (one listener per process: the last one set). */
export function listenToCacheLookups(listener: CacheLookupListener): void {
  shared.__mpsCacheLookupListener = listener;
}
