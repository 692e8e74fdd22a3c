"use client";
/**
 * Every list that grows with a market is shown a page at a time, so a page's height is bounded at
 * any market size (a 1,000-product market included): the rows of the current page, and the pager
 * that says which rows these are of how many and moves between pages. The pager is drawn above the
 * list and again below it, so a reader who scrolled to the end of a page (25 cards on a phone)
 * moves on from there; moving from the lower one brings the top of the list back into view. Downloads
 * (CSV) keep every row; only what is drawn is paged. Lists no longer than one page show no pager.
 */
import { type ReactNode, useRef, useState } from "react";
import { count } from "@/components/format";

/** Rows per page a reader can pick; the first is the default. */
export const PAGE_SIZES = [25, 100] as const;
type PageSize = (typeof PAGE_SIZES)[number];

export interface Paged<T> {
  /** The rows of the current page, in the list's order. */
  shown: readonly T[];
  /** Where the current page starts in the whole list (0-based): a row's place is `offset + i`. */
  offset: number;
  /** The pager to draw above the list; null when every row fits on one page. */
  pager: ReactNode;
  /** The same pager to draw below the list (its test ids end in `-end`); null as `pager`. */
  pagerEnd: ReactNode;
}

/**
 * The current page of `rows`. `label` names the rows ("products") and the pager's landmark; `id`
 * keeps two pagers on one page apart for tests and assistive technology.
 */
export function usePaged<T>(rows: readonly T[], label: string, id: string): Paged<T> {
  const [size, setSize] = useState<PageSize>(PAGE_SIZES[0]);
  const [page, setPage] = useState(0);
  const top = useRef<HTMLElement>(null);
  const pages = Math.max(1, Math.ceil(rows.length / size));
  // A list that shrank (a filter, another release) keeps the reader on its last page, not past it.
  const current = Math.min(page, pages - 1);
  const offset = current * size;
  const shown = rows.length <= size ? rows : rows.slice(offset, offset + size);
  if (rows.length <= PAGE_SIZES[0]) return { shown, offset: 0, pager: null, pagerEnd: null };
  const last = Math.min(rows.length, offset + size);
  const range = `${label[0]?.toUpperCase() ?? ""}${label.slice(1)} ${count(offset + 1)}–${count(last)} of ${count(rows.length)}`;

  const nav = (end: boolean) => {
    const suffix = end ? "-end" : "";
    // From the lower pager, the new page is read from its top: bring the upper pager into view.
    const go = (next: number) => {
      setPage(next);
      if (end) top.current?.scrollIntoView({ block: "start" });
    };
    return (
      <nav
        ref={end ? undefined : top}
        className={end ? "pager pager-end" : "pager"}
        aria-label={end ? `Pages of ${label}, at the end of the list` : `Pages of ${label}`}
        data-testid={`${id}-pager${suffix}`}
      >
        <button
          type="button"
          className="secondary"
          disabled={current === 0}
          onClick={() => go(current - 1)}
          aria-label="Previous page"
          data-testid={`${id}-previous${suffix}`}
        >
          ←<span className="wide-only"> Previous</span>
        </button>
        {/* Only the upper range is a live region: one announcement per move, not two. */}
        <span className="pager-range" aria-live={end ? undefined : "polite"} data-testid={`${id}-range${suffix}`}>
          {range}
        </span>
        <button
          type="button"
          className="secondary"
          disabled={current >= pages - 1}
          onClick={() => go(current + 1)}
          aria-label="Next page"
          data-testid={`${id}-next${suffix}`}
        >
          <span className="wide-only">Next </span>→
        </button>
        {end ? null : (
          <label className="pager-size">
            Per page
            <select
              value={size}
              onChange={(event) => {
                const next = Number(event.target.value) as PageSize;
                // Keep the first row in view: the page that now holds it.
                setPage(Math.floor(offset / next));
                setSize(next);
              }}
              data-testid={`${id}-size`}
            >
              {PAGE_SIZES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </label>
        )}
      </nav>
    );
  };
  return { shown, offset, pager: nav(false), pagerEnd: nav(true) };
}
