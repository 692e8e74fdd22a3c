"use client";
/**
 * A list read from the server a page at a time by cursor (the audit trail, a webhook's
 * deliveries), newest first: the cursor of the page on show, and the Newer/Older buttons that
 * move between pages. The cursors of the pages before this one are kept, so Newer goes back
 * exactly; a new filter starts again at the newest page (`reset`).
 */
import { type ReactNode, useState } from "react";

export interface CursorPages<C> {
  /** The cursor of the page on show; undefined for the newest. */
  cursor: C | undefined;
  /** Back to the newest page. */
  reset(): void;
  /** The buttons, given the cursor the server says follows this page (null: this is the oldest). */
  nav(nextCursor: C | null, label: string): ReactNode;
}

export function useCursorPages<C>(): CursorPages<C> {
  const [cursors, setCursors] = useState<C[]>([]);
  return {
    cursor: cursors.at(-1),
    reset: () => setCursors([]),
    nav: (nextCursor, label) => (
      <nav aria-label={label} className="inline-form">
        <button type="button" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Newer
        </button>
        <button
          type="button"
          disabled={nextCursor === null}
          onClick={() => nextCursor !== null && setCursors((c) => [...c, nextCursor])}
        >
          Older
        </button>
      </nav>
    ),
  };
}
