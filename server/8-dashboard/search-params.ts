/**
 * What a dashboard page reads from its URL, checked as the API checks the same parameter; a value
 * that does not pass is read as absent (the page's default), never as an error.
 */
import type { SealLevel } from "../1-domain/sovereignty";
import { countryParam, releaseParam } from "../7-procedures/schemas";
import { gateParams } from "../7-procedures/sovereignty-schemas";

/** The release a page asks for; undefined (the latest) when absent or not a positive integer. */
export function releaseFrom(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d+$/.test(value)) return undefined;
  const parsed = releaseParam.safeParse(Number(value));
  return parsed.success ? parsed.data : undefined;
}

/** A country code from the URL; whether it is a geography of the release is the reading's call. */
export function countryFrom(value: unknown): string | undefined {
  const parsed = countryParam.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The gates a readings page's URL names (`minSeal`, `require`), each read as the API reads it; a bad one is no gate. */
export function gatesFrom(search: Record<string, string | string[] | undefined>): {
  minSeal: SealLevel | null;
  requireControls: string[];
} {
  const minSeal = gateParams.minSeal.safeParse(
    typeof search.minSeal === "string" && search.minSeal !== "" ? search.minSeal : undefined,
  );
  const require = gateParams.requireControls.safeParse(typeof search.require === "string" ? search.require : undefined);
  return {
    minSeal: minSeal.success && minSeal.data !== undefined ? (minSeal.data as SealLevel) : null,
    requireControls: require.success && require.data ? require.data.split(",").filter(Boolean) : [],
  };
}
