/**
 * The public embed routes, answered straight from Node through the routing table
 * (server/9-routing/api-routes.ts), never through Next: no session is read, no cookie set, and the
 * page's only script is its own inline one, allowed by hash (./page-script.ts). `/embed/{id}` (the page), `/embed/{id}.svg` and `.png` (the chart alone), `/embed/{id}.csv` (what
 * it draws), `/embed/{id}/methodology` (the methodology of the release it shows), `/oembed`.
 *
 * Each view is counted against two throttles (per embed, per viewer network: the client address
 * the door stamped, X-Forwarded-For only behind TRUST_PROXY) before anything is read. The embed's
 * row is read on every view (one primary-key read), so a revocation answers 410 on every instance
 * at once: what an instance keeps is the built answer (bounded by design: at most
 * EMBED_DRAWN_PRODUCTS products drawn), never the row. The PNG is rendered on the worker pool.
 * Numbers and caching: docs/embeds.md.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database } from "../../db/client";
import { type EmbedReading, type EmbedTheme, type EmbedView, frameableOrigin, viewFor } from "../1-domain/embeds";
import { ApiError, notFound, workersBusy } from "../1-errors/api-error";
import { csvFileName } from "../2-formats/csv";
import { clientNetworkOf } from "../2-http/client-address";
import { nodeHeaders } from "../2-http/node-headers";
import { publicOriginFrom } from "../2-http/origin";
import { PROBLEM_CONTENT_TYPE, problemOf } from "../2-http/problem";
import { loadRelease } from "../3-catalog/releases";
import { type ThrottleRule, throttle } from "../3-limits/throttles";
import { runTask, WORKERS_RETRY_AFTER_SECONDS, WorkersBusy } from "../3-workers/pool";
import { countEmbedViews, type EmbedRow, findEmbed } from "../4-api-access/embeds";
import { embedToShow } from "../7-procedures/embeds";
import type { EmbedAnswers, EmbedAnswersInput, EmbedFormat } from "./answers";
import { type EmbedPayload, embedChart, fitWithin, svgSize } from "./chart";
import { methodologyPage, placeholderPage } from "./page";
import { EMBED_SCRIPT_SOURCE } from "./page-script";
import { svgToPng } from "./png";

export const EMBED_PREFIX = "/embed/";
export const OEMBED_PATH = "/oembed";
export const PROVIDER_NAME = "Market Positioning Service";

/**
 * A pinned embed never changes, so it is cached long and never revalidated while fresh; but a day,
 * not a year: revoking it must reach the copies browsers and CDNs hold within a day (docs/embeds.md,
 * "Caching and freshness"). A latest one follows releases: a minute.
 */
export const PINNED_MAX_AGE_SECONDS = 86_400;
export const PINNED_CACHE = `public, max-age=${PINNED_MAX_AGE_SECONDS}, immutable`;
export const LATEST_MAX_AGE_SECONDS = 60;
const LATEST_CACHE = `public, max-age=${LATEST_MAX_AGE_SECONDS}`;

export { PAGE_EXTRA_WIDTH } from "./answers";

const perMinute = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

/** Views of one embed, and from one viewer network, per minute (EMBED_VIEWS_PER_EMBED, _PER_NETWORK override). */
export function embedThrottles(): { perEmbed: ThrottleRule; perNetwork: ThrottleRule } {
  const perEmbed = perMinute("EMBED_VIEWS_PER_EMBED", 600);
  const perNetwork = perMinute("EMBED_VIEWS_PER_NETWORK", 300);
  return {
    perEmbed: { name: `embed-views-${perEmbed}`, points: perEmbed, durationSeconds: 60 },
    perNetwork: { name: `embed-network-${perNetwork}`, points: perNetwork, durationSeconds: 60 },
  };
}

/** Whether a format is a page a person reads (its failures a neutral page), not a file (problem+json). */
const isPage = (format: EmbedFormat | "oembed") => format === "html" || format === "methodology";

/**
 * `/embed/{id}`, `/embed/{id}.svg`, `.png` or `.csv`, `/embed/{id}/methodology`: the id and the
 * format; undefined for anything else.
 */
export function embedPath(path: string): { id: string; format: EmbedFormat } | undefined {
  const match = /^\/embed\/(emb_[0-9a-f]{24})(?:\.(svg|png|csv)|\/(methodology))?$/.exec(path);
  if (!match) return undefined;
  return { id: match[1] as string, format: ((match[2] ?? match[3]) as EmbedFormat | undefined) ?? "html" };
}

