"use client";
/**
 * The country a market or product view engages, kept in the page's URL: one country for a session
 * of reading, chosen in the frame's picker and read by every view from the URL, so a view's own
 * controls and the frame never disagree. Through the router, not history alone: the URL, the
 * views' tabs and everything the server renders for the page then follow the country.
 */
import { useRouter, useSearchParams } from "next/navigation";

export function useCountryInUrl(fallback: string) {
  const router = useRouter();
  const search = useSearchParams();
  const country = (search.get("country") ?? fallback).toUpperCase();
  /** Engages `next`, writing it (and any `alongside` parameters) into the URL. */
  const choose = (next: string, alongside: Record<string, string> = {}) => {
    const url = new URL(window.location.href);
    for (const [key, value] of Object.entries({ country: next, ...alongside })) url.searchParams.set(key, value);
    router.replace(`${url.pathname}${url.search}`, { scroll: false });
  };
  return [country, choose] as const;
}
