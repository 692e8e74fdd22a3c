/**
 * The dashboard's one formatter: moments in UTC (to the day, to the minute), numbers, scores,
 * credits and countries, written the same way on every page.
 */

/** 2026-05-04 */
export const utcDay = (value: string | Date): string => new Date(value).toISOString().slice(0, 10);

/** 2026-05-04 09:30, or null for no moment. */
export const utcMinute = (value: string | Date | null): string | null =>
  value ? new Date(value).toISOString().slice(0, 16).replace("T", " ") : null;

import { count } from "@/server/2-formats/count";

/** 1,000: the count of every surface (server/2-formats/count.ts), MCP texts and e-mails too. */
export { count };

/** 1,000 credits, 1 credit. */
export const credits = (value: number): string => `${count(value)} credit${value === 1 ? "" : "s"}`;

/** A ledger movement: +1,000, −5 (a true minus sign), 0. */
export const creditChange = (value: number): string =>
  value > 0 ? `+${count(value)}` : value < 0 ? `−${count(-value)}` : "0";

/** A score: one decimal, always (46.3, 50.0). */
export const score = (value: number): string => value.toFixed(1);

/**
 * The one order of countries wherever a list of them is offered (the country chooser, onboarding,
 * the organization's settings, geographies, the availability grid): by name as people look them
 * up (Australia before Austria, Åland among the As), not by code; the code settles a tie.
 */
export const countryNameOrder = (a: { country: string; name: string }, b: { country: string; name: string }): number =>
  a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.country.localeCompare(b.country, "en");

/** Countries in the one order (countryNameOrder): a sorted copy. */
export const byCountryName = <G extends { country: string; name: string }>(geographies: readonly G[]): G[] =>
  [...geographies].sort(countryNameOrder);

/** A rate-limit window in words: "minute", "hour", "30 s". */
export const windowText = (seconds: number): string =>
  seconds === 60
    ? "minute"
    : seconds === 3600
      ? "hour"
      : seconds % 60 === 0
        ? `${seconds / 60} minutes`
        : `${seconds} s`;

/** "27 Oct": a day of the last weeks, as a chart's axis says it. */
export const shortDay = (day: string): string =>
  new Date(`${day.slice(0, 10)}T00:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  });
