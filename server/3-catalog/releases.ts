/**
 * The one way to load a release: which release a request means, and that release decoded (what it
 * published and what it scored, one type: ReleaseData) with its readings. Which release is
 * the latest (and whether the market is listed) is cached and forgotten on every catalogue change
 * (db/change-feed.ts); the decoded release and its readings live in the readings cache, which never
 * needs forgetting: a stored release is immutable.
 */

import { ChangeAwareCache } from "../../db/change-feed";
import type { Database } from "../../db/client";
import { type LoadedRelease, ReadingsCache } from "../2-readings/cache";
import { serviceMetrics } from "../3-observability/metrics";
import { findRelease, readReleaseById } from "./store";

export type { LoadedRelease } from "../2-readings/cache";

/**
 * One cache per process, not per copy of this module: the routes Node serves itself (/v1, /mcp,
 * embeds) and Next's bundles of the dashboard each load their own copy, and a large release decoded
 * once per copy would cost its memory, and its loading time, once per copy.
 */
const processWide = globalThis as typeof globalThis & { __mpsReleaseReadings?: ReadingsCache<Database> };
processWide.__mpsReleaseReadings ??= new ReadingsCache<Database>(16, (cache, hit) =>
  serviceMetrics().cacheLookup(cache, hit),
);
const readings = processWide.__mpsReleaseReadings;

type Pointer = Awaited<ReturnType<typeof findRelease>>;

/** Which release a market's request means, forgotten whenever the catalogue changes. */
const pointers = new ChangeAwareCache<{ found: Pointer }>("catalogue", { name: "release-pointers" });

const pointerKey = (marketId: string, release?: number) => `${marketId}\u0000${release ?? "latest"}`;

async function releasePointer(db: Database, marketId: string, release?: number): Promise<Pointer> {
  const key = pointerKey(marketId, release);
  const cached = pointers.get(db, key);
  if (cached) return cached.found;
  const begun = pointers.begin();
  const found = await findRelease(db, marketId, release);
  // Unknown markets are remembered too (404s stay cheap); there are only so many keys: see limit.
  pointers.set(db, key, { found }, begun);
  return found;
}

/**
 * The release `loadRelease` would answer, at once when both which release is meant and the release
 * itself are in memory (the common call: nothing is awaited); undefined when either is not, and
 * then `loadRelease` answers (and says 404s).
 */
export function loadedReleaseNow(db: Database, marketId: string, release?: number): LoadedRelease | undefined {
  const pointer = pointers.get(db, pointerKey(marketId, release))?.found;
  return pointer ? readings.releaseNow(db, pointer.id) : undefined;
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
