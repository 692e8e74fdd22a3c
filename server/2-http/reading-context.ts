/**
 * The reading context: what a dashboard URL says about the reading a person is in — the market and
 * the view (the path), the country whose controls are engaged, the release, the readings' gates and
 * the what-if weights (the query). Every link the dashboard draws to a market, a product, the
 * markets list or the notifications is built here from the context of the page it is drawn on, so
 * a reader who picked France and release 2 stays under France and on release 2 wherever they click
 * (docs/dashboard.md, "The reading context"). A release, gates and weights belong to one market:
 * the lists across markets keep only the country. Pure: e-mails' links are built here too.
 */
import { MARKETS_PATH, NOTIFICATIONS_PATH } from "./paths";

/** The views of a market page, each at its own URL: the segment after /markets/{id}, and its name. */
export const MARKET_VIEWS = [
  { segment: "", label: "Overview" },
  { segment: "readings", label: "Readings" },
  { segment: "whatif", label: "What if" },
  { segment: "changes", label: "What changed" },
  { segment: "availability", label: "Availability" },
  { segment: "methodology", label: "Methodology and releases" },
] as const;

export type MarketView = (typeof MARKET_VIEWS)[number]["segment"];

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

export const marketPath = (marketId: string, view: MarketView = "") =>
  `${MARKETS_PATH}/${encodeURIComponent(marketId)}${view ? `/${view}` : ""}`;

export const productPath = (marketId: string, productId: string, view: ProductView = "") =>
  `${marketPath(marketId)}/products/${encodeURIComponent(productId)}${view ? `/${view}` : ""}`;

/** The query parameters of a reading, in the order every link writes them. */
export const READING_PARAMS = ["release", "country", "minSeal", "require", "whatif", "whatifBy"] as const;

export type ReadingParam = (typeof READING_PARAMS)[number];

/** A reading's query: each parameter present only when the reader chose it (absent: the page's default). */
export type ReadingContext = Partial<Record<ReadingParam, string>>;

/**
 * Where a link goes: the markets list or the notifications (lists across markets), a view of a
 * market, or a view of one of its products.
 */
export type ReadingDestination =
  | { to: "markets" }
  | { to: "notifications" }
  | { to: "market"; marketId: string; view?: MarketView }
  | { to: "product"; marketId: string; productId: string; view?: ProductView };

/**
 * The longest value a link carries on: longer than any a page accepts, so a forged URL's padding
 * is not copied into every link of the page. Whether a value is a country, a release or a gate is
 * the reading page's call (server/8-dashboard/search-params.ts, as the API checks it): one that does
 * not pass is read there as absent, wherever it was carried from.
 */
const MAX_VALUE = 2000;

type Search = URLSearchParams | { readonly [key: string]: string | string[] | undefined };

/** The reading context of a URL's query: each reading parameter given once, not empty and not overlong. */
export function readingContextFrom(search: Search): ReadingContext {
  const context: ReadingContext = {};
  for (const key of READING_PARAMS) {
    const raw = search instanceof URLSearchParams ? search.get(key) : search[key];
    if (typeof raw === "string" && raw !== "" && raw.length <= MAX_VALUE) context[key] = raw;
  }
  return context;
}

/** `base` with each parameter `over` gives set over it (a parameter given as undefined is removed). */
export function withReading(base: ReadingContext, over: { [K in ReadingParam]?: string | number | undefined }) {
  const merged: ReadingContext = { ...base };
  for (const key of READING_PARAMS)
    if (key in over) {
      const value = over[key];
      if (value === undefined) delete merged[key];
      else merged[key] = String(value);
    }
  return merged;
}

/** The context's parameters as query pairs, in READING_PARAMS order: for hidden fields of a GET form. */
export function readingEntries(context: ReadingContext, keys: readonly ReadingParam[] = READING_PARAMS) {
  return keys.flatMap((key) => {
    const value = context[key];
    return value === undefined ? [] : [[key, value] as [string, string]];
  });
}

function pathOf(destination: ReadingDestination): string {
  switch (destination.to) {
    case "markets":
      return MARKETS_PATH;
    case "notifications":
      return NOTIFICATIONS_PATH;
    case "market":
      return marketPath(destination.marketId, destination.view);
    case "product":
      return productPath(destination.marketId, destination.productId, destination.view);
  }
}

/**
 * The href of a link to `destination`, read in `context`: a list across markets keeps the
 * country; a market's or product's view keeps the whole context. `query` adds the destination's own
 * parameters (a comparison's `from` and `to`), after the reading's; `hash` a place on the page.
 */
export function readingHref(
  destination: ReadingDestination,
  context: ReadingContext = {},
  options: { query?: Readonly<Record<string, string | number | undefined>>; hash?: string } = {},
): string {
  const across = destination.to === "markets" || destination.to === "notifications";
  const path = pathOf(destination);
  const search = new URLSearchParams(readingEntries(context, across ? ["country"] : READING_PARAMS));
  for (const [key, value] of Object.entries(options.query ?? {}))
    if (value !== undefined && !(READING_PARAMS as readonly string[]).includes(key)) search.set(key, String(value));
  const tail = search.toString();
  return `${path}${tail ? `?${tail}` : ""}${options.hash ? `#${encodeURIComponent(options.hash)}` : ""}`;
}
