/** The four readings of a market release; each calls the pure readings code on a cached release. */
import { loadRelease } from "../../catalog/release-cache";
import { invalidRequest, notFound } from "../../errors/api-error";
import { capabilityIndex, delta, maxReading, snapshot } from "../../readings/readings";
import type { ReleaseData } from "../../readings/release";
import type { ApiContext } from "../context";
import { cacheReading } from "../http-cache";
import { OPERATIONS } from "../operations";
import {
  capaIndexSchema,
  deltaInput,
  deltaSchema,
  maxSchema,
  releaseInput,
  servicemaxInput,
  snapshotSchema,
} from "../schemas";
import { apiProcedure, createRouter } from "../trpc";

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
    .meta({
      operation: OPERATIONS.snapshot,
      openapi: {
        method: "GET",
        path: "/markets/{marketId}/snapshot",
        tags: [READINGS],
        protect: true,
        summary: "Market snapshot",
        description:
          "Every product of the market with its published Innovation, Control and Scale scores and bands, the dimensions with their band cutoffs and indicators, and the methodology text to quote verbatim. Costs 5 credits.",
      },
    })
    .input(releaseInput)
    .output(snapshotSchema)
    .query(({ ctx, input }) => serveReading(ctx, input, "snapshot", snapshot, { engagesCountry: false })),

  capaindex: apiProcedure
    .meta({
      operation: OPERATIONS.capaindex,
      openapi: {
        method: "GET",
        path: "/markets/{marketId}/capaindex",
        tags: [READINGS],
        protect: true,
        summary: "Capability Index",
        description:
          "Products ranked by published Innovation, no controls applied (competition ranking; ties by name). Costs 2 credits.",
      },
    })
    .input(releaseInput)
    .output(capaIndexSchema)
    .query(({ ctx, input }) => serveReading(ctx, input, "capaindex", capabilityIndex, { engagesCountry: false })),

  servicemax: apiProcedure
    .meta({
      operation: OPERATIONS.servicemax,
      openapi: {
        method: "GET",
        path: "/markets/{marketId}/servicemax",
        tags: [READINGS],
        protect: true,
        summary: "Max reading",
        description:
          "Products ranked by the Innovation they retain with every sovereign control of the country engaged; each product off and on, with the distance. Costs 3 credits.",
      },
    })
    .input(servicemaxInput)
    .output(maxSchema)
    .query(({ ctx, input }) => serveReading(ctx, input, "servicemax", maxReading, { engagesCountry: true })),

  delta: apiProcedure
    .meta({
      operation: OPERATIONS.delta,
      openapi: {
        method: "GET",
        path: "/markets/{marketId}/delta",
        tags: [READINGS],
        protect: true,
        summary: "Delta reading",
        description:
          "Each product's published scores, its scores under the country's sovereign controls, and the distance. `view` only picks the chart a client opens first; the body is identical for map and bars. Costs 3 credits.",
      },
    })
    .input(deltaInput)
    .output(deltaSchema)
    .query(({ ctx, input }) => serveReading(ctx, input, "delta", delta, { engagesCountry: true })),
});
