/**
 * A reading narrowed to what a caller asks for, the one way every surface narrows it: the products
 * named (`productIds`), a page of the reading's own order (`limit` from `cursor`) and, for the
 * availability matrix, only some countries (`countries`). A narrowed reading says which page it is (`page`). The MCP
 * surface also fits a page to a token budget (`fitPage`). Each product may be cut to some of its
 * fields (`fields`, a sparse fieldset: `selectFields`). Pure: no I/O.
 */

/** Where a reading's product lists are (dotted paths, e.g. "products", "max.products"), and its columns. */
export interface NarrowingSpec {
  lists: readonly string[];
  /** The matrix's columns (a list of `{ country }`) and the per-product cells that follow them. */
  columns?: { path: string; cells: string };
}

export interface Narrowing {
  limit?: number;
  cursor?: string;
  /** Comma-separated, as callers send them. */
  productIds?: string;
  countries?: string;
  /** Comma-separated product fields to keep; `productId`, `name` and (where it has one) `available` are always kept. */
  fields?: string;
}

/** The fields every product keeps whatever `fields` asks: what names it. */
export const IDENTITY_FIELDS = ["productId", "name"] as const;

/**
 * Fields a product keeps whatever `fields` asks, where the reading has them: whether it is
 * available under the country's controls. Without it an unavailable product's zeros (`on`, a
 * distance) read as scores.
 */
export const ALWAYS_KEPT_FIELDS = ["available"] as const;

/** At most this many products may be named at once. */
export const MAX_PRODUCT_IDS = 200;

/** The items of a comma-separated list, each once, in the order given. */
const itemsOf = (text: string) => [
  ...new Set(
    text
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean),
  ),
];

export interface Page {
  /** Index of the first product returned, in the reading's own order (after `productIds`). */
  offset: number;
  returned: number;
  /** How many products the reading has (after `productIds`). */
  total: number;
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: string | null;
}

type Json = Record<string, unknown>;
type Item = Json & { productId?: unknown };

export class NarrowingError extends Error {
  constructor(
    readonly parameter: keyof Narrowing,
    message: string,
  ) {
    super(message);
    this.name = "NarrowingError";
  }
}

/** A cursor is the offset of the page it starts, opaque to callers. */
export const cursorAt = (offset: number) => Buffer.from(`o:${offset}`).toString("base64url");

export function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match)
    throw new NarrowingError("cursor", "cursor is not one this service gave: pass `page.nextCursor` as it is");
  return Number(match[1]);
}

/**
 * The reading with each product of its lists cut to `fields` (and its identity), in the order the
 * reading has them, and `fields` listing what they kept; an unknown field is an error that names
 * the valid ones. Applied after the reading passed its output schema: a sparse answer is that
 * schema's sparse variant (server/7-procedures/sparse-schema.ts).
 */
export function selectFields<T extends Json>(payload: T, spec: NarrowingSpec, fields: string | undefined): T {
  if (fields === undefined) return payload;
  const asked = itemsOf(fields);
  const lists = listsOf(payload, spec);
  const known = new Set(lists.flatMap(({ list }) => (list[0] ? Object.keys(list[0]) : [])));
  const unknown = known.size === 0 ? [] : asked.filter((field) => !known.has(field));
  if (unknown.length)
    throw new NarrowingError(
      "fields",
      `No product field ${unknown.map((f) => `"${f}"`).join(", ")} in this reading; its products have ${[...known].join(", ")}.`,
    );
  const kept = new Set<string>([
    ...IDENTITY_FIELDS,
    ...ALWAYS_KEPT_FIELDS.filter((field) => known.has(field)),
    ...asked,
  ]);
  let out: Json = payload;
  for (const { path, list } of lists)
    out = withAt(
      out,
      path,
      list.map((item) => Object.fromEntries(Object.entries(item).filter(([key]) => kept.has(key)))),
    );
  // Says what it is: a sparse answer, and which fields its products kept (its own schema's variant).
  return { ...out, fields: [...kept] } as unknown as T;
}

/** Whether the caller asked for any narrowing at all. */
export const asksNarrowing = (n: Narrowing) =>
  n.limit !== undefined || n.cursor !== undefined || n.productIds !== undefined || n.countries !== undefined;

/** The value at a dotted path of a payload (undefined where a step is missing). */
export const valueAt = (payload: Json, path: string): unknown =>
  path.split(".").reduce<unknown>((node, key) => (node as Json | null | undefined)?.[key], payload);
const at = valueAt;

/** A copy of `payload` with the value at `path` replaced (the parents copied, the rest shared). */
function withAt(payload: Json, path: string, value: unknown): Json {
  const [head, ...rest] = path.split(".");
  if (head === undefined) return payload;
  if (rest.length === 0) return { ...payload, [head]: value };
  const child = payload[head];
  if (child === undefined || child === null) return payload;
  return { ...payload, [head]: withAt(child as Json, rest.join("."), value) };
}

