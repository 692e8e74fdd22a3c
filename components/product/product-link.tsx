"use client";
/**
 * The way to a product's page (`/markets/{id}/products/{productId}`) from wherever its name is
 * shown: in the page's reading context (the country, gates and weights the reader is in), on the
 * release the name was read in. The name is text.
 */
import type { ReactNode } from "react";
import { ReadingLink } from "@/components/reading-link";

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
    <ReadingLink
      destination={{ to: "product", marketId, productId }}
      over={release === undefined ? {} : { release: String(release) }}
      data-testid="product-link"
      data-product-id={productId}
    >
      {children}
    </ReadingLink>
  );
}
