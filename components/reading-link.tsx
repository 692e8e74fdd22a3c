"use client";
/**
 * Links that keep the reading context (server/2-http/reading-context.ts). The live URL is read on
 * every render: gates and weights a view writes into the address without a navigation, and a
 * country just picked, are carried before the server has rendered anything again. A market's or
 * product's frame provides what the server chose for a parameter the URL does not name (the
 * organization's home country, the release read).
 */
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { createContext, type ReactNode, useContext } from "react";
import {
  type ReadingContext,
  type ReadingDestination,
  readingContextFrom,
  readingHref,
} from "@/server/2-http/reading-context";

const ServerReading = createContext<ReadingContext>({});

/** Around a frame's content: the context the server read the page in. */
export function ReadingContextProvider({ value, children }: { value: ReadingContext; children: ReactNode }) {
  return <ServerReading.Provider value={value}>{children}</ServerReading.Provider>;
}

/** The page's reading context: the URL's parameters over the server's choices. */
export function useReadingContext(): ReadingContext {
  const server = useContext(ServerReading);
  // No search parameters outside the app router (a component rendered alone, as in unit tests).
  const search = useSearchParams();
  return search ? { ...server, ...readingContextFrom(search) } : server;
}

/** The href of a link to `destination` in the page's reading context, with `over` set over it. */
export function useReadingHref() {
  const context = useReadingContext();
  return (destination: ReadingDestination, over: ReadingContext = {}, options?: Parameters<typeof readingHref>[2]) =>
    readingHref(destination, { ...context, ...over }, options);
}

/** A link to a market, a product or the markets list, keeping the page's reading context. */
export function ReadingLink({
  destination,
  over,
  query,
  hash,
  children,
  ...rest
}: {
  destination: ReadingDestination;
  /** Parameters of the context this link sets otherwise (the release a name was read in). */
  over?: ReadingContext;
  query?: Readonly<Record<string, string | number | undefined>>;
  hash?: string;
  children: ReactNode;
  className?: string;
  "data-testid"?: string;
  "data-product-id"?: string;
  "aria-label"?: string;
}) {
  const href = useReadingHref()(destination, over, { query, hash });
  return (
    <Link href={href} prefetch={false} {...rest}>
      {children}
    </Link>
  );
}
