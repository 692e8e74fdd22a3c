/**
 * What a dashboard page reads from its URL, checked as the API checks the same parameter; a value
 * that does not pass is read as absent (the page's default), never as an error.
 */
import { countryParam, releaseParam } from "../procedures/schemas";

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
