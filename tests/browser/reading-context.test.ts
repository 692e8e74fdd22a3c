/**
 * The reading context in Chromium (server/2-http/reading-context.ts): a person of an organization at
 * home in Germany reads a demo market under France, on a release that is not the latest, with a
 * gate and a what-if weight in the URL. On every view of the market, a product's page and each of
 * its tabs, the markets list and the notifications, at 1280 and 390 px, every link into a market,
 * a product, the markets list or the notifications keeps France; every link into the same market
 * keeps a release, and the gate and the weight the page's URL carries. Then a click as a reader
 * makes it: a product France excludes, clicked on the overview, opens saying it is unavailable
 * under France — not "Usable under Germany's controls … keeps".
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SIZED_MARKET } from "../app/global-setup";
import { type ReaderSession, readerSignedUpAt } from "../helpers/browser";

const base = inject("appUrl");
const accounts = inject("accounts");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
const COUNTRY = "FR";
const HOME = "DE";
const WIDTHS = [1280, 390] as const;

async function api<T>(route: string): Promise<T> {
  const response = await fetch(`${base}/v1${route}`, { headers: { Authorization: `Bearer ${accounts.walker.token}` } });
  expect(response.status, route).toBe(200);
  return (await response.json()) as T;
}

interface Reading {
  marketId: string;
  /** A release before the latest. */
  release: number;
  /** A product France excludes in that release (else any product of it). */
  productId: string;
  /** What the page's URL carries besides the country and the release. */
  gate: string;
  weights: string;
}

/** A demo market with more than one release, read on the one before the latest. */
async function readingToWalk(): Promise<Reading> {
  const { markets } = await api<{ markets: { marketId: string }[] }>("/markets");
  for (const { marketId } of markets) {
    // The demo catalogue's, not the generated one nor the browser suite's fixture.
    if (marketId === SIZED_MARKET.marketId || marketId === "formula-names") continue;
    const { releases } = await api<{ releases: { release: number }[] }>(`/markets/${marketId}/changelog`);
    const older = releases[1]?.release;
    if (older === undefined) continue;
    const max = await api<{ products: { productId: string; available: boolean }[] }>(
      `/markets/${marketId}/servicemax?country=${COUNTRY}&release=${older}`,
    );
    const product = max.products.find((p) => !p.available) ?? max.products[0];
    const snapshot = await api<{ dimensions: { indicators: { id: string; weight: number }[] }[] }>(
      `/markets/${marketId}/snapshot?release=${older}`,
    );
    const indicator = snapshot.dimensions[0]?.indicators[0];
    if (!product || !indicator) continue;
    return {
      marketId,
      release: older,
      productId: product.productId,
      gate: "2",
      weights: `${indicator.id}:${indicator.weight + 1}`,
    };
  }
  throw new Error("no demo market has two releases");
}

/**
 * Every link of the page into a market, a product, the markets list or the notifications that
 * drops the reading: the country always; within the market read, the release (the page is on one
 * before the latest) and the gate and weights the page's URL carries now.
 */
function droppedLinks(hrefs: readonly string[], pageUrl: string): string[] {
  const here = new URL(pageUrl);
  // The market the page reads (none on the lists across markets).
  const marketId = /^\/markets\/([^/]+)/.exec(here.pathname)?.[1];
  const origin = new URL(base).origin;
  const problems: string[] = [];
  for (const href of hrefs) {
    const url = new URL(href, base);
    if (url.origin !== origin) continue;
    const [, first, market] = url.pathname.split("/");
    const across = url.pathname === "/markets" || url.pathname === "/notifications";
    if (!across && !(first === "markets" && market)) continue;
    const lacks = (key: string, value: string | null) =>
      url.searchParams.get(key) === value ? [] : [`${key}=${url.searchParams.get(key)} (want ${value})`];
    const wrong = [...lacks("country", COUNTRY)];
    if (!across && market === marketId) {
      if (!url.searchParams.has("release")) wrong.push("no release");
      for (const key of ["minSeal", "whatif"])
        if (here.searchParams.has(key)) wrong.push(...lacks(key, here.searchParams.get(key)));
    }
    if (wrong.length) problems.push(`${href}: ${wrong.join(", ")}`);
  }
  return problems;
}

