/**
 * What each product keeps of its Innovation under one country, from the Max reading: the number a
 * table shows beside the published scores, or null where the country excludes the product.
 */
import type { UnderCountry } from "./snapshot-table";

interface MaxLike {
  country: string;
  products: readonly { productId: string; available: boolean; on: { innovation: number } }[];
}

export function underCountry(max: MaxLike): UnderCountry {
  return {
    country: max.country,
    innovation: Object.fromEntries(max.products.map((p) => [p.productId, p.available ? p.on.innovation : null])),
  };
}
