"use client";
/**
 * A page's views as tabs, each a link to its own URL in the page's reading context (the release,
 * the country, the gates and weights), read from the live URL: a country just picked on one view
 * carries over before the server has rendered anything again.
 */
import Link from "next/link";
import { useEffect, useRef } from "react";
import { useReadingHref } from "@/components/reading-link";
import type { ReadingDestination } from "@/server/2-http/reading-context";

export interface ViewTab {
  /** What `data-view` names it by (stable for tests and styles). */
  id: string;
  label: string;
  /** Where it goes; the page's reading context is added. */
  destination: ReadingDestination;
}

export function ViewTabs({
  label,
  views,
  current,
  testId,
}: {
  /** The navigation's accessible name, e.g. "Market views". */
  label: string;
  views: readonly ViewTab[];
  current: string;
  testId: string;
}) {
  const readingHref = useReadingHref();
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
          href={readingHref(view.destination)}
          aria-current={view.id === current ? "page" : undefined}
          data-view={view.id}
        >
          {view.label}
        </Link>
      ))}
    </nav>
  );
}
