/**
 * The whole of a reading behind a link. A tool result holds at most the token budget of a reading
 * (budget.ts); when it holds less than the whole, it links (`resource_link`) to
 * `mps://readings/<tool>?<arguments>`, which `resources/read` answers page by page, each page a
 * JSON document of the REST payload within the same budget: its product lists are the next part of
 * the reading, in the reading's own order, and its `page` says where it is. Concatenating the
 * pages' lists gives exactly REST's payload for the same arguments.
 *
 * The link pins what the page it came from was read from (the release, the releases compared, the
 * country), so a release published while an agent pages does not mix two readings; and it carries
 * a receipt (receipt.ts): the call that made the link paid for the reading, so its pages are free
 * for an hour to that organization. A link without a receipt is read at the tool's price.
 */
import type { NarrowingSpec } from "../2-readings/narrowing";
import { RECEIPT_LIFETIME_SECONDS } from "./receipt";

export const READINGS_SCHEME = "mps:";
const READINGS_HOST = "readings";
/** As resources/templates/list shows it: the tool's name, then its arguments as query parameters. */
export const READING_TEMPLATE = "mps://readings/{tool}{?arguments*}";

/** Arguments a link never carries: it names the whole reading; its pages carry their own cursor. */
const PAGING_ARGUMENTS = new Set(["limit", "cursor"]);

/** The inputs a page's payload pins (payload field → tool input), when the tool takes them. */
const PINNED = [
  ["release", (payload: Payload) => payload.release],
  ["from", (payload: Payload) => (payload.from as Payload | undefined)?.release],
  ["to", (payload: Payload) => (payload.to as Payload | undefined)?.release],
  ["country", (payload: Payload) => payload.country],
] as const;

type Payload = Record<string, unknown>;

export interface ReadingAddress {
  tool: string;
  /** The tool's arguments, as strings (a URI's), without limit, cursor or receipt. */
  arguments: Record<string, string>;
  cursor?: string;
  receipt?: string;
}

/** The link's URI without cursor or receipt: what a receipt is for. Arguments sorted, so one reading has one URI. */
export function readingUri(tool: string, args: Record<string, string>): string {
  const query = new URLSearchParams(Object.entries(args).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const text = query.toString();
  return `${READINGS_SCHEME}//${READINGS_HOST}/${encodeURIComponent(tool)}${text ? `?${text}` : ""}`;
}

/** A page's URI: the reading's, then its cursor and receipt. */
export function pageUri(address: ReadingAddress): string {
  const base = readingUri(address.tool, address.arguments);
  const extra = new URLSearchParams();
  if (address.cursor !== undefined) extra.set("cursor", address.cursor);
  if (address.receipt !== undefined) extra.set("receipt", address.receipt);
  const text = extra.toString();
  if (!text) return base;
  return `${base}${base.includes("?") ? "&" : "?"}${text}`;
}

/** What a reading URI names, or undefined when it is not one (another scheme or host, no tool). */
export function parseReadingUri(uri: string): ReadingAddress | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== READINGS_SCHEME || url.host !== READINGS_HOST) return undefined;
  const tool = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!tool || tool.includes("/")) return undefined;
  const args: Record<string, string> = {};
  let cursor: string | undefined;
  let receipt: string | undefined;
  for (const [key, value] of url.searchParams) {
    if (key === "cursor") cursor = value;
    else if (key === "receipt") receipt = value;
    else if (!PAGING_ARGUMENTS.has(key)) args[key] = value;
  }
  return {
    tool,
    arguments: args,
    ...(cursor !== undefined ? { cursor } : {}),
    ...(receipt !== undefined ? { receipt } : {}),
  };
}

/**
 * The arguments of the whole reading a tool answered part of: the caller's own, without limit and
 * cursor, with what the payload was read from pinned when the tool takes it.
 */
export function wholeReadingArguments(
  inputKeys: readonly string[],
  input: Record<string, unknown>,
  payload: Payload,
): Record<string, string> {
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries(input))
    if (value !== undefined && value !== null && !PAGING_ARGUMENTS.has(key)) args[key] = String(value);
  for (const [key, read] of PINNED) {
    const value = read(payload);
    if (inputKeys.includes(key) && (typeof value === "number" || typeof value === "string")) args[key] = String(value);
  }
  return args;
}

/** Whether a page holds less than the whole reading (an earlier part skipped, or more to come). */
export const isPartial = (page: { offset: number; nextCursor: string | null } | undefined) =>
  page !== undefined && (page.offset > 0 || page.nextCursor !== null);

export type ReadingLink = ReturnType<typeof readingLink>;

/** The MCP `resource_link` content of a whole reading (`args` as the link carries them). */
export function readingLink(uri: string, tool: string, args: Record<string, string>, spec: NarrowingSpec) {
  const products = args.productIds === undefined ? "every product" : "every product you named";
  const countries = spec.columns
    ? args.countries === undefined
      ? " and every country"
      : " and the countries you named"
    : "";
  // In the order of the SDK's ResourceLink schema, as the SDK writes it: the same bytes either way.
  return {
    name: `${tool} (whole reading)`,
    title: "The whole reading, in pages",
    uri,
    description: `The same reading with ${products}${countries}: resources/read answers it a page at a time (each page's _meta.nextUri reads the next), free for ${RECEIPT_LIFETIME_SECONDS / 60} minutes after this call.`,
    mimeType: "application/json",
    type: "resource_link" as const,
  };
}
