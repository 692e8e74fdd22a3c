/**
 * What every view of a market page needs before it renders: a member of an organization (sign-in
 * and onboarding return to this very view and query), the release the URL names with the market's
 * changelog (404 for an unknown market or release), and the country the readings engage.
 */
import "server-only";
import { notFound } from "next/navigation";
import { ApiError } from "../1-errors/api-error";
import { type MarketView, marketPath, readingContextFrom, withReading } from "../2-http/reading-context";
import { dashboardCaller } from "./caller";
import { requireOrganization, safeReturnPath } from "./guards";
import { countryFrom, releaseFrom } from "./search-params";

export { MARKET_VIEWS, type MarketView, marketPath } from "../2-http/reading-context";

export type Search = Record<string, string | string[] | undefined>;

/** What Next hands every view's page: the market from the path, the query. */
export interface MarketViewPageProps {
  params: Promise<{ marketId: string }>;
  searchParams: Promise<Search>;
}

/** The query parameters a view reads and a link to the same view keeps. */
const KEPT = ["release", "country", "view", "from", "to", "whatif", "whatifBy"];

/** The string query parameters of a search, in KEPT order. */
export function givenParams(search: Search, keys: readonly string[] = KEPT): [string, string][] {
  return keys.flatMap((key) => {
    const value = search[key];
    return typeof value === "string" ? [[key, value] as [string, string]] : [];
  });
}

export async function loadMarketView(marketId: string, view: MarketView, search: Search) {
  const query = new URLSearchParams(givenParams(search)).toString();
  const path = marketPath(marketId, view);
  const here = safeReturnPath(query ? `${path}?${query}` : path) ?? "/";
  const { organization } = await requireOrganization(here);
  const api = await dashboardCaller();
  const release = releaseFrom(search.release);
  try {
    const [snapshot, changelog, { following }, listed] = await Promise.all([
      api.readings.snapshot({ marketId, ...(release ? { release } : {}) }),
      api.markets.changelog({ marketId }),
      api.following.status({ marketId }),
      api.geographies.list({ detail: "ids" }),
    ]);
    const country = countryFrom(search.country) ?? organization.homeCountry;
    const latest = changelog.releases[0]?.release ?? snapshot.release;
    const countries = countryChoices(listed.geographies);
    const countryName = countries.find((c) => c.country === country)?.name ?? country;
    // What every link of the page carries on: the URL's reading, with the country and release read.
    const reading = withReading(readingContextFrom(search), { country, release });
    return {
      api,
      organization,
      snapshot,
      changelog,
      following,
      release,
      country,
      countryName,
      countries,
      latest,
      reading,
    };
  } catch (error) {
    if (error instanceof ApiError && (error.problemCode === "not_found" || error.problemCode === "invalid_request"))
      notFound();
    throw error;
  }
}

export type LoadedMarketView = Awaited<ReturnType<typeof loadMarketView>>;

/** The countries a frame offers: code, name and how many controls each engages. */
export const countryChoices = (
  geographies: readonly { country: string; name: string; controls: readonly unknown[] }[],
) => geographies.map((g) => ({ country: g.country, name: g.name, controls: g.controls.length }));
