/**
 * A release scored in memory, as publishing would store it and the readings decode it, without a
 * database: a market file and geographies in, the one ReleaseData type out (unit tests of what is
 * computed from whole releases, such as exports).
 */

import type { Control, Geography, MarketFile } from "@/server/1-domain/market-definition";
import type { ReleaseData } from "@/server/2-readings/release";
import { scoreMarket } from "@/server/2-scoring/engine";
import { analyseRelease, decodeRelease, releaseRecord } from "@/server/3-catalog/store";

export function scoredRelease(
  market: MarketFile,
  geographies: Geography[],
  controls: Control[],
  { release = 1, publishedAt = new Date("2026-05-04T09:00:00.000Z"), draws = 200 } = {},
): ReleaseData {
  const scored = scoreMarket(market, geographies);
  const record = releaseRecord(market, { controls, geographies, scored }, release, {
    notes: "",
    material: false,
    publishedAt,
  });
  return decodeRelease(
    { ...record, sensitivity: analyseRelease(market, geographies, release, draws) },
    scored.countries.map((result) => ({ country: result.country, result })),
  );
}