describe("one reading context on every link", () => {
  let reader: ReaderSession;
  let reading: Reading;

  beforeAll(async () => {
    reading = await readingToWalk();
    reader = await readerSignedUpAt(`${base}/markets`, {
      email: `reading-context-${Date.now()}@example.com`,
      organization: "Reading Context GmbH",
      homeCountry: HOME,
    });
  });
  afterAll(() => reader?.close());

  async function settled() {
    const { page } = reader;
    await page.waitForLoadState("networkidle");
    await expect.poll(() => page.locator('.skeleton, [aria-busy="true"]').count(), { timeout: 30_000 }).toBe(0);
  }

  /** The pages a reading is walked through, each with the reading in its URL. */
  function pages(): string[] {
    const { marketId, productId, release, gate, weights } = reading;
    const query = new URLSearchParams({ release: String(release), country: COUNTRY, minSeal: gate, whatif: weights });
    const market = `/markets/${marketId}`;
    const product = `${market}/products/${productId}`;
    return [
      ...["", "/readings", "/readings?view=bars", "/whatif", "/changes", "/availability", "/methodology"].map(
        (view) => {
          const [route, own] = view.split("?");
          return `${market}${route}?${query}${own ? `&${own}` : ""}`;
        },
      ),
      ...["", "/innovation", "/control", "/scale", "/offerings", "/sovereignty"].map(
        (tab) => `${product}${tab}?${query}`,
      ),
      `/markets?country=${COUNTRY}`,
      `/notifications?country=${COUNTRY}`,
    ];
  }

  for (const width of WIDTHS)
    it(`keeps ${COUNTRY}, the release, the gate and the weights on every link at ${width} px`, async () => {
      const { page } = reader;
      await page.setViewportSize({ width, height: 900 });
      const problems: string[] = [];
      let checked = 0;
      for (const address of pages()) {
        await page.goto(`${base}${address}`);
        await settled();
        const hrefs = await page
          .locator("a[href]")
          .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).getAttribute("href") ?? ""));
        const into = hrefs.filter((h) => /^\/(markets|notifications)(\/|\?|$)/.test(h));
        expect(into.length, `${address}: links into the reading`).toBeGreaterThan(0);
        checked += into.length;
        problems.push(...droppedLinks(hrefs, page.url()).map((p) => `${address}: ${p}`));
        // The header's Markets is the list under the country, with the usable counts.
        const header = await page
          .locator(".site-header nav a", { hasText: /^Markets$/ })
          .evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute("href")))]);
        if (header.join() !== `/markets?country=${COUNTRY}`)
          problems.push(`${address}: the header's Markets is ${header}`);
      }
      expect(problems).toEqual([]);
      // Every product of the market on the availability grid alone, and each view's tabs besides.
      expect(checked).toBeGreaterThan(100);
    }, 300_000);

  for (const width of WIDTHS)
    it(`opens a product ${COUNTRY} excludes, clicked under ${COUNTRY}, as read under ${COUNTRY} at ${width} px`, async () => {
      const { page } = reader;
      await page.setViewportSize({ width, height: 900 });
      const max = await api<{ products: { productId: string; name: string; available: boolean }[] }>(
        `/markets/${reading.marketId}/servicemax?country=${COUNTRY}`,
      );
      const excluded = max.products.find((p) => !p.available);
      expect(excluded, `a product ${COUNTRY} excludes in ${reading.marketId}`).toBeDefined();
      if (!excluded) return;
      await page.goto(`${base}/markets/${reading.marketId}?country=${COUNTRY}`);
      await settled();
      await page.locator(`[data-testid="snapshot-table"] a[data-product-id="${excluded.productId}"]`).click();
      await page.waitForURL((url) => url.pathname.endsWith(`/products/${excluded.productId}`));
      await settled();
      expect(new URL(page.url()).searchParams.get("country")).toBe(COUNTRY);
      expect(await page.getByTestId("frame-country").inputValue()).toBe(COUNTRY);
      const verdict = page.getByTestId("under-country-verdict");
      expect(await verdict.getAttribute("data-unavailable-under")).toBe(COUNTRY);
      expect(await verdict.textContent()).toContain("Unavailable under France's controls.");
      expect(await page.locator("main").textContent()).not.toMatch(/Usable under Germany/);
      await page.screenshot({ path: path.join(SCREENSHOTS, `reading-context-product-${width}.png`) });

      // Back to the markets list — the breadcrumb at 1280, the header's menu on a phone (no
      // breadcrumb there): under France, with how many products are usable there.
      if (width === 1280) await page.locator(".breadcrumb").getByRole("link", { name: "Markets" }).click();
      else {
        await page.locator(".site-header details.menu summary").click();
        await page.locator(".site-header details.menu").getByRole("link", { name: "Markets" }).click();
      }
      await page.waitForURL((url) => url.pathname === "/markets");
      expect(new URL(page.url()).searchParams.get("country")).toBe(COUNTRY);
      expect(await page.getByTestId("markets-country").textContent()).toContain("France");
      expect(await page.getByTestId("market-usable").count()).toBeGreaterThan(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, `reading-context-markets-${width}.png`) });
    }, 120_000);
});
