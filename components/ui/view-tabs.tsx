"use client";
/**
 * A page's views as tabs, each a link to its own URL. Each link keeps the query parameters the
 * views share (the release, the country), read from the live URL: a country just picked on one
 * view carries over before the server has rendered anything again.
 */
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";

export interface ViewTab {
  /** What `data-view` names it by (stable for tests and styles). */
  id: string;
  label: string;
  /** Its path, without a query. */
  path: string;
}

export function ViewTabs({
  label,
  views,
  current,
  kept,
  fallback = {},
  testId,
}: {
  /** The navigation's accessible name, e.g. "Market views". */
  label: string;
  views: readonly ViewTab[];
  current: string;
  /** The query parameters every view reads, kept in order. */
  kept: readonly string[];
  /** A value for a kept parameter the URL does not carry (the country the server chose). */
  fallback?: Readonly<Record<string, string>>;
  testId: string;
}) {
  const search = useSearchParams();
  const query = new URLSearchParams();
  for (const key of kept) {
    const value = search.get(key) ?? fallback[key];
    if (value) query.set(key, value);
  }
  const tail = query.toString();
  // On a phone the tabs are one row that scrolls sideways: the current one is brought into view,
  // and again whenever the row is laid out anew — shown after being hidden (a Suspense boundary
  // that suspends again hides its content, which loses its scroll position), or resized.
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    const box = nav.current;
    if (!box) return;
    const bring = () => {
      const tab = box.querySelector<HTMLElement>(`[data-view="${CSS.escape(current)}"]`);
      const shown = box.getBoundingClientRect();
      if (!tab || shown.width === 0) return;
      const at = tab.getBoundingClientRect();
      if (at.right > shown.right || at.left < shown.left) box.scrollLeft += at.left - shown.left - 16;
    };
    bring();
    const observer = new ResizeObserver(bring);
    observer.observe(box);
    return () => observer.disconnect();
  }, [current]);
  return (
    <nav aria-label={label} className="tabs" data-testid={testId} data-scrolls="sideways" ref={nav}>
      {views.map((view) => (
        <Link
          key={view.id}
          href={tail ? `${view.path}?${tail}` : view.path}
          aria-current={view.id === current ? "page" : undefined}
          data-view={view.id}
        >
          {view.label}
        </Link>
      ))}
    </nav>
  );
}
