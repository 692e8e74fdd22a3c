/** The snapshot reading of one release (payload: docs/interface.md). Pure: a release in, a payload out. */
import type { ReleaseData } from "./release";
import { analysisOf, entryOf } from "./sensitivity-entries";

export function snapshot(release: ReleaseData) {
  const sensitivity = release.sensitivity;
  return {
    marketId: release.marketId,
    name: release.name,
    release: release.release,
    lastUpdated: release.lastUpdated,
    methodologyVersion: release.methodologyVersion,
    methodology: release.methodology,
    dimensions: release.dimensions,
    products: release.products.map((product) => ({
      ...product,
      uncertainty: entryOf(sensitivity.products, product.productId, "score"),
    })),
    uncertainty: analysisOf(sensitivity),
  };
}
