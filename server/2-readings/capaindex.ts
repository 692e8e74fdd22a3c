/** The Capability index reading of one release (payload: docs/interface.md). Pure: a release in, a payload out. */
import { rankBy } from "./rank";
import type { ReleaseData } from "./release";
import { entryOf, oddsOf } from "./sensitivity-entries";

export function capaindex(release: ReleaseData) {
  const ranked = rankBy(release.products, (p) => p.scores.innovation);
  const sensitivity = release.sensitivity;
  return {
    marketId: release.marketId,
    release: release.release,
    lastUpdated: release.lastUpdated,
    products: ranked.map((p) => {
      const { interval, bandSettled } = entryOf(sensitivity.products, p.productId, "score").innovation;
      return {
        rank: p.rank,
        productId: p.productId,
        name: p.name,
        vendor: p.vendor,
        innovation: p.scores.innovation,
        band: p.bands.innovation,
        rankInterval: entryOf(sensitivity.capabilityIndex, p.productId, "rank").rankInterval,
        innovationInterval: interval,
        bandSettled,
        rankOdds: oddsOf(sensitivity.odds?.capabilityIndex, p.productId),
      };
    }),
  };
}
