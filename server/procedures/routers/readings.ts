/** The four readings of a market release; each calls the pure readings code on a cached release. */
import { loadRelease } from "../../catalog/releases";
import { OPERATIONS } from "../../domain/operations";
import { invalidRequest, notFound } from "../../errors/api-error";
import { capabilityIndex, delta, maxReading, snapshot } from "../../readings/readings";
import type { ReleaseData } from "../../readings/release";
import type { ApiContext } from "../context";
import { cacheReading } from "../http-cache";
import {
  capaIndexSchema,
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
});
