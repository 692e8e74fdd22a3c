/**
 * What an embed may be (docs/embeds.md): the readings it shows, their views and themes, and the
 * facts its caption says. Shared by the storage, the procedures that decide what an embed shows
 * and what it costs, and the pure chart that draws it.
 */

export const EMBED_READINGS = ["delta", "servicemax", "capaindex", "availability"] as const;
export type EmbedReading = (typeof EMBED_READINGS)[number];
export const EMBED_VIEWS = ["map", "bars", "grid"] as const;
export type EmbedView = (typeof EMBED_VIEWS)[number];
/** `auto` follows the reader's light or dark setting (prefers-color-scheme); the others are fixed. */
export const EMBED_THEMES = ["auto", "light", "dark"] as const;
export type EmbedTheme = (typeof EMBED_THEMES)[number];

/** What each reading is called on a chart. */
export const READING_TITLES: Record<EmbedReading, string> = {
  delta: "Delta",
  servicemax: "Max",
  capaindex: "Capability Index",
  availability: "Availability",
};

/** The views a reading may be shown as; the first is its default. */
export const READING_VIEWS: Record<EmbedReading, readonly EmbedView[]> = {
  delta: ["map", "bars"],
  servicemax: ["bars"],
  capaindex: ["bars"],
  availability: ["grid"],
};

/** Which readings take a country: those read under one country's controls. */
export const READING_TAKES_COUNTRY: Record<EmbedReading, boolean> = {
  delta: true,
  servicemax: true,
  capaindex: false,
  availability: false,
};

/** The view an embed shows: the one asked when the reading has it, else the reading's default. */
export function viewFor(reading: EmbedReading, asked: string | null | undefined): EmbedView {
  const views = READING_VIEWS[reading];
  return views.includes(asked as EmbedView) ? (asked as EmbedView) : (views[0] as EmbedView);
}

/**
 * What an embed shows, in one line for the people who make and list it: "Delta of Foundation-model
 * APIs under France (FR), release 3 (pinned)", or "… the latest release (now 4)". The chart's own
 * caption says the same to its readers (server/8-embeds/chart.ts).
 */
export function embedSummary(embed: {
  reading: EmbedReading;
  marketName: string;
  country: { code: string; name: string } | null;
  /** The release pinned; null: the latest. */
  release: number | null;
  /** The latest release it has shown, for a latest one. */
  shownRelease?: number | null;
}): string {
  const under = embed.country
    ? ` under ${embed.country.name} (${embed.country.code})`
    : embed.reading === "availability"
      ? " in every country"
      : ", published scores";
  const release =
    embed.release !== null
      ? `release ${embed.release} (pinned)`
      : `the latest release${embed.shownRelease ? ` (now ${embed.shownRelease})` : ""}`;
  return `${READING_TITLES[embed.reading]} of ${embed.marketName}${under}, ${release}`;
}

/** What the caption and citation say about what an embed shows. */
export interface EmbedFacts {
  marketName: string;
  release: number;
  /** ISO timestamp of the release. */
  releasedAt: string;
  /** The country engaged (null: a reading of published scores, or availability, every country). */
  country: { code: string; name: string; controls: string[] } | null;
  /** The embed follows the latest release. */
  latest: boolean;
  /** Said under the caption, e.g. that a newer release is published but not paid for. */
  note?: string;
  /** The methodology page of the market. */
  methodologyUrl: string;
  /** Who publishes the numbers (the citation's author). */
  publisher: string;
  /** Where every product of the reading is listed (the dashboard's reading), for a chart that shows only the first. */
  fullTableUrl?: string;
}

/**
 * How many products a chart draws: the first under its reading. A chart of a market of any size
 * is then a picture of bounded size and bounded cost to draw (docs/embeds.md, "Size"); the rest
 * are counted in its caption and listed in the full table it links.
 */
export const EMBED_DRAWN_PRODUCTS = 25;

/** One DNS label: letters, digits and inner hyphens, at most 63 (IDNs arrive as xn-- punycode). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/**
 * An origin an embed may be framed by, as a page's address bar has it (scheme://host[:port]), or
 * why not. It is written into the page's `frame-ancestors` as it is, so its host must be a plain
 * domain name or address: the URL parser lets through `*`, `;`, `,` and `'`, which would widen the
 * list to any site, start another directive or start a second policy.
 */
export function frameableOrigin(raw: string): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { problem: "not a URL" };
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password)
    return { problem: "not an http(s) origin" };
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash)
    return { problem: "an origin has no path, query or fragment" };
  const host = url.hostname;
  const isName = host.length <= 253 && host.split(".").every((label) => LABEL.test(label));
  if (!isName && !IPV4.test(host) && !IPV6.test(host))
    return { problem: "its host must be a domain name or an IP address (no wildcards or punctuation)" };
  return { origin: url.origin };
}
