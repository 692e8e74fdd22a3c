/**
 * The way to a product's page (`/markets/{id}/products/{productId}`) from wherever its name is
 * shown: the release the name was read in, and a country when there is one. The name is text.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import { productPath } from "@/server/dashboard/product-views";

export function productHref(
  marketId: string,
  productId: string,
  query: { release?: number; country?: string } = {},
): string {
  const search = new URLSearchParams();
  if (query.release !== undefined) search.set("release", String(query.release));
  if (query.country) search.set("country", query.country);
  const tail = search.toString();
  return `${productPath(marketId, productId)}${tail ? `?${tail}` : ""}`;
}

/**
 * For a chart's table: the "Product" column drawn as a link to the product's page (the CSV keeps
 * the name as text), every other column as its text.
 */
export function productNameCell(marketId: string, release: number) {
  return (label: string, row: { productId: string; name: string }) =>
    label === "Product" ? (
      <ProductLink marketId={marketId} productId={row.productId} release={release}>
        {row.name}
      </ProductLink>
    ) : undefined;
}

export function ProductLink({
  marketId,
  productId,
  release,
  children,
}: {
  marketId: string;
  productId: string;
  /** The release the name was read in: the product page opens on it. */
  release?: number;
  children: ReactNode;
}) {
  return (
    <Link
      href={productHref(marketId, productId, { release })}
      prefetch={false}
      data-testid="product-link"
      data-product-id={productId}
    >
      {children}
    </Link>
  );
}
