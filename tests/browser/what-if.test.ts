/**
 * The What if view as a person uses it, in Chromium: any one slider — an Innovation, a Control or
 * a Scale weight — changes what is on screen, and to the API's what-if numbers; at 1280 × 900 the
 * results sit beside the sliders with every cell inside its frame; at 390 × 844 the first slider
 * and the results' summary are on the first screen, and the summary stays in the viewport while a
 * slider is dragged; a refusal is a plain sentence. Screenshots at both sizes go to
 * artifacts/screenshots/.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ReaderSession, readerSignedUpAt } from "../helpers/browser";
import { DESKTOP, PHONE, SCREENSHOTS } from "../helpers/views";

const base = inject("appUrl");
const accounts = inject("accounts");
const MARKET = "foundation-model-apis";
const COUNTRY = "FR";
const VIEW = `${base}/markets/${MARKET}/whatif?country=${COUNTRY}`;

type Axis = "innovation" | "control" | "scale";
type Scores = Record<Axis, number>;
type Snapshot = { dimensions: { id: Axis; indicators: { id: string; name: string; weight: number }[] }[] };
type WhatIf = {
  capabilityIndex: { products: { productId: string; scores: Scores; publishedScores: Scores }[] };
  max?: { products: { productId: string; available: boolean; on: Scores | null }[] };
};

async function api<T>(pathAndQuery: string): Promise<T> {
  const response = await fetch(`${base}/v1${pathAndQuery}`, {
    headers: { Authorization: `Bearer ${accounts.french.token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** The view opened afresh at the published weights, once it is live (hydrated: the sliders answer). */
async function openView(page: Page, query = "") {
  await page.goto(`${VIEW}${query}`);
  await page.getByTestId("whatif").waitFor({ state: "visible", timeout: 20_000 });
  await expect.poll(() => page.getByTestId("whatif").getAttribute("data-live"), { timeout: 20_000 }).toBe("true");
}

/** The summary once it shows an answer for the weights on screen (not waiting, not scoring). */
async function settled(page: Page) {
  const summary = page.getByTestId("whatif-summary");
  await expect
    .poll(
      async () =>
        `${await summary.getAttribute("data-state")} ${await summary.getAttribute("data-busy")} ${await summary.locator("strong").first().textContent()}`,
      { timeout: 20_000 },
    )
    .toMatch(/^(scored|refused) false Your weights: \d+ changed$/);
  return summary;
}

/** Each row's product and the value its cell of this axis shows, as the person reads it. */
function column(page: Page, table: string, axis: Axis) {
  return page
    .locator(`[data-testid="${table}"] tbody tr`)
    .evaluateAll(
      (rows, a) =>
        rows.map((row) => [
          row.getAttribute("data-product-id"),
          Number(row.querySelector(`td[data-axis="${a}"] .score-now`)?.textContent),
          row.querySelector(`td[data-axis="${a}"] .score-change`)?.textContent ?? "",
        ]),
      axis,
    );
}

/** Whether the element's box lies wholly within the viewport. */
async function inViewport(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  if (!box || !size) return false;
  return box.y >= 0 && box.x >= 0 && box.y + box.height <= size.height + 0.5 && box.x + box.width <= size.width + 0.5;
}

