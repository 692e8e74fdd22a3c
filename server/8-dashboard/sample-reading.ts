/**
 * The landing page's sample: one real reading of a demo market that a visitor may see without
 * signing in — the Max reading under one country, computed by the reading's own declaration from
 * the latest release. Free, so throttled per client address; nothing is metered or stored.
 */
import "server-only";
import { headers } from "next/headers";
import { clientNetworkOf } from "../2-http/client-address";
import { publicOriginOf } from "../2-http/origin";
import { loadRelease } from "../3-catalog/releases";
import { listMarkets } from "../3-catalog/store";
import { THROTTLES, throttle } from "../3-limits/throttles";
import { getDatabase } from "../5-database/app-database";
import { computeReading } from "../7-procedures/off-loop";
import { servicemax } from "../7-procedures/operations/servicemax";

/** The country the sample engages when the release was scored for it: many controls, a clear story. */
const SAMPLE_COUNTRY = "FR";

/** The market the sample reads (SAMPLE_MARKET, default the demo's foundation-model APIs) when it is listed. */
const SAMPLE_MARKET = () => process.env.SAMPLE_MARKET || "foundation-model-apis";

/** How many products the sample shows: a first page, whatever the market's size. */
export const SAMPLE_ROWS = 8;

type MaxReading = Awaited<ReturnType<typeof servicemax.compute>>;

export type SampleReading =
  | {
      kind: "reading";
      marketId: string;
      marketName: string;
      countryName: string;
      /** The reading, its products cut to the first SAMPLE_ROWS (the usable first, by rank). */
      reading: MaxReading;
      /** Products in the whole reading, and how many of them are usable under the country. */
      total: number;
      usable: number;
    }
  | { kind: "throttled"; retryAfterSeconds: number }
  | { kind: "none" };

export async function sampleReading(): Promise<SampleReading> {
  const { db } = await getDatabase();
  const requestHeaders = await headers();
  const verdict = await throttle(db, [[THROTTLES.sampleReadingPerClient, clientNetworkOf(requestHeaders)]]);
  if (!verdict.allowed) return { kind: "throttled", retryAfterSeconds: verdict.retryAfterSeconds };
  // The chosen market when it is listed, else the first listed market by id: never "the largest".
  const listed = (await listMarkets(db, { listedOnly: true }))
    .filter((m) => m.release !== null)
    .sort((a, b) => a.marketId.localeCompare(b.marketId));
  const market = listed.find((m) => m.marketId === SAMPLE_MARKET()) ?? listed[0];
  if (!market) return { kind: "none" };
  const loaded = await loadRelease(db, market.marketId);
  if (!loaded) return { kind: "none" };
  const release = loaded.data;
  const country = release.countries.has(SAMPLE_COUNTRY) ? SAMPLE_COUNTRY : [...release.countries.keys()].sort()[0];
  if (!country) return { kind: "none" };
  const geography = release.geographies.find((g) => g.country === country);
  // The reading's own declared computation: the numbers the API answers. Kept with the release
  // under a key of its own (the API's kept answers stay the procedure's), and computed off the event
  // loop for a large market (server/7-procedures/off-loop.ts): a visitor's view costs no CPU that grows
  // with the market.
  const origin = publicOriginOf(requestHeaders);
  const reading = (await loaded.reading(`sample:servicemax:${country}:${origin}`, () =>
    computeReading(
      servicemax,
      { release, country, cached: loaded.reading, origin },
      servicemax.input.parse({ marketId: release.marketId, country }),
    ),
  )) as Awaited<ReturnType<typeof servicemax.compute>>;
  const usable = reading.products.filter((p) => p.available);
  const firstPage = [...usable, ...reading.products.filter((p) => !p.available)].slice(0, SAMPLE_ROWS);
  return {
    kind: "reading",
    marketId: release.marketId,
    marketName: release.name,
    countryName: geography?.name ?? country,
    reading: { ...reading, products: firstPage },
    total: reading.products.length,
    usable: usable.length,
  };
}