const listsOf = (payload: Json, spec: NarrowingSpec) =>
  spec.lists.flatMap((path) => {
    const list = at(payload, path);
    return Array.isArray(list) ? [{ path, list: list as Item[] }] : [];
  });

/**
 * The reading narrowed as asked; unknown product ids or countries are errors that name the
 * valid ones. `payload` is never changed (it may be a cached, frozen reading).
 */
export function narrow<T extends Json>(payload: T, spec: NarrowingSpec, asked: Narrowing): T & { page?: Page } {
  if (!asksNarrowing(asked)) return payload;
  let out: Json = payload;
  const lists = listsOf(payload, spec);

  const productIds = asked.productIds === undefined ? undefined : itemsOf(asked.productIds);
  const countries = asked.countries === undefined ? undefined : itemsOf(asked.countries).map((c) => c.toUpperCase());
  const malformed = [
    ...(productIds ?? []).filter((id) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id)).map((id) => ["productIds", id] as const),
    ...(countries ?? []).filter((code) => !/^[A-Z]{2}$/.test(code)).map((code) => ["countries", code] as const),
  ];
  const [bad] = malformed;
  if (bad)
    throw new NarrowingError(
      bad[0],
      `${bad[0]}: "${bad[1]}" is not ${bad[0] === "productIds" ? "a product slug" : "an ISO 3166-1 alpha-2 code"}`,
    );
  if (productIds && productIds.length > MAX_PRODUCT_IDS)
    throw new NarrowingError("productIds", `productIds may name at most ${MAX_PRODUCT_IDS} products at once`);
  if (productIds) {
    const known = new Set(lists.flatMap(({ list }) => list.map((item) => String(item.productId))));
    const unknown = productIds.filter((id) => !known.has(id));
    if (unknown.length)
      throw new NarrowingError(
        "productIds",
        `No product ${unknown.map((id) => `"${id}"`).join(", ")} in this reading; the market's products list gives their ids.`,
      );
  }
  let columns: Set<string> | undefined;
  if (countries && spec.columns) {
    const all = (at(payload, spec.columns.path) as { country: string }[] | undefined) ?? [];
    const known = new Set(all.map((c) => c.country));
    const unknown = countries.filter((c) => !known.has(c));
    if (unknown.length)
      throw new NarrowingError(
        "countries",
        `No country ${unknown.map((c) => `"${c}"`).join(", ")} in this reading; the geographies list gives the valid codes.`,
      );
    columns = new Set(countries);
    out = withAt(
      out,
      spec.columns.path,
      all.filter((c) => columns?.has(c.country)),
    );
  }

  const offset = offsetOf(asked.cursor);
  const wanted = productIds ? new Set(productIds) : undefined;
  const cellsKey = spec.columns?.cells;
  let page: Page | undefined;
  for (const { path, list } of lists) {
    const chosen = wanted ? list.filter((item) => wanted.has(String(item.productId))) : list;
    const end = asked.limit === undefined ? chosen.length : offset + asked.limit;
    const slice = chosen
      .slice(offset, end)
      .map((item) =>
        columns && cellsKey && Array.isArray(item[cellsKey])
          ? { ...item, [cellsKey]: (item[cellsKey] as { country: string }[]).filter((c) => columns?.has(c.country)) }
          : item,
      );
    out = withAt(out, path, slice);
    // Every list of a reading is the same products in its own order: the first says the page.
    page ??= {
      offset,
      returned: slice.length,
      total: chosen.length,
      nextCursor: offset + slice.length < chosen.length ? cursorAt(offset + slice.length) : null,
    };
  }
  return { ...(out as T), ...(page ? { page } : {}) };
}

/**
 * The reading as it is when its answer fits, else its largest first part whose answer still fits
 * (`fits` says whether a candidate does), with its page. Keeps the page's offset, so the next
 * cursor continues where this page stops; with no product when not even one fits.
 */
export function fitPage<T extends Json & { page?: Page }>(
  payload: T,
  spec: NarrowingSpec,
  fits: (candidate: T) => boolean,
): T {
  if (fits(payload)) return payload;
  const lists = listsOf(payload, spec);
  const count = Math.max(0, ...lists.map(({ list }) => list.length));
  const offset = payload.page?.offset ?? 0;
  const total = payload.page?.total ?? count;
  const cut = (n: number): T & { page: Page } => {
    let out: Json = payload;
    for (const { path, list } of lists) out = withAt(out, path, list.slice(0, n));
    const next = offset + n < total ? cursorAt(offset + n) : null;
    return { ...(out as T), page: { offset, returned: Math.min(n, count), total, nextCursor: next } };
  };
  let [low, high] = [0, count]; // cut(low) fits (or low is 0), cut(high) does not
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(cut(mid))) low = mid;
    else high = mid;
  }
  return cut(low);
}