describe("the What if view, in Chromium", () => {
  let reader: ReaderSession;
  let page: Page;
  let snapshot: Snapshot;
  const first = (axis: Axis) => {
    const indicator = snapshot.dimensions.find((d) => d.id === axis)?.indicators[0];
    if (!indicator) throw new Error(`no ${axis} indicator`);
    return indicator;
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    reader = await readerSignedUpAt(VIEW, {
      email: `what-if-${Date.now()}@example.com`,
      organization: "What If Analysts SAS",
      homeCountry: COUNTRY,
    });
    page = reader.page;
    snapshot = await api<Snapshot>(`/markets/${MARKET}/snapshot`);
  });
  afterAll(() => reader?.close());

  for (const axis of ["innovation", "control", "scale"] as const)
    it(`shows what a ${axis} weight moves, as the API scores it, in sight beside the sliders at 1280`, async () => {
      await page.setViewportSize(DESKTOP);
      await openView(page);
      const indicator = first(axis);
      const summary = page.getByTestId("whatif-summary");
      const line = page.getByTestId(`summary-${axis}`);
      expect(await line.count()).toBe(0); // the published weights: nothing scored yet
      const before = await page.getByTestId("whatif-results").textContent();

      // Triple the weight with the keyboard (steps of 0.05).
      const slider = page.locator(`input[data-indicator="${indicator.id}"]`);
      await slider.evaluate((element) => element.scrollIntoView({ block: "center" }));
      await slider.focus();
      const steps = Math.round((indicator.weight * 2) / 0.05);
      for (let i = 0; i < steps; i++) await page.keyboard.press("ArrowRight");
      const weight = Number(await page.getByTestId(`weight-${indicator.id}`).textContent());
      expect(weight).toBeCloseTo(indicator.weight * 3, 5);
      await settled(page);

      // What changed is on screen: the summary's line for the axis, in the viewport.
      expect(await page.getByTestId("whatif-results").textContent()).not.toBe(before);
      expect(await line.textContent()).toMatch(/\d+ of \d+ change; largest: .+ [+−]\d+\.\d, now \d+\.\d/);
      expect(await inViewport(page, summary)).toBe(true);
      expect(await inViewport(page, slider)).toBe(true);

      // The axis's column is the API's what-if for the same weights, change and published value beside it.
      const expected = await api<WhatIf>(
        `/markets/${MARKET}/whatif?weights=${indicator.id}:${weight}&country=${COUNTRY}`,
      );
      const shown = await column(page, "whatif-capaindex", axis);
      expect(new Map(shown.map(([id, now]) => [id, now]))).toEqual(
        new Map(expected.capabilityIndex.products.map((p) => [p.productId, p.scores[axis]])),
      );
      expect(shown.some(([, , change]) => /^[+−]\d+\.\d from \d+\.\d$/.test(String(change)))).toBe(true);
      const kept = await column(page, "whatif-max", axis);
      const usable = (expected.max?.products ?? []).filter((p) => p.available);
      expect(new Map(kept.map(([id, now]) => [id, now]))).toEqual(
        new Map(usable.map((p) => [p.productId, p.on?.[axis]])),
      );

      // Ordered by that axis, the table follows it: highest first.
      await page.getByTestId(`whatif-by-${axis}`).check();
      await expect.poll(() => page.locator('[data-testid="whatif-capaindex"]').getAttribute("data-order")).toBe(axis);
      const ordered = (await column(page, "whatif-capaindex", axis)).map(([, now]) => Number(now));
      expect(ordered).toEqual([...ordered].sort((a, b) => b - a));
      await page.waitForURL((url) => url.searchParams.get("whatifBy") === (axis === "innovation" ? null : axis));

      // At 1280 the results sit beside the sliders, and every cell is inside its frame.
      const sliders = await page.getByTestId("whatif-sliders").boundingBox();
      const results = await page.getByTestId("whatif-results").boundingBox();
      expect(results?.x ?? 0).toBeGreaterThanOrEqual((sliders?.x ?? 0) + (sliders?.width ?? 0));
      const frames = await page.locator(".whatif-tables .table-wrap").evaluateAll((wraps) =>
        wraps.map((wrap) => {
          const edge = wrap.getBoundingClientRect().right;
          const past = [...wrap.querySelectorAll("th, td")].filter((c) => c.getBoundingClientRect().right > edge + 1);
          return { scroll: wrap.scrollWidth, client: wrap.clientWidth, past: past.length };
        }),
      );
      expect(frames).toHaveLength(2);
      if (axis === "control")
        console.log(
          `[whatif] 1280: sliders ${Math.round(sliders?.width ?? 0)} px, results ${Math.round(results?.width ?? 0)} px at x=${Math.round(results?.x ?? 0)}, table frames scrollWidth/clientWidth ${frames.map((f) => `${f.scroll}/${f.client}`).join(", ")}`,
        );
      for (const frame of frames) {
        expect(frame.scroll).toBeLessThanOrEqual(frame.client);
        expect(frame.past).toBe(0);
      }
      if (axis === "control") await page.screenshot({ path: path.join(SCREENSHOTS, "whatif-desktop-1280x900.png") });
    });

  it("sets apart the products no offering makes usable under the country: no rank, no score", async () => {
    await page.setViewportSize(DESKTOP);
    await openView(page, `&whatif=${first("innovation").id}:0`);
    await settled(page);
    const expected = await api<WhatIf>(
      `/markets/${MARKET}/whatif?weights=${first("innovation").id}:0&country=${COUNTRY}`,
    );
    const unavailable = (expected.max?.products ?? []).filter((p) => !p.available).map((p) => p.productId);
    expect(unavailable.length).toBeGreaterThan(0);
    const ranked = await page
      .locator('[data-testid="whatif-max"] tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-product-id")));
    expect(ranked.filter((id) => unavailable.includes(id as string))).toEqual([]);
    expect(await page.getByTestId("whatif-unavailable").textContent()).toMatch(
      new RegExp(`^Unavailable under ${COUNTRY}'s controls — no offering meets them all, so no rank and no score: `),
    );
  });

  it("keeps the first slider and the results on a phone's first screen, and the results in view while dragging", async () => {
    await page.setViewportSize(PHONE);
    await openView(page);
    const summary = page.getByTestId("whatif-summary");
    const firstSlider = page.locator('[data-testid="whatif-sliders"] input[type="range"]').first();
    // The first screen, unscrolled: a slider to move and where its effect will show.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await inViewport(page, firstSlider)).toBe(true);
    expect(await inViewport(page, summary)).toBe(true);
    console.log(
      `[whatif] phone first screen: first slider at y=${Math.round((await firstSlider.boundingBox())?.y ?? 0)}, summary at y=${Math.round((await summary.boundingBox())?.y ?? 0)}`,
    );

    // Drag a Scale slider, far down the sliders, with the mouse; hold it while the answer comes.
    const indicator = first("scale");
    const slider = page.locator(`input[data-indicator="${indicator.id}"]`);
    await slider.evaluate((element) => element.scrollIntoView({ block: "center" }));
    const box = await slider.boundingBox();
    if (!box) throw new Error("the slider has no box");
    const y = box.y + box.height / 2;
    const from = box.x + (box.width * indicator.weight) / Number(await slider.getAttribute("max"));
    await page.mouse.move(from, y);
    await page.mouse.down();
    for (let step = 1; step <= 8; step++) {
      await page.mouse.move(from + (step * (box.x + box.width - from)) / 10, y);
      expect(await inViewport(page, summary), `step ${step}`).toBe(true);
    }
    await settled(page);
    const line = page.getByTestId("summary-scale");
    expect(await line.textContent()).toMatch(/\d+ of \d+ change; largest/);
    expect(await inViewport(page, summary)).toBe(true);
    expect(await inViewport(page, line)).toBe(true);
    expect(await inViewport(page, slider)).toBe(true);
    console.log(
      `[whatif] phone while dragging at scrollY=${await page.evaluate(() => Math.round(window.scrollY))}: summary at y=${Math.round((await summary.boundingBox())?.y ?? 0)}–${Math.round(((await summary.boundingBox())?.y ?? 0) + ((await summary.boundingBox())?.height ?? 0))}`,
    );
    await page.screenshot({ path: path.join(SCREENSHOTS, "whatif-phone-390x844-dragging.png") });
    await page.mouse.up();
    // The summary's link leads to every product's card, below the sliders.
    await page.getByRole("link", { name: "Every product" }).click();
    await expect
      .poll(() => inViewport(page, page.locator('[data-testid="whatif-capaindex"] tbody tr').first()))
      .toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, "whatif-phone-390x844-cards.png") });
    await page.setViewportSize(DESKTOP);
  });

  it("refuses every Innovation weight at zero in a plain sentence, on the page as in the API", async () => {
    await page.setViewportSize(DESKTOP);
    await openView(page);
    for (const indicator of snapshot.dimensions.find((d) => d.id === "innovation")?.indicators ?? []) {
      await page.locator(`input[data-indicator="${indicator.id}"]`).focus();
      await page.keyboard.press("Home");
    }
    await settled(page);
    const sentence = "Every Innovation weight is zero: give at least one Innovation indicator a weight above 0.";
    expect(await page.getByTestId("whatif-refused").textContent()).toBe(sentence);
    expect(await inViewport(page, page.getByTestId("whatif-refused"))).toBe(true);
    expect(await page.getByTestId("whatif-capaindex").count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "whatif-refused-1280x900.png") });
  });
});