export const isEmbedRoute = (path: string) => path === OEMBED_PATH || path.startsWith(EMBED_PREFIX);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

const BASE_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  // An image or page others show: any origin may load it (frame-ancestors decides framing).
  "Cross-Origin-Resource-Policy": "cross-origin",
};

/**
 * The page's policy: nothing loads, only its own script runs (by hash). Framing: an embed is public
 * (anyone with its address reads it), so with no origins listed any page may frame it, and the
 * policy names no frame-ancestors at all (`*` would still refuse a page of a file: or an app's own
 * scheme, such as a desktop editor's preview); with origins listed, only they may.
 */
export function embedPolicy(allowedOrigins: readonly string[]): string {
  // Checked when saved; checked again here, so a row saved before the check can widen nothing.
  const framers = allowedOrigins.flatMap((raw) => {
    const checked = frameableOrigin(raw);
    return "origin" in checked && checked.origin === raw ? [raw] : [];
  });
  return [
    "default-src 'none'",
    `script-src ${EMBED_SCRIPT_SOURCE}`,
    "style-src 'unsafe-inline'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    // Origins listed but none valid (a row saved before the check): the restriction stands, framed by none.
    ...(allowedOrigins.length === 0 ? [] : [`frame-ancestors ${framers.length > 0 ? framers.join(" ") : "'none'"}`]),
  ].join("; ");
}

const NEUTRAL_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

function placeholder(status: number, heading: string, text: string, extra: Record<string, string> = {}): Answer {
  return {
    status,
    headers: {
      ...BASE_HEADERS,
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": NEUTRAL_POLICY,
      "Cache-Control": "no-store",
      ...extra,
    },
    body: placeholderPage(heading, text),
  };
}

function problem(status: number, code: Parameters<typeof problemOf>[0], detail: string, origin: string, extra = {}) {
  const body = problemOf(code, detail, { origin, requestId: crypto.randomUUID() });
  return {
    status,
    headers: {
      ...BASE_HEADERS,
      "Content-Type": PROBLEM_CONTENT_TYPE,
      "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
      "Cache-Control": "no-store",
      "X-Request-Id": body.requestId,
      ...extra,
    },
    body: JSON.stringify(body),
  } satisfies Answer;
}

function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim())
    .some((tag) => tag === etag || tag === "*");
}

interface Rendered extends EmbedAnswers {
  /** The release it shows. */
  release: number;
  title: string;
  pinned: boolean;
}

/** Where every product of an embed's reading is listed: the dashboard's reading, at its release and country. */
function fullTableUrl(embed: EmbedRow, release: number, country: string | null, origin: string): string {
  const view = embed.reading === "availability" ? "availability" : "readings";
  const query = new URLSearchParams({ release: String(release), ...(country ? { country } : {}) });
  return `${origin}/markets/${encodeURIComponent(embed.marketId)}/${view}?${query}`;
}

/**
 * The answers of one embed at one release, built from inputs that never change once made (the
 * release, the reading, its country, view and theme, the origin, the caption's note): kept by
 * them, so a view of a kept answer renders nothing, and a conditional request is answered from
 * the kept ETag. Each one is bounded whatever the market's size: the chart draws at most
 * EMBED_DRAWN_PRODUCTS products.
 */
async function build(
  embed: EmbedRow,
  shown: Awaited<ReturnType<typeof embedToShow>>,
  origin: string,
): Promise<Rendered> {
  const reading = embed.reading as EmbedReading;
  const facts = {
    ...shown.facts,
    // Public through the embed: the methodology of the release it shows (answerMethodology).
    methodologyUrl: `${origin}${EMBED_PREFIX}${embed.id}/methodology`,
    publisher: PROVIDER_NAME,
    fullTableUrl: fullTableUrl(embed, shown.release, shown.facts.country?.code ?? null, origin),
  };
  const view = viewFor(reading, embed.view);
  // Choosing the drawn products is cheap (the first EMBED_DRAWN_PRODUCTS under the reading); drawing them is not.
  const drawn = (as: EmbedView) => embedChart(shown.data as EmbedPayload, as, embed.theme as EmbedTheme, facts);
  const chart = drawn(view);
  // The Delta switches between map and bars on the page, as in the dashboard; the SVG is the embed's view.
  const others = reading === "delta" ? [drawn(view === "map" ? "bars" : "map")] : [];
  const page = `${origin}${EMBED_PREFIX}${embed.id}`;
  let answers: EmbedAnswers;
  try {
    const input: EmbedAnswersInput = {
      chart,
      others,
      links: { page, svg: `${page}.svg`, png: `${page}.png`, csv: `${page}.csv`, oembed: oembedUrl(origin, page) },
      methodologyKey: `${shown.release}:${origin}`,
    };
    answers = (await runTask("embed", input)) as EmbedAnswers;
  } catch (error) {
    if (error instanceof WorkersBusy) throw workersBusy();
    throw error;
  }
  return { ...answers, release: shown.release, title: chart.title, pinned: embed.release !== null };
}

