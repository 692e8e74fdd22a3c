/** The four readings of a market release; each calls the pure readings code on a cached release. */
import { loadComparableRelease, loadRelease } from "../../catalog/releases";
import { OPERATIONS } from "../../domain/operations";
import { invalidRequest, notFound } from "../../errors/api-error";
import { compareReleases } from "../../readings/changes";
import { capabilityIndex, delta, maxReading, snapshot } from "../../readings/readings";
import type { ReleaseData } from "../../readings/release";
import type { ApiContext } from "../context";
import { cacheReading } from "../http-cache";
import {
  capaIndexSchema,
  changesInput,
  changesSchema,
  deltaInput,
  deltaSchema,
  maxSchema,
  releaseInput,
  servicemaxInput,
  snapshotSchema,
} from "../schemas";
import { apiProcedure, createRouter, operationMeta } from "../trpc";

async function releaseFor(ctx: ApiContext, marketId: string, release: number | undefined) {
  const loaded = await loadRelease(ctx.db, marketId, release);
  if (!loaded)
    throw notFound(
      release === undefined ? `No market "${marketId}".` : `Market "${marketId}" has no release ${release}.`,
    );
  return loaded;
}

/** The country a reading engages: the caller's, else the organization's home country. */
function countryFor(ctx: ApiContext, countries: ReadonlyMap<string, unknown>, release: number, country?: string) {
  const code = country ?? ctx.defaultCountry;
  if (!countries.has(code))
    throw invalidRequest(
      `Unknown country "${code}" for release ${release}. GET /v1/geographies lists the valid countries.`,
      [{ path: "country", message: `"${code}" is not a geography of this release` }],
    );
  return code;
}

/**
 * One reading of a release: the release the request names, the country it engages (for readings
 * that take one), ETag and caching, and the payload computed once per release and country.
 */
async function serveReading<T>(
  ctx: ApiContext,
  input: { marketId: string; release?: number; country?: string },
  name: string,
  compute: (release: ReleaseData, country: string) => T,
  { engagesCountry }: { engagesCountry: boolean },
): Promise<T> {
  const loaded = await releaseFor(ctx, input.marketId, input.release);
  const { marketId, release, countries } = loaded.data;
  const country = engagesCountry ? countryFor(ctx, countries, release, input.country) : "";
  // The ETag names what the bytes depend on; view is left out: map and bars are the same bytes.
  cacheReading(ctx, [marketId, release, name, ...(country ? [country] : [])], input.release !== undefined);
  return loaded.reading(country ? `${name}:${country}` : name, (data) => compute(data, country));
}

/**
 * The comparison of two releases: `to` (default latest) against `from` (default `to` − 1), under
 * the country's controls. The pair is immutable, so the ETag holds for good once both are named.
 */
async function serveChanges(
  ctx: ApiContext,
  input: { marketId: string; from?: number; to?: number; country?: string },
) {
  const later = await loadComparableRelease(ctx.db, input.marketId, input.to);
  if (!later)
    throw notFound(
      input.to === undefined
        ? `No market "${input.marketId}".`
        : `Market "${input.marketId}" has no release ${input.to}.`,
    );
  const to = later.release;
  const fromNumber = input.from ?? to.release - 1;
  if (fromNumber < 1)
    throw notFound(
      `Market "${input.marketId}" has only release ${to.release}: there is no earlier release to compare with.`,
    );
  if (fromNumber >= to.release)
    throw invalidRequest(`from (${fromNumber}) must be an earlier release than to (${to.release}).`, [
      { path: "from", message: "must be less than to" },
    ]);
  const earlier = await loadComparableRelease(ctx.db, input.marketId, fromNumber);
  if (!earlier) throw notFound(`Market "${input.marketId}" has no release ${fromNumber}.`);
  const country = countryFor(ctx, to.countries, to.release, input.country);
  if (!earlier.release.countries.has(country))
    throw invalidRequest(
      `Country "${country}" was not a geography of release ${fromNumber}; compare from a later release.`,
      [{ path: "country", message: `"${country}" is not a geography of release ${fromNumber}` }],
    );
  cacheReading(ctx, [to.marketId, fromNumber, to.release, "changes", country], input.to !== undefined);
  return later.loaded.reading(`changes:${fromNumber}:${country}`, () => compareReleases(earlier.release, to, country));
}

const READINGS = "Readings";

export const readingsRouter = createRouter({
  snapshot: apiProcedure
    .meta(operationMeta(OPERATIONS.snapshot, READINGS))
    .input(releaseInput)
    .output(snapshotSchema)
    .query(({ ctx, input }) => serveReading(ctx, input, "snapshot", snapshot, { engagesCountry: false })),

  capaindex: apiProcedure
    .meta(operationMeta(OPERATIONS.capaindex, READINGS))
    .input(releaseInput)
    .output(capaIndexSchema)
    .query(({ ctx, input }) => serveReading(ctx, input, "capaindex", capabilityIndex, { engagesCountry: false })),

  servicemax: apiProcedure
    .meta(operationMeta(OPERATIONS.servicemax, READINGS))
    .input(servicemaxInput)
    .output(maxSchema)
    .query(({ ctx, input }) => serveReading(ctx, input, "servicemax", maxReading, { engagesCountry: true })),

  delta: apiProcedure
    .meta(operationMeta(OPERATIONS.delta, READINGS))
    .input(deltaInput)
    .output(deltaSchema)
    .query(({ ctx, input }) => serveReading(ctx, input, "delta", delta, { engagesCountry: true })),

  changes: apiProcedure
    .meta(operationMeta(OPERATIONS.changes, READINGS))
    .input(changesInput)
    .output(changesSchema)
    .query(({ ctx, input }) => serveChanges(ctx, input)),
});
