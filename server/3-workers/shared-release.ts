/**
 * A release handed to worker threads without copying it for each task: its JSON text, made once
 * in slices on the event loop (server/3-exports/json-in-slices.ts), in a SharedArrayBuffer that every
 * task names. Each thread parses a release once and keeps the few it read last, so a worker
 * computes on a 1,000-product release (some 10 MB of JSON) for the price of one parse per thread.
 *
 * The release's countries travel as entries and its sensitivity (a getter on some releases) as
 * the data it gives, as the export's worker takes them.
 */

import { type ReleaseData, unparsedSensitivity } from "../2-readings/release";
import { jsonPartsInSlices, utf8InSlices } from "./json-in-slices";

export interface SharedRelease {
  /** What names the release's bytes: market, release number and publish time. */
  key: string;
  bytes: SharedArrayBuffer;
}

/** Per process (every copy of this module, Node's and Next's bundles, shares the release objects). */
const processWide = globalThis as typeof globalThis & {
  __mpsSharedReleases?: WeakMap<ReleaseData, Promise<SharedRelease>>;
};
processWide.__mpsSharedReleases ??= new WeakMap();
const shared = processWide.__mpsSharedReleases;

export const releaseKey = (release: ReleaseData) =>
  `${release.marketId}\u0000${release.release}\u0000${release.lastUpdated}`;

/** The release as shared bytes; made once per release object (the release cache keeps the object). */
export function shareRelease(release: ReleaseData): Promise<SharedRelease> {
  let made = shared.get(release);
  if (!made) {
    made = sharedBytes(release);
    shared.set(release, made);
    made.catch(() => shared.delete(release));
  }
  return made;
}

async function sharedBytes(release: ReleaseData): Promise<SharedRelease> {
  // The sensitivity as stored when the event loop never parsed it: the thread parses it. (Read key
  // by key: a spread would call the sensitivity getter, which parses it.)
  const stored = await unparsedSensitivity(release);
  const fields = Object.keys(release)
    .filter((key) => key !== "sensitivity" && key !== "countries")
    .map((key) => [key, release[key as keyof ReleaseData]]);
  const parts = await jsonPartsInSlices({
    ...Object.fromEntries(fields),
    countries: [...release.countries],
    ...(stored === undefined ? { sensitivity: release.sensitivity } : {}),
  });
  // The stored sensitivity goes in as it was read: the object's closing brace moves after it.
  const pieces = stored === undefined ? parts : [...parts.slice(0, -1), ',"sensitivity":', stored, "}"];
  return { key: releaseKey(release), bytes: await utf8InSlices(pieces) };
}

/** The release a thread reads from shared bytes (the countries back as a Map). */
export function releaseFromJson(json: string): ReleaseData {
  const parsed = JSON.parse(json) as Omit<ReleaseData, "countries"> & { countries: [string, unknown][] };
  return { ...parsed, countries: new Map(parsed.countries) } as ReleaseData;
}

/** The releases this thread parsed last, by key. */
const opened = new Map<string, ReleaseData>();
const OPENED_MAX = 4;

/** On a worker thread: the shared release, parsed once per thread while kept. */
export function openRelease(release: SharedRelease): ReleaseData {
  const found = opened.get(release.key);
  if (found) {
    opened.delete(release.key);
    opened.set(release.key, found);
    return found;
  }
  const data = releaseFromJson(Buffer.from(release.bytes).toString("utf8"));
  opened.set(release.key, data);
  if (opened.size > OPENED_MAX) opened.delete(opened.keys().next().value as string);
  return data;
}