/**
 * Answers being drawn or drawn, least recently used first; at most EMBED_ANSWERS_BYTES (default
 * 32 MiB) of drawn answers in all. Views of an answer being drawn wait for that one drawing.
 */
interface Kept {
  answer: Promise<Rendered>;
  bytes: number;
}
const state = globalThis as typeof globalThis & { __mpsEmbedAnswers?: { kept: Map<string, Kept>; bytes: number } };
const answers = () => {
  state.__mpsEmbedAnswers ??= { kept: new Map(), bytes: 0 };
  return state.__mpsEmbedAnswers;
};
const answersBudget = () => perMinute("EMBED_ANSWERS_BYTES", 32 * 1024 * 1024);

async function render(db: Database, embed: EmbedRow, origin: string): Promise<Rendered> {
  // Which release it shows (and its note) is decided on every view: a latest embed follows releases.
  const shown = await embedToShow(db, embed, origin);
  const key = JSON.stringify([embed.id, shown.release, shown.facts.note ?? "", origin]);
  const cache = answers();
  const found = cache.kept.get(key);
  if (found) {
    cache.kept.delete(key);
    cache.kept.set(key, found);
    return found.answer;
  }
  const kept: Kept = { answer: build(embed, shown, origin), bytes: 0 };
  cache.kept.set(key, kept);
  let made: Rendered;
  try {
    made = await kept.answer;
  } catch (error) {
    // A refusal or a failure is not kept: the next view tries again.
    if (cache.kept.get(key) === kept) cache.kept.delete(key);
    throw error;
  }
  if (cache.kept.get(key) !== kept) return made;
  kept.bytes = made.bytes;
  cache.bytes += made.bytes;
  for (const [oldest, other] of cache.kept) {
    if (cache.bytes <= answersBudget() || oldest === key) break;
    cache.kept.delete(oldest);
    cache.bytes -= other.bytes;
  }
  return made;
}

export const oembedUrl = (origin: string, page: string) =>
  `${origin}${OEMBED_PATH}?url=${encodeURIComponent(page)}&format=json`;

const CONTENT_TYPES: Record<EmbedFormat, string> = {
  html: "text/html; charset=utf-8",
  svg: "image/svg+xml; charset=utf-8",
  png: "image/png",
  csv: "text/csv; charset=utf-8",
  methodology: "text/html; charset=utf-8",
};

type Verdict = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * A view is counted against its network first, and against the embed only once its network is
 * within its own limit: views a network was refused never count against the embed, so one
 * network cannot take an embed offline for everyone else.
 */
async function admitted(db: Database, id: string, headers: Headers): Promise<Verdict> {
  const rules = embedThrottles();
  const attempts: [ThrottleRule, string | null][] = [
    [rules.perNetwork, clientNetworkOf(headers)],
    [rules.perEmbed, id],
  ];
  for (const attempt of attempts) {
    const verdict = await throttle(db, [attempt]);
    if (!verdict.allowed) return { ok: false, retryAfterSeconds: verdict.retryAfterSeconds };
  }
  return { ok: true };
}

function counted(db: Database, embedId: string) {
  countEmbedViews(db, embedId).catch((error: unknown) => console.error("[embeds] a view was not counted:", error));
}

/** A failure the embed's procedures raise (no release any more, a full worker pool, …) as a neutral answer. */
function failed(error: unknown, format: EmbedFormat | "oembed", origin: string): Answer {
  if (!(error instanceof ApiError)) throw error;
  if (error.problemCode === "unavailable") {
    const retry = { "Retry-After": String(WORKERS_RETRY_AFTER_SECONDS) };
    return isPage(format)
      ? placeholder(503, "Chart busy", "This chart cannot be drawn just now. Try again shortly.", retry)
      : problem(503, "unavailable", "This chart cannot be drawn just now; retry shortly.", origin, retry);
  }
  return isPage(format)
    ? placeholder(404, "Chart unavailable", "This chart cannot be shown.")
    : problem(404, "not_found", "This chart cannot be shown.", origin);
}

