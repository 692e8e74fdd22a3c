/** The views of a product page, each at its own URL: the segment after /markets/{id}/products/{productId}. */
export const PRODUCT_VIEWS = [
  { segment: "", label: "Overview" },
  { segment: "innovation", label: "Innovation" },
  { segment: "control", label: "Control" },
  { segment: "scale", label: "Scale" },
  { segment: "offerings", label: "Offerings" },
  { segment: "sovereignty", label: "Sovereignty" },
] as const;

export type ProductView = (typeof PRODUCT_VIEWS)[number]["segment"];

export const productPath = (marketId: string, productId: string, view: ProductView = "") =>
  `/markets/${encodeURIComponent(marketId)}/products/${encodeURIComponent(productId)}${view ? `/${view}` : ""}`;
