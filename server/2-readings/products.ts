/**
 * The products of a release, as a caller needs them to name one: id, name, vendor and offerings
 * (the default first, then as the catalogue lists them), with the controls each offering satisfies.
 */
import type { ReleaseData } from "./release";

export function products(release: ReleaseData) {
  return {
    marketId: release.marketId,
    release: release.release,
    lastUpdated: release.lastUpdated,
    products: release.definition.products.map((product) => ({
      productId: product.productId,
      name: product.name,
      vendor: product.vendor,
      offerings: [...product.offerings]
        .sort((a, b) => Number(b.default === true) - Number(a.default === true))
        .map((offering) => ({
          id: offering.id,
          name: offering.name,
          default: offering.default === true,
          satisfies: [...offering.satisfies],
        })),
    })),
  };
}
