/**
 * What publishing a market file would store, built in memory and never written: the same checks
 * and scoring as publishMarket, the release it would number, decoded as the readings decode a
 * stored one, beside the market's latest release. `ops catalog preview` compares the two.
 */
import type { Database } from "../../db/client";
import type { MarketFile } from "../1-domain/market-definition";
import type { ReleaseData } from "../2-readings/release";
import {
  archivedRefusal,
  decodeRelease,
  findRelease,
  type PublishOptions,
  readMarketStatus,
  readReleaseById,
  releaseRecord,
  scoreForPublishing,
} from "./store";

export interface ReleasePreview {
  /** The market's latest release, with what it scored; undefined for a new market. */
  latest: ReleaseData | undefined;
  /** The release publishing the file now would store (not material, no notes). */
  next: ReleaseData;
}

export async function previewMarket(
  db: Database,
  file: string,
  definition: MarketFile,
  options: { publishedAt: Date; progress?: PublishOptions["progress"] },
): Promise<ReleasePreview> {
  const scoring = await scoreForPublishing(db, file, definition, options);
  const status = await readMarketStatus(db, definition.marketId);
  if (status === "archived") throw archivedRefusal(definition.marketId);
  const pointer = status ? await findRelease(db, definition.marketId) : undefined;
  const latest = pointer ? await readReleaseById(db, pointer.id) : undefined;
  const record = releaseRecord(definition, scoring, (latest?.release ?? 0) + 1, {
    notes: "",
    material: false,
    publishedAt: options.publishedAt,
  });
  const results = scoring.scored.countries.map((result) => ({ country: result.country, result }));
  return { latest, next: decodeRelease(record, results) };
}
