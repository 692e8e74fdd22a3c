"use client";
/**
 * The country a market view engages, kept in the page's URL. Through the router, not history
 * alone: the URL, the views' tabs and everything the server renders for the page then follow the
 * country, while the view's own state is kept.
 */
import { useRouter } from "next/navigation";
import { useState } from "react";

export function useCountryInUrl(initialCountry: string) {
  const router = useRouter();
  const [country, setCountry] = useState(initialCountry);
  /** Engages `next`, writing it (and any `alongside` parameters) into the URL. */
  const choose = (next: string, alongside: Record<string, string> = {}) => {
    setCountry(next);
    const url = new URL(window.location.href);
    for (const [key, value] of Object.entries({ country: next, ...alongside })) url.searchParams.set(key, value);
    router.replace(`${url.pathname}${url.search}`, { scroll: false });
  };
  return [country, choose] as const;
}
