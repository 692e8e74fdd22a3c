/**
 * What a reading is about, resolved from its input the one way every reading resolves it: the
 * release (or the pair of releases a comparison names), answered 404 when the market or release
 * does not exist, and the country whose controls are engaged, answered 400 when the release was
 * not scored for it. The resolved values name the answer (ETag, cache key), not the raw input: an
 * omitted release and `release=<latest>` are the same bytes.
 */

import { invalidRequest, notFound } from "../1-errors/api-error";
import type { ReleaseData } from "../2-readings/release";
import { type LoadedRelease, loadedReleaseNow, loadRelease } from "../3-catalog/releases";
import type { ApiContext } from "./context";
import { LISTS_COUNTRIES, LISTS_MARKETS } from "./pointers";

export interface ReadingScope {
  /** The release read (for a comparison: the later one, `to`). */
  release: ReleaseData;
  /** For a comparison: the earlier release, `from`. */
  earlier?: ReleaseData;
  /** For a history: every release from 1 to `release`, in order. */
  history?: ReleaseData[];
  /** The country engaged, or null when the reading engages none. */
  country: string | null;
  /** A value derived from the release, computed once per release and key (e.g. its scoring frame). */
  cached<T>(key: string, compute: (release: ReleaseData) => T): T;
  /** The service's public origin, for answers that link to it (they are named by it too). */
  origin: string;
}

/** What a resolved reading is named by, besides its market and operation. */
export interface ResolvedScope {
  scope: ReadingScope;
  loaded: LoadedRelease;
  /** The release numbers it reads, in order (`from`, `to` for a comparison). */
  releases: number[];
  /** Whether the caller named the release(s), so the answer is immutable for good. */
  pinned: boolean;
}

/** Not found: no such market, or (saying which there are) no such release of it. */
async function noRelease(ctx: ApiContext, marketId: string, release: number | undefined) {
  const latest = release === undefined ? undefined : await loadRelease(ctx.db, marketId);
  if (!latest) return notFound(`No market "${marketId}".`, LISTS_MARKETS);
  const only = latest.data.release;
  return notFound(
    `Market "${marketId}" has no release ${release}: its releases are ${only === 1 ? "1" : `1 to ${only}`}.`,
  );
}

async function releaseOf(ctx: ApiContext, marketId: string, release: number | undefined) {
  const loaded = await loadRelease(ctx.db, marketId, release);
  if (!loaded) throw await noRelease(ctx, marketId, release);
  return loaded;
}

/** The country a reading engages: the caller's, else (with `home`) the organization's home country. */
function countryOf(
  ctx: ApiContext,
  release: ReleaseData,
  country: string | undefined,
  omitted: "home" | "optional",
): string | null {
  const code = country ?? (omitted === "home" ? ctx.defaultCountry : undefined);
  if (code === undefined) return null;
  if (!release.countries.has(code))
    throw invalidRequest(
      `Unknown country "${code}" for release ${release.release}.`,
      [{ path: "country", message: `"${code}" is not a geography of this release` }],
      LISTS_COUNTRIES,
    );
  return code;
}

interface ScopeInput {
  marketId: string;
  release?: number;
  from?: number;
  to?: number;
  country?: string;
}

type How = { releases: "one" | "pair" | "history"; country?: "home" | "optional" };

/** The scope of a reading of one release. */
function oneRelease(ctx: ApiContext, input: ScopeInput, how: How, loaded: LoadedRelease): ResolvedScope {
  const release = loaded.data;
  const country = how.country ? countryOf(ctx, release, input.country, how.country) : null;
  return {
    scope: { release, country, cached: loaded.reading, origin: ctx.origin },
    loaded,
    releases: [release.release],
    pinned: input.release !== undefined,
  };
}

/**
 * The scope of a reading: at once, when it reads one release that is in memory (the common call;
 * a refusal is then thrown, not returned as a rejected promise), else once loaded.
 */
export function resolveScope(ctx: ApiContext, input: ScopeInput, how: How): ResolvedScope | Promise<ResolvedScope> {
  if (how.releases === "one") {
    const loaded = loadedReleaseNow(ctx.db, input.marketId, input.release);
    if (loaded) return oneRelease(ctx, input, how, loaded);
  }
  return loadScope(ctx, input, how);
}

async function loadScope(ctx: ApiContext, input: ScopeInput, how: How): Promise<ResolvedScope> {
  if (how.releases === "history") {
    // Every release up to `release`: named by that release alone, since releases never change.
    const loaded = await releaseOf(ctx, input.marketId, input.release);
    const release = loaded.data;
    const history = await Promise.all(
      Array.from({ length: release.release - 1 }, async (_, i) => (await releaseOf(ctx, input.marketId, i + 1)).data),
    );
    const country = how.country ? countryOf(ctx, release, input.country, how.country) : null;
    return {
      scope: { release, history: [...history, release], country, cached: loaded.reading, origin: ctx.origin },
      loaded,
      releases: [release.release],
      pinned: input.release !== undefined,
    };
  }
  if (how.releases === "one") return oneRelease(ctx, input, how, await releaseOf(ctx, input.marketId, input.release));
  // A comparison: `to` (default the latest) against `from` (default `to` − 1).
  const loaded = await releaseOf(ctx, input.marketId, input.to);
  const to = loaded.data;
  const fromNumber = input.from ?? to.release - 1;
  if (fromNumber < 1)
    throw notFound(
      `Market "${input.marketId}" has only release ${to.release}: there is no earlier release to compare with.`,
    );
  if (fromNumber >= to.release)
    throw invalidRequest(`from (${fromNumber}) must be an earlier release than to (${to.release}).`, [
      { path: "from", message: "must be less than to" },
    ]);
  const earlier = (await releaseOf(ctx, input.marketId, fromNumber)).data;
  const country = how.country ? countryOf(ctx, to, input.country, how.country) : null;
  if (country !== null && !earlier.countries.has(country))
    throw invalidRequest(
      `Country "${country}" was not a geography of release ${fromNumber}; compare from a later release.`,
      [{ path: "country", message: `"${country}" is not a geography of release ${fromNumber}` }],
    );
  return {
    scope: { release: to, earlier, country, cached: loaded.reading, origin: ctx.origin },
    loaded,
    releases: [fromNumber, to.release],
    pinned: input.to !== undefined,
  };
}
