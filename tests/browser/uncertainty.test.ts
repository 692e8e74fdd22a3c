/**
 * How sure a rank is, as a person sees it in Chromium: whiskers on the Capability Index and Max
 * charts that are the API's intervals, rank ranges and unsettled bands by the names, and the
 * what-if panel — sliders that rerank after a pause, say it is not the published ranking, agree
 * with the API's what-if, and keep their weights in the URL.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ReaderSession, readerSignedUpAt } from "../helpers/browser";

const base = inject("appUrl");
const accounts = inject("accounts");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
const MARKET = "foundation-model-apis";
const MARKET_PAGE = `${base}/markets/${MARKET}`;
const COUNTRY = "FR";

type Interval = { p5: number; p95: number };
type CapaIndex = {
  products: { productId: string; innovationInterval: Interval; bandSettled: boolean; rankInterval: object }[];
};
type Max = { products: { productId: string; available: boolean; retainedInterval: Interval }[] };
type Snapshot = { dimensions: { id: string; indicators: { id: string; name: string; weight: number }[] }[] };
type WhatIf = {
  capabilityIndex: { products: { productId: string; rank: number; rankChange: number }[] };
  max?: { products: { productId: string; rank: number; rankChange: number; available: boolean }[] };
};

async function api<T>(pathAndQuery: string): Promise<T> {
  const response = await fetch(`${base}/v1${pathAndQuery}`, {
    headers: { Authorization: `Bearer ${accounts.french.token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** Each whisker a chart drew: its product and the interval it spans. */
async function whiskers(page: Page, figure: string) {
  const bars = page.locator(`[data-testid="${figure}"] svg [data-mark="bar"]`);
  await expect.poll(() => bars.count(), { timeout: 20_000 }).toBeGreaterThan(0);
  return bars.evaluateAll((elements) =>
    elements.map((bar) => {
      const whisker = bar.querySelector('[data-mark="whisker"]');
      return {
        productId: bar.getAttribute("data-product-id"),
        name: bar.querySelector(".bar-name")?.textContent ?? "",
        low: whisker ? Number(whisker.getAttribute("data-low")) : null,
        high: whisker ? Number(whisker.getAttribute("data-high")) : null,
      };
    }),
  );
}

/** A what-if table's rows: product, rank and rank change (an unavailable product has no row: it is set apart). */
function whatIfRows(page: Page, table: string) {
  return page
    .locator(`[data-testid="${table}"] tbody tr`)
    .evaluateAll((rows) =>
      rows.map((row) => [
        row.getAttribute("data-product-id"),
        Number(row.querySelector("td")?.textContent),
        Number(row.getAttribute("data-rank-change")),
      ]),
    );
}

describe("uncertainty on the market page, in Chromium", () => {
  let reader: ReaderSession;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    reader = await readerSignedUpAt(`${MARKET_PAGE}?country=${COUNTRY}`, {
      email: `uncertainty-${Date.now()}@example.com`,
      organization: "Uncertainty Reader GmbH",
      homeCountry: COUNTRY,
    });
    page = reader.page;
  });
  afterAll(() => reader?.close());

  it("draws each product's interval as a whisker on the Capability Index and Max charts", async () => {
    const [index, max] = await Promise.all([
      api<CapaIndex>(`/markets/${MARKET}/capaindex`),
      api<Max>(`/markets/${MARKET}/servicemax?country=${COUNTRY}`),
    ]);
    await page.goto(`${MARKET_PAGE}/readings?country=${COUNTRY}`);
    const drawn = await whiskers(page, "capaindex");
    expect(drawn).toHaveLength(index.products.length);
    for (const product of index.products) {
      const mark = drawn.find((d) => d.productId === product.productId);
      expect([mark?.low, mark?.high]).toEqual([product.innovationInterval.p5, product.innovationInterval.p95]);
      expect(mark?.name.includes("band not settled")).toBe(!product.bandSettled);
    }
    const kept = await whiskers(page, "servicemax");
    for (const product of max.products) {
      const mark = kept.find((d) => d.productId === product.productId);
      if (product.available)
        expect([mark?.low, mark?.high]).toEqual([product.retainedInterval.p5, product.retainedInterval.p95]);
      else expect(mark?.low).toBeNull();
    }
    await page
      .locator('[data-testid="capaindex"]')
      .screenshot({ path: path.join(SCREENSHOTS, "capaindex-whiskers.png") });
  });

  it("reranks with other weights after a pause, as the API's what-if does, never as the published ranking", async () => {
    const snapshot = await api<Snapshot>(`/markets/${MARKET}/snapshot`);
    const first = snapshot.dimensions.find((d) => d.id === "innovation")?.indicators[0];
    if (!first) throw new Error("no Innovation indicator");
    await page.goto(`${MARKET_PAGE}/whatif?country=${COUNTRY}`);
    const panel = page.getByTestId("whatif");
    await expect.poll(() => panel.getByTestId("whatif-note").textContent()).toContain("Not the published ranking");
    expect(await panel.getByTestId("whatif-capaindex").count()).toBe(0);

    // Once the page is live (hydrated), the slider to 0 with the keyboard: the
    // first Innovation indicator no longer counts.
    await expect.poll(() => page.getByTestId("whatif").getAttribute("data-live"), { timeout: 20_000 }).toBe("true");
    const slider = panel.locator(`input[data-indicator="${first.id}"]`);
    await slider.focus();
    await page.keyboard.press("Home");
    await expect.poll(() => panel.getByTestId(`weight-${first.id}`).textContent()).toBe("0");
    await page.waitForURL((url) => url.searchParams.get("whatif") === `${first.id}:0`);
    await expect.poll(() => panel.getByTestId("whatif-capaindex").count(), { timeout: 20_000 }).toBe(1);

    const expected = await api<WhatIf>(`/markets/${MARKET}/whatif?weights=${first.id}:0&country=${COUNTRY}`);
    await expect
      .poll(() => whatIfRows(page, "whatif-capaindex"))
      .toEqual(expected.capabilityIndex.products.map((p) => [p.productId, p.rank, p.rankChange]));
    expect(await whatIfRows(page, "whatif-max")).toEqual(
      (expected.max?.products ?? []).filter((p) => p.available).map((p) => [p.productId, p.rank, p.rankChange]),
    );
    expect(expected.capabilityIndex.products.some((p) => p.rankChange !== 0)).toBe(true);
    await panel.screenshot({ path: path.join(SCREENSHOTS, "whatif-panel.png") });

    // The link keeps the weights: opened again, the same slider and the same ranking.
    await page.goto(page.url());
    await expect.poll(() => page.getByTestId(`weight-${first.id}`).textContent()).toBe("0");
    await expect
      .poll(() => whatIfRows(page, "whatif-capaindex"), { timeout: 20_000 })
      .toEqual(expected.capabilityIndex.products.map((p) => [p.productId, p.rank, p.rankChange]));

    // Back to the published weights: the URL forgets them and no what-if ranking is shown.
    await page.getByRole("button", { name: "Back to the published weights" }).click();
    await page.waitForURL((url) => !url.searchParams.has("whatif"));
    expect(await page.getByTestId("whatif-capaindex").count()).toBe(0);
  });
});
