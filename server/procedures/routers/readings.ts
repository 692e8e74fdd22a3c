/**
 * The readings of a market release; each calls the pure readings code on a cached release. A
 * cached reading is the same object on every call, so its output is validated and serialised once.
 */
import { loadComparableRelease, loadRelease } from "../../catalog/releases";
import { OPERATIONS } from "../../domain/operations";
import { invalidRequest, notFound } from "../../errors/api-error";
import { availabilityMatrix } from "../../readings/availability";
import { compareReleases } from "../../readings/changes";
import { productDetail, scoringFrame, UnknownProductError } from "../../readings/product-detail";
import { capabilityIndex, delta, maxReading, snapshot } from "../../readings/readings";
import type { ReleaseData } from "../../readings/release";
import { whatIfReading } from "../../readings/whatif";
import { checkWhatIfWeights, parseWeightsParam } from "../../scoring/whatif";
import type { ApiContext } from "../context";
import { cacheReading } from "../http-cache";
import {
  availabilitySchema,
  capaIndexSchema,
  changesInput,
  changesSchema,
  deltaInput,
  deltaSchema,
  maxSchema,
  productInput,
  productSchema,
  releaseInput,
  servicemaxInput,
  snapshotSchema,
  whatifInput,
  whatifSchema,
} from "../schemas";
import { apiProcedure, createRouter, operationMeta } from "../trpc";
import { validatedOnce } from "../validated-once";

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

/** A release with what it scored, or 404 as every reading answers. */
async function comparableReleaseFor(ctx: ApiContext, marketId: string, release: number | undefined) {
  const found = await loadComparableRelease(ctx.db, marketId, release);
  if (!found)
    throw notFound(
      release === undefined ? `No market "${marketId}".` : `Market "${marketId}" has no release ${release}.`,
    );
  return found;
}

/**
 * The comparison of two releases: `to` (default latest) against `from` (default `to` − 1), under
 * the country's controls. The pair is immutable, so the ETag holds for good once both are named.
 */
async function serveChanges(
  ctx: ApiContext,
  input: { marketId: string; from?: number; to?: number; country?: string },
) {
  const later = await comparableReleaseFor(ctx, input.marketId, input.to);
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

/**
 * One product's breakdown. The release's field bounds and weight totals are computed once per
 * release (the readings cache); a breakdown itself touches one product, so it is computed per call.
 */
async function serveProduct(
  ctx: ApiContext,
  input: { marketId: string; productId: string; release?: number; country?: string },
) {
  const { release, loaded } = await comparableReleaseFor(ctx, input.marketId, input.release);
  const country =
    input.country === undefined ? null : countryFor(ctx, release.countries, release.release, input.country);
  const frame = loaded.reading("scoring-frame", () => scoringFrame(release.definition));
  let detail: ReturnType<typeof productDetail>;
  try {
    detail = productDetail(release, input.productId, country, frame);
  } catch (error) {
    if (error instanceof UnknownProductError)
      throw notFound(`Market "${release.marketId}" has no product "${input.productId}" in release ${release.release}.`);
    throw error;
  }
  cacheReading(
    ctx,
    [release.marketId, release.release, "product", input.productId, ...(country ? [country] : [])],
    input.release !== undefined,
  );
  return detail;
}

/** Every product under every country: computed once per release. */
async function serveAvailability(ctx: ApiContext, input: { marketId: string; release?: number }) {
  const { release, loaded } = await comparableReleaseFor(ctx, input.marketId, input.release);
  cacheReading(ctx, [release.marketId, release.release, "availability"], input.release !== undefined);
  return loaded.reading("availability", (data) => availabilityMatrix(data, release.geographies));
}

/**
 * The rankings with the caller's weights: computed per call from what the release scored, never
 * cached or stored (the weights are the caller's, the release's readings stay as published).
 */
async function serveWhatIf(
  ctx: ApiContext,
  input: { marketId: string; weights: string; release?: number; country?: string },
) {
  const { release } = await comparableReleaseFor(ctx, input.marketId, input.release);
  const parsed = parseWeightsParam(input.weights);
  const problems =
    parsed.problems.length > 0 ? parsed.problems : checkWhatIfWeights(release.definition, parsed.weights);
  if (problems.length > 0)
    throw invalidRequest(
      `The weights cannot be used: ${problems.map((p) => `${p.path} ${p.message}`).join("; ")}. The snapshot's dimensions list each indicator and its published weight.`,
      problems,
    );
  const country =
    input.country === undefined ? null : countryFor(ctx, release.countries, release.release, input.country);
  return whatIfReading(release, parsed.weights, country);
}

const READINGS = "Readings";

export const readingsRouter = createRouter({
  snapshot: apiProcedure
    .meta(operationMeta(OPERATIONS.snapshot, READINGS))
    .input(releaseInput)
    .output(validatedOnce(snapshotSchema))
    .query(({ ctx, input }) => serveReading(ctx, input, "snapshot", snapshot, { engagesCountry: false })),

  capaindex: apiProcedure
    .meta(operationMeta(OPERATIONS.capaindex, READINGS))
    .input(releaseInput)
    .output(validatedOnce(capaIndexSchema))
    .query(({ ctx, input }) => serveReading(ctx, input, "capaindex", capabilityIndex, { engagesCountry: false })),

  servicemax: apiProcedure
    .meta(operationMeta(OPERATIONS.servicemax, READINGS))
    .input(servicemaxInput)
    .output(validatedOnce(maxSchema))
    .query(({ ctx, input }) => serveReading(ctx, input, "servicemax", maxReading, { engagesCountry: true })),

  delta: apiProcedure
    .meta(operationMeta(OPERATIONS.delta, READINGS))
    .input(deltaInput)
    .output(validatedOnce(deltaSchema))
    .query(({ ctx, input }) => serveReading(ctx, input, "delta", delta, { engagesCountry: true })),

  changes: apiProcedure
    .meta(operationMeta(OPERATIONS.changes, READINGS))
    .input(changesInput)
    .output(validatedOnce(changesSchema))
    .query(({ ctx, input }) => serveChanges(ctx, input)),

  product: apiProcedure
    .meta(operationMeta(OPERATIONS.product, READINGS))
    .input(productInput)
    .output(productSchema)
    .query(({ ctx, input }) => serveProduct(ctx, input)),

  whatif: apiProcedure
    .meta(operationMeta(OPERATIONS.whatif, READINGS))
    .input(whatifInput)
    .output(whatifSchema)
    .query(({ ctx, input }) => serveWhatIf(ctx, input)),

  availability: apiProcedure
    .meta(operationMeta(OPERATIONS.availability, READINGS))
    .input(releaseInput)
    .output(validatedOnce(availabilitySchema))
    .query(({ ctx, input }) => serveAvailability(ctx, input)),
});
