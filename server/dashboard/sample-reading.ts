/**
 * The landing page's sample: one real reading of a demo market that a visitor may see without
 * signing in — the Max reading under one country, computed by the reading's own declaration from
 * the latest release. Free, so throttled per client address; nothing is metered or stored.
 */
import "server-only";
import { headers } from "next/headers";
import { loadRelease } from "../catalog/releases";
import { listMarkets } from "../catalog/store";
import { clientAddress } from "../http/client-address";
import { publicOriginOf } from "../http/origin";
import { THROTTLES, throttle } from "../limits/throttles";
import { servicemax } from "../procedures/operations";
import { getDatabase } from "../startup/database";

/** The country the sample engages when the release was scored for it: many controls, a clear story. */
const SAMPLE_COUNTRY = "FR";

export type SampleReading =
  | {
      kind: "reading";
      marketName: string;
      countryName: string;
      reading: Awaited<ReturnType<typeof servicemax.compute>>;
    }
  | { kind: "throttled"; retryAfterSeconds: number }
  | { kind: "none" };

export async function sampleReading(): Promise<SampleReading> {
  const { db } = await getDatabase();
  const requestHeaders = await headers();
  const verdict = await throttle(db, [[THROTTLES.sampleReadingPerClient, clientAddress(requestHeaders)]]);
  if (!verdict.allowed) return { kind: "throttled", retryAfterSeconds: verdict.retryAfterSeconds };
  // The fullest listed market makes the best sample: the most products (then the first by id).
  const market = (await listMarkets(db, { listedOnly: true }))
    .filter((m) => m.release !== null)
    .sort((a, b) => b.productCount - a.productCount || a.marketId.localeCompare(b.marketId))[0];
  if (!market) return { kind: "none" };
  const loaded = await loadRelease(db, market.marketId);
  if (!loaded) return { kind: "none" };
  const release = loaded.data;
  const country = release.countries.has(SAMPLE_COUNTRY) ? SAMPLE_COUNTRY : [...release.countries.keys()].sort()[0];
  if (!country) return { kind: "none" };
  const geography = release.geographies.find((g) => g.country === country);
  // The reading's own declared computation: the numbers the API answers. Not kept (it is small, and
  // the API's kept answers stay the procedure's alone).
  const reading = await servicemax.compute(
    { release, country, cached: loaded.reading, origin: publicOriginOf(requestHeaders) },
    { marketId: release.marketId, country },
  );
  return { kind: "reading", marketName: release.name, countryName: geography?.name ?? country, reading };
}
