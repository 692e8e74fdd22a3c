"use client";
/**
 * The frame of a table that may be wider than its column: it scrolls sideways on its own, and
 * whenever it does, it is a keyboard stop with a name (WCAG 2.1.1; axe's
 * scrollable-region-focusable), so a keyboard reaches the columns out of sight. When the table
 * fits (or becomes cards on a phone) it is no stop at all.
 */
import { type ReactNode, useEffect, useRef, useState } from "react";

export function TableWrap({ label, children, live }: { label: string; children: ReactNode; live?: boolean }) {
  const frame = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    // A table that arrives after mount (rows loaded on the client, in place of a notice) is a new
    // child: watched too, and measured as it comes, or a wide one would scroll with no stop.
    const arrivals = new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) if (node instanceof Element) observer.observe(node);
      measure();
    });
    arrivals.observe(element, { childList: true });
    return () => {
      observer.disconnect();
      arrivals.disconnect();
    };
  }, []);
  // Named and focusable only while it scrolls; a table that fits adds no stop and no landmark.
  const region = scrolls ? { tabIndex: 0, role: "region", "aria-label": label } : {};
  return (
    <div ref={frame} className="table-wrap" aria-live={live ? "polite" : undefined} {...region}>
      {children}
    </div>
  );
}
