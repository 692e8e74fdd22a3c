/**
 * Every operation the API offers, the one table: who may call it, what it costs, what it is
 * called and what it does. Procedures declare their entry as metadata; the access middleware
 * enforces it; the OpenAPI document, the MCP tool descriptions, the credits page and the docs all
 * take their words and prices from here (tests/unit/operations.test.ts proves they agree).
 */
export const MARKET_READ_SCOPE = "Market.Read.All";

export interface Operation {
  /** Stable name, used in the credits ledger, logs and metrics. */
  name: string;
  /** Scope the token must carry; null: any valid token. */
  scope: typeof MARKET_READ_SCOPE | null;
  /** Credits debited once per successful call. */
  credits: number;
  /** REST path under /v1 (GET). */
  path: `/${string}`;
  /** A few words: the OpenAPI summary and the MCP tool's title. */
  summary: string;
  /** What it answers, in sentences, without its price (see describeOperation). */
  description: string;
}

export const OPERATIONS = {
  marketsList: {
    name: "markets.list",
    scope: null,
    credits: 0,
    path: "/markets",
    summary: "List markets",
    description:
      "Lists the technology markets that are scored (for example foundation-model APIs, managed Kubernetes), each with its marketId slug, description, product count, latest release and last update; archived markets are left out.",
  },
  marketGet: {
    name: "markets.get",
    scope: null,
    credits: 0,
    path: "/markets/{marketId}",
    summary: "Get a market",
    description: "One listed market with its latest release and methodology version.",
  },
  marketChangelog: {
    name: "markets.changelog",
    scope: null,
    credits: 0,
    path: "/markets/{marketId}/changelog",
    summary: "Market changelog",
    description:
      "Every release of the market, newest first, with its notes; `material` marks a material methodology change.",
  },
  geographiesList: {
    name: "geographies.list",
    scope: null,
    credits: 0,
    path: "/geographies",
    summary: "List geographies",
    description:
      "Lists every country a reading can engage (ISO 3166-1 alpha-2 code and name) with the sovereign controls each one requires and the public framework each control comes from. A country with no controls moves nothing. Use it to pick a valid `country` for the delta and Max readings.",
  },
  snapshot: {
    name: "readings.snapshot",
    scope: MARKET_READ_SCOPE,
    credits: 5,
    path: "/markets/{marketId}/snapshot",
    summary: "Market snapshot",
    description:
      "Every product of one market with its published Innovation, Control and Scale scores (0–100) and band per axis, the band cutoffs and indicators of each dimension, and the market's methodology text, to be quoted verbatim. No country is involved.",
  },
  capaindex: {
    name: "readings.capaindex",
    scope: MARKET_READ_SCOPE,
    credits: 2,
    path: "/markets/{marketId}/capaindex",
    summary: "Capability Index",
    description:
      "Products of one market ranked by published Innovation, with no control applied (competition ranking: 1, 2, 2, 4; ties listed by name), with each product's band.",
  },
  servicemax: {
    name: "readings.servicemax",
    scope: MARKET_READ_SCOPE,
    credits: 3,
    path: "/markets/{marketId}/servicemax",
    summary: "Max reading",
    description:
      "For one market and one country, products ranked by the Innovation they retain with every sovereign control of the country engaged, each with its scores off (published) and on (under controls) and the distance; unavailable products list the controls they miss. `country` defaults to the organization's home country.",
  },
  delta: {
    name: "readings.delta",
    scope: MARKET_READ_SCOPE,
    credits: 3,
    path: "/markets/{marketId}/delta",
    summary: "Delta reading",
    description:
      "For one market and one country, each product's published scores, its scores with that country's sovereign controls engaged, and the distance between them: what each product keeps and loses. `country` defaults to the organization's home country; `view` (map or bars) only picks which chart a client opens first: the body is the same.",
  },
  changes: {
    name: "readings.changes",
    scope: MARKET_READ_SCOPE,
    credits: 2,
    path: "/markets/{marketId}/changes",
    summary: "Release changes",
    description:
      "What one release of a market changed against an earlier one: products that entered or left, each product's score change per axis split into what its own values, the field (other products moving the min–max bounds) and the method (indicators, weights) caused, band and rank changes, and for one country its Max rank and availability before and after; at market level, methodology, bands, indicators, weights and products. `to` defaults to the latest release, `from` to the one before, `country` to the organization's home country.",
  },
  product: {
    name: "readings.product",
    scope: MARKET_READ_SCOPE,
    credits: 2,
    path: "/markets/{marketId}/products/{productId}",
    summary: "Product breakdown",
    description:
      "One product of a market taken apart: its published scores and bands and, per axis, every indicator with its raw value, unit, normalised value, weight, its contribution in points (the contributions of an axis add up to the published score), the field's min and max it was scaled against, the evidence behind the value (source, as-of date, confidence) and the gaps; its offerings with the values each overrides and the controls each satisfies. With `country`, the offering engaged under that country's controls (or the controls missing) and what each indicator keeps. `release` defaults to the latest.",
  },
  availability: {
    name: "readings.availability",
    scope: MARKET_READ_SCOPE,
    credits: 3,
    path: "/markets/{marketId}/availability",
    summary: "Availability matrix",
    description:
      "Every product of a market under every country's sovereign controls in one call: per product and country, whether it is available, the offering engaged, the Innovation it retains, the distance magnitude and the controls it misses. Each cell equals the Delta reading for that country. `release` defaults to the latest.",
  },
  whatif: {
    name: "readings.whatif",
    scope: MARKET_READ_SCOPE,
    credits: 5,
    path: "/markets/{marketId}/whatif",
    summary: "What-if weights",
    description:
      "The Capability Index of one market recomputed with indicator weights the caller chooses (`weights=indicatorId:weight,…`; indicators left out keep their published weight), and with `country` the Max reading too, each product beside its published rank and score with its rank change (positive: moved up). Marked `published: false`: nothing is stored and nothing published changes. An unknown indicator, a negative or non-numeric weight, or an axis whose weights are all zero is refused, naming the weight. `release` defaults to the latest.",
  },
} as const satisfies Record<string, Operation>;

export type OperationKey = keyof typeof OPERATIONS;

/** "Free." or "Costs N credits.": the one way a price is said. */
export const priceSentence = (credits: number) =>
  credits === 0 ? "Free." : `Costs ${credits} credit${credits === 1 ? "" : "s"}.`;

/** An operation's description as every surface shows it: what it does, anything the surface adds, its price. */
export const describeOperation = (operation: Operation, addendum?: string) =>
  [operation.description, addendum, priceSentence(operation.credits)].filter(Boolean).join(" ");
