"use client";
/**
 * A list read from the server a page at a time by cursor (the audit trail, a webhook's
 * deliveries), newest first: the cursor of the page on show, and the Newer/Older buttons that
 * move between pages, drawn above the list and again below it (moving from below brings the
 * upper buttons, the top of the new page, into view). The cursors of the pages before this one
 * are kept, so Newer goes back exactly; a new filter starts again at the newest page (`reset`).
 */
import { type ReactNode, useRef, useState } from "react";

export interface CursorPages<C> {
  /** The cursor of the page on show; undefined for the newest. */
  cursor: C | undefined;
  /** Back to the newest page. */
  reset(): void;
  /**
   * The buttons, given the cursor the server says follows this page (null: this is the oldest);
   * `end` for the ones below the list.
   */
  nav(nextCursor: C | null, label: string, end?: boolean): ReactNode;
}

export function useCursorPages<C>(): CursorPages<C> {
  const [cursors, setCursors] = useState<C[]>([]);
  const top = useRef<HTMLElement>(null);
  return {
    cursor: cursors.at(-1),
    reset: () => setCursors([]),
    nav: (nextCursor, label, end = false) => {
      const go = (next: (c: C[]) => C[]) => {
        setCursors(next);
        if (end) top.current?.scrollIntoView({ block: "start" });
      };
      const newest = cursors.length === 0;
      // One page only: nothing to move to, no row of disabled buttons.
      if (newest && nextCursor === null) return null;
      return (
        <nav
          ref={end ? undefined : top}
          aria-label={end ? `${label}, at the end of the list` : label}
          className="inline-form pager"
          data-testid={end ? "cursor-pager-end" : "cursor-pager"}
        >
          <button type="button" className="secondary" disabled={newest} onClick={() => go((c) => c.slice(0, -1))}>
            Newer
          </button>
          <button
            type="button"
            className="secondary"
            disabled={nextCursor === null}
            onClick={() => nextCursor !== null && go((c) => [...c, nextCursor])}
          >
            Older
          </button>
        </nav>
      );
    },
  };
}