/** The page or the SVG of one embed. */
export async function answerEmbed(
  db: Database,
  target: { id: string; format: EmbedFormat },
  headers: Headers,
  origin: string,
): Promise<Answer> {
  const verdict = await admitted(db, target.id, headers);
  if (!verdict.ok) {
    const retry = { "Retry-After": String(verdict.retryAfterSeconds) };
    return isPage(target.format)
      ? placeholder(429, "Too many views", "This chart is being viewed too often. Try again shortly.", retry)
      : problem(429, "rate_limited", "This chart is being viewed too often. Try again shortly.", origin, retry);
  }
  const embed = await findEmbed(db, target.id);
  if (!embed)
    return isPage(target.format)
      ? placeholder(404, "Chart not found", "There is no chart at this address.")
      : problem(404, "not_found", "There is no chart at this address.", origin);
  if (embed.revokedAt)
    return isPage(target.format)
      ? placeholder(410, "Chart removed", "This chart is no longer available.")
      : problem(410, "gone", "This chart is no longer available.", origin);
  let rendered: Rendered;
  try {
    rendered = await render(db, embed, origin);
  } catch (error) {
    return failed(error, target.format, origin);
  }
  counted(db, embed.id);
  // Kept with the answer: a current copy is answered 304 without rendering anything.
  const etag = rendered.etags[target.format];
  const policy =
    target.format === "html" ? embedPolicy(embed.allowedOrigins) : `${NEUTRAL_POLICY}; frame-ancestors 'none'`;
  // The data is as public as the chart: a host page may read it too.
  const files: Record<string, string> = target.format === "csv" ? { "Access-Control-Allow-Origin": "*" } : {};
  const common = {
    ...BASE_HEADERS,
    "Content-Security-Policy": policy,
    "Cache-Control": rendered.pinned ? PINNED_CACHE : LATEST_CACHE,
    ETag: etag,
    ...files,
  };
  if (matches(headers.get("if-none-match"), etag)) return { status: 304, headers: common, body: "" };
  let body: string | Buffer | null;
  try {
    body =
      target.format === "png"
        ? await svgToPng(rendered.pngSvg)
        : target.format === "methodology"
          ? await methodologyOf(db, embed, rendered, origin)
          : { html: rendered.page, svg: rendered.svg, csv: rendered.csv }[target.format];
  } catch (error) {
    if (!(error instanceof WorkersBusy)) return failed(error, target.format, origin);
    return problem(503, "unavailable", "Every PNG renderer is busy; retry shortly or use the SVG.", origin, {
      "Retry-After": String(WORKERS_RETRY_AFTER_SECONDS),
    });
  }
  if (body === null) return problem(404, "not_found", "PNG rendering is not available on this server.", origin);
  return {
    status: 200,
    headers: {
      ...common,
      "Content-Type": CONTENT_TYPES[target.format],
      ...(isPage(target.format) ? {} : { "Content-Disposition": disposition(embed, rendered, target.format) }),
    },
    body,
  };
}

/** How a file is handed over: the data as a download named by what it holds, the pictures inline. */
function disposition(embed: EmbedRow, rendered: Rendered, format: EmbedFormat): string {
  if (format !== "csv") return `inline; filename="${embed.id}.${format}"`;
  const name = csvFileName(embed.marketId, embed.reading, embed.country ?? undefined, "release", rendered.release);
  return `attachment; filename="${name}"`;
}

/**
 * The methodology page of the release the embed shows (the one its page shows now): the release's
 * methodology as published, and nothing of any other market or release.
 */
async function methodologyOf(db: Database, embed: EmbedRow, rendered: Rendered, origin: string): Promise<string> {
  const loaded = await loadRelease(db, embed.marketId, rendered.release);
  if (!loaded) throw notFound("This chart's release is no longer published.");
  const release = loaded.data;
  return methodologyPage({
    marketName: release.name,
    release: release.release,
    releasedAt: release.lastUpdated,
    methodologyVersion: release.methodologyVersion,
    methodology: release.methodology,
    dimensions: release.dimensions.map((dimension) => ({
      name: dimension.name,
      description: dimension.description,
      bands: dimension.bands.map((band) => ({ name: band.name, from: band.from, to: band.to })),
    })),
    chartUrl: `${origin}${EMBED_PREFIX}${embed.id}`,
  });
}

