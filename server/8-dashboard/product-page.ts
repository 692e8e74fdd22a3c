/**
 * What every view of a product page needs before it renders: a member of an organization (sign-in
 * and onboarding return to this very view and query), the product's breakdown in the release the
 * URL names (404 for an unknown market, product or release), under the country it names, and the
 * market's name, releases and geographies for the frame.
 */
import { fullGeographies } from "../1-domain/geographies";
import "server-only";
import { notFound } from "next/navigation";
import { describeError } from "../1-errors/describe";
import { type ProductView, readingContextFrom, readingHref, withReading } from "../2-http/reading-context";
import { dashboardCaller } from "./caller";
import { requireOrganization, safeReturnPath } from "./guards";
import type { Search } from "./market-page";
import { countryFrom, releaseFrom } from "./search-params";

export { PRODUCT_VIEWS, type ProductView, productPath } from "../2-http/reading-context";

/** What Next hands every view's page: the market and product from the path, the query. */
export interface ProductViewPageProps {
  params: Promise<{ marketId: string; productId: string }>;
  searchParams: Promise<Search>;
}

type Caller = Awaited<ReturnType<typeof dashboardCaller>>;
type BreakdownInput = { marketId: string; productId: string; release?: number };

/**
 * The breakdown, under the country when one is asked for. A country the release was not scored
 * for is said in the API's words above the published breakdown; other failures fail the page.
 */
async function breakdown(api: Caller, input: BreakdownInput, country: string) {
  try {
    return { product: await api.readings.product({ ...input, country }) };
  } catch (error) {
    const { code, detail } = describeError(error);
    if (code !== "invalid_request") throw error;
    return { product: await api.readings.product(input), countryProblem: detail };
  }
}

export async function loadProductView(marketId: string, productId: string, view: ProductView, search: Search) {
  const here = readingHref({ to: "product", marketId, productId, view }, readingContextFrom(search));
  const { organization } = await requireOrganization(safeReturnPath(here) ?? "/");
  const api = await dashboardCaller();
  const release = releaseFrom(search.release);
  // One country for a session of reading: the URL's, else the organization's home (as market views).
  const country = countryFrom(search.country) ?? organization.homeCountry;
  const input = { marketId, productId, ...(release ? { release } : {}) };
  try {
    const [loaded, market, changelog, listed] = await Promise.all([
      breakdown(api, input, country),
      api.markets.get({ marketId }),
      api.markets.changelog({ marketId }),
      api.geographies.list({}),
    ]);
    const { product, countryProblem } = loaded;
    const geographies = fullGeographies(listed.geographies);
    const controlNames = new Map(geographies.flatMap((g) => g.controls.map((c) => [c.id, c.name] as const)));
    const countryName = (code: string) => geographies.find((g) => g.country === code)?.name ?? code;
    const latest = changelog.releases[0]?.release ?? product.release;
    return {
      organization,
      product,
      countryProblem,
      market,
      changelog,
      geographies,
      controlNames,
      countryName,
      latest,
      release,
      country,
      // What every link of the page carries on: the URL's reading, with the country and release read.
      reading: withReading(readingContextFrom(search), { country, release }),
    };
  } catch (error) {
    const { code } = describeError(error);
    if (code === "not_found" || code === "invalid_request") notFound();
    throw error;
  }
}

export type LoadedProductView = Awaited<ReturnType<typeof loadProductView>>;