const positiveInt = (value: string | null) => {
  if (value === null || value === "") return undefined;
  return /^\d{1,6}$/.test(value) && Number(value) > 0 ? Number(value) : Number.NaN;
};

/** `/oembed?url=…&maxwidth=…&maxheight=…&format=json` (oEmbed 1.0, `rich`). */
export async function answerOembed(db: Database, search: URLSearchParams, headers: Headers, origin: string) {
  const format = search.get("format");
  if (format !== null && format !== "json")
    return problem(501, "not_implemented", "Only format=json is served.", origin);
  const maxwidth = positiveInt(search.get("maxwidth"));
  const maxheight = positiveInt(search.get("maxheight"));
  if (Number.isNaN(maxwidth) || Number.isNaN(maxheight))
    return problem(400, "invalid_request", "maxwidth and maxheight must be positive whole numbers.", origin);
  const raw = search.get("url");
  let url: URL | undefined;
  try {
    url = raw ? new URL(raw) : undefined;
  } catch {
    url = undefined;
  }
  // Only our own embeds, at our own origin (the operator's, never the Host header's).
  const target = url && url.origin === origin && !url.search && !url.hash ? embedPath(url.pathname) : undefined;
  if (!target) return problem(404, "not_found", "The url is not an embed of this service.", origin);
  const verdict = await admitted(db, target.id, headers);
  if (!verdict.ok)
    return problem(429, "rate_limited", "This chart is being viewed too often. Try again shortly.", origin, {
      "Retry-After": String(verdict.retryAfterSeconds),
    });
  const embed = await findEmbed(db, target.id);
  if (!embed) return problem(404, "not_found", "The url is not an embed of this service.", origin);
  if (embed.revokedAt) return problem(410, "gone", "This chart is no longer available.", origin);
  let rendered: Rendered;
  try {
    rendered = await render(db, embed, origin);
  } catch (error) {
    return failed(error, "oembed", origin);
  }
  const chart = svgSize(rendered.svg);
  const frame = fitWithin(rendered.pageSize, { width: maxwidth, height: maxheight });
  const thumbnail = fitWithin(chart, { width: maxwidth, height: maxheight });
  const page = `${origin}${EMBED_PREFIX}${embed.id}`;
  const escapedTitle = rendered.title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const body = {
    version: "1.0",
    type: "rich",
    title: rendered.title,
    provider_name: PROVIDER_NAME,
    provider_url: `${origin}/`,
    cache_age: rendered.pinned ? PINNED_MAX_AGE_SECONDS : LATEST_MAX_AGE_SECONDS,
    html: `<iframe src="${page}" width="${frame.width}" height="${frame.height}" title="${escapedTitle}" style="border:0" loading="lazy" referrerpolicy="no-referrer"></iframe>`,
    width: frame.width,
    height: frame.height,
    thumbnail_url: `${page}.svg`,
    thumbnail_width: thumbnail.width,
    thumbnail_height: thumbnail.height,
  };
  return {
    status: 200,
    headers: {
      ...BASE_HEADERS,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
      "Cache-Control": rendered.pinned ? PINNED_CACHE : LATEST_CACHE,
      "Access-Control-Allow-Origin": "*",
    },
    body: JSON.stringify(body),
  } satisfies Answer;
}

/** The Node entry of every embed route. */
export async function serveEmbedRequest(
  request: IncomingMessage,
  response: ServerResponse,
  database: () => Promise<Database>,
): Promise<void> {
  const headers = nodeHeaders(request) as unknown as Headers;
  const origin = publicOriginFrom((name) => headers.get(name) ?? undefined);
  const url = new URL(request.url ?? "/", "http://localhost");
  let answer: Answer;
  if (request.method !== "GET" && request.method !== "HEAD") {
    answer = problem(405, "method_not_allowed", "Embeds are read with GET.", origin, { Allow: "GET, HEAD" });
  } else if (url.pathname === OEMBED_PATH) {
    answer = await answerOembed(await database(), url.searchParams, headers, origin);
  } else {
    const target = embedPath(url.pathname);
    answer = target
      ? await answerEmbed(await database(), target, headers, origin)
      : placeholder(404, "Chart not found", "There is no chart at this address.");
  }
  const body = typeof answer.body === "string" ? Buffer.from(answer.body) : answer.body;
  response.writeHead(answer.status, { ...answer.headers, "Content-Length": String(body.length) });
  response.end(request.method === "HEAD" ? undefined : body);
}
