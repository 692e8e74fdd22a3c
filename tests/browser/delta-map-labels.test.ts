/**
 * The delta map's product names, as Chromium draws them: under France's controls the demo's
 * foundation-model APIs crowd together (Vantfjord, Fennwick and Kestrelune among them), and no
 * two names may overlap, nor cover a point, nor leave the plot — at desktop width and at a
 * phone's. Measured from the rendered SVG text elements' bounding boxes, not from the placement's
 * own estimate (tests/unit/label-placement.test.ts checks that).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SIZED_MARKET } from "../app/global-setup";
import { type ReaderSession, readerSignedUpAt } from "../helpers/browser";

const base = inject("appUrl");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
const MAP = `${base}/markets/foundation-model-apis/readings?country=FR`;

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
interface Drawn extends Rect {
  text: string;
  product: string | null;
}

/** Every label, point and mark the map drew, with its rectangle on screen. */
async function drawnMap(page: Page) {
  const figure = page.locator('[data-testid="delta-map"]');
  await expect.poll(() => figure.locator('svg [data-mark="streak"]').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  return figure.evaluate((root) => {
    const rect = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const svg = root.querySelector("svg.recharts-surface") as SVGSVGElement;
    const grid = root.querySelector(".recharts-cartesian-grid") as SVGGElement;
    return {
      svg: rect(svg),
      plot: rect(grid),
      marks: root.querySelectorAll('svg [data-mark="streak"]').length,
      labels: [...root.querySelectorAll("svg text.streak-label")].map((e) => ({
        ...rect(e),
        text: e.textContent ?? "",
        product: e.closest("[data-label-for]")?.getAttribute("data-label-for") ?? null,
      })),
      // Where each product is drawn: its point under the controls, or the crossed-out published one.
      anchors: [...root.querySelectorAll('svg [data-mark="streak"]')].map((g) => {
        const circle = g.querySelector("circle.streak-to") ?? g.querySelector("circle.streak-from");
        const r = (circle as Element).getBoundingClientRect();
        return { product: g.getAttribute("data-product-id"), x: r.left + r.width / 2, y: r.top + r.height / 2 };
      }),
      leaders: [...root.querySelectorAll("svg [data-label-for] line.streak-leader")].map((line) => {
        const r = line.getBoundingClientRect();
        return { product: line.closest("[data-label-for]")?.getAttribute("data-label-for") ?? null, ...r.toJSON() };
      }),
      // Each moving product's streak, from its published point to its point under the controls.
      streaks: [...root.querySelectorAll('svg [data-mark="streak"]')].flatMap((g) => {
        const from = g.querySelector("circle.streak-from");
        const to = g.querySelector("circle.streak-to");
        if (!from || !to) return [];
        const centre = (e: Element) => {
          const r = e.getBoundingClientRect();
          return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
        };
        const [a, b] = [centre(from), centre(to)];
        return [{ product: g.getAttribute("data-product-id"), x1: a.x, y1: a.y, x2: b.x, y2: b.y }];
      }),
      points: [...root.querySelectorAll("svg circle.streak-to, svg circle.streak-from")].map((e) => ({
        ...rect(e),
        text: e.getAttribute("class") ?? "",
        product: e.closest("[data-product-id]")?.getAttribute("data-product-id") ?? null,
      })),
      // The chart's own table: each row's product id and name.
      products: [...root.querySelectorAll('[data-testid="delta-map-table"] tbody tr')].map((tr) => ({
        id: tr.getAttribute("data-key"),
        name: tr.querySelector("td")?.textContent ?? "",
        available: tr.querySelectorAll("td")[2]?.textContent === "available",
      })),
    };
  });
}

/** Rectangles that share more than a hair (half a pixel either way) of area. */
const overlap = (a: Rect, b: Rect) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

function overlappingPairs(labels: readonly Drawn[]): string[] {
  const pairs: string[] = [];
  labels.forEach((a, i) => {
    for (const b of labels.slice(i + 1)) if (overlap(a, b)) pairs.push(`${a.text} × ${b.text}`);
  });
  return pairs;
}

/** Whether a segment runs through a rectangle: walked in half-pixel steps, drawn as the eye sees it. */
function crosses(s: { x1: number; y1: number; x2: number; y2: number }, r: Rect): boolean {
  const steps = Math.max(1, Math.ceil(Math.hypot(s.x2 - s.x1, s.y2 - s.y1) * 2));
  for (let i = 0; i <= steps; i++) {
    const x = s.x1 + ((s.x2 - s.x1) * i) / steps;
    const y = s.y1 + ((s.y2 - s.y1) * i) / steps;
    if (x > r.left + 0.5 && x < r.right - 0.5 && y > r.top + 0.5 && y < r.bottom - 0.5) return true;
  }
  return false;
}

/**
 * Whether a label names this product: its name (available or not alike; the mark says which), or
 * a shorter form ending in an ellipsis: where `full` is asked for, only the 28-character cut.
 */
function names(label: string, product: { name: string; available: boolean }, full: boolean): boolean {
  if (label === product.name) return true;
  const prefix = label.slice(0, -1).trimEnd();
  // In full, a name longer than 28 characters is still cut there (the map's longest label).
  return label.endsWith("…") && product.name.startsWith(prefix) && (!full || Array.from(label).length >= 28);
}

/**
 * The map's labels: one per product, naming it (in full at desktop width; on a phone a crowded
 * label may drop "(unavailable)" or end in an ellipsis), no two overlapping, none on a point,
 * all inside the plot.
 */
async function expectReadableLabels(page: Page, { full }: { full: boolean }) {
  const map = await drawnMap(page);
  // One label per product (none had to be hidden on this map), each naming its own product.
  expect(map.labels).toHaveLength(map.marks);
  expect(map.labels.map((l) => l.product).sort()).toEqual(map.products.map((p) => p.id).sort());
  const misnamed = map.labels.filter((label) => {
    const product = map.products.find((p) => p.id === label.product);
    return !product || !names(label.text, product, full);
  });
  expect(
    misnamed.map((l) => `${l.product}: ${l.text}`),
    JSON.stringify(misnamed.map((l) => `${l.product}: ${l.text}`)),
  ).toEqual([]);
  expect(overlappingPairs(map.labels), JSON.stringify(overlappingPairs(map.labels))).toEqual([]);
  // Each name sits by its own point (within 12 px of it), or a leader line joins the two.
  const astray = map.labels.filter((label) => {
    const anchor = map.anchors.find((a) => a.product === label.product);
    if (!anchor) return true;
    const dx = Math.max(label.left - anchor.x, 0, anchor.x - label.right);
    const dy = Math.max(label.top - anchor.y, 0, anchor.y - label.bottom);
    if (Math.hypot(dx, dy) <= 12) return false;
    const leader = map.leaders.find((l) => l.product === label.product);
    const touches = (r: Rect, x: number, y: number, slack: number) =>
      x >= r.left - slack && x <= r.right + slack && y >= r.top - slack && y <= r.bottom + slack;
    return !leader || !touches(leader, anchor.x, anchor.y, 8);
  });
  expect(
    astray.map((l) => `${l.text} at ${Math.round(l.left)},${Math.round(l.top)}`),
    JSON.stringify(astray.map((l) => `${l.text} at ${Math.round(l.left)},${Math.round(l.top)}`)),
  ).toEqual([]);
  // No name covers a point, its own or another product's…
  const covered = map.labels.flatMap((label) =>
    map.points.filter((point) => overlap(label, point)).map((point) => `${label.text} on ${point.product}`),
  );
  expect(covered, JSON.stringify(covered)).toEqual([]);
  // …nor does any streak run through a name.
  const crossed = map.labels.flatMap((label) =>
    map.streaks.filter((streak) => crosses(streak, label)).map((streak) => `${streak.product} through ${label.text}`),
  );
  expect(crossed, JSON.stringify(crossed)).toEqual([]);
  // Names are at least 12 px: readable at arm's length, on a phone too.
  const sizes = await page
    .locator('[data-testid="delta-map"] svg text.streak-label')
    .evaluateAll((texts) => texts.map((t) => Number.parseFloat(getComputedStyle(t).fontSize)));
  expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
  // …and every name stays inside the plot, where the chart's clip keeps it whole.
  const outside = map.labels.filter(
    (l) =>
      l.left < map.plot.left - 0.5 ||
      l.right > map.plot.right + 0.5 ||
      l.top < map.plot.top - 0.5 ||
      l.bottom > map.plot.bottom + 0.5,
  );
  expect(
    outside.map((l) => l.text),
    JSON.stringify(outside.map((l) => l.text)),
  ).toEqual([]);
  return map;
}

describe("delta map labels, in Chromium", () => {
  let reader: ReaderSession;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    reader = await readerSignedUpAt(MAP, {
      email: `labels-${Date.now()}@example.com`,
      organization: "Label Readers SAS",
      homeCountry: "FR",
    });
    page = reader.page;
  });
  afterAll(() => reader?.close());

  it("draws every product's name under France's controls with no two overlapping (desktop)", async () => {
    const map = await expectReadableLabels(page, { full: true });
    // The cluster the issue names is on this map, every name of it drawn.
    for (const name of ["Vantfjord", "Fennwick", "Kestrelune"])
      expect(map.labels.some((l) => l.text.startsWith(name))).toBe(true);
    await page.getByTestId("delta-map").screenshot({ path: path.join(SCREENSHOTS, "delta-map-fr-desktop.png") });
  });

  it("keeps them apart at a phone's width too, where the map is a third as wide", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expectReadableLabels(page, { full: false });
    await page.getByTestId("delta-map").screenshot({ path: path.join(SCREENSHOTS, "delta-map-fr-phone.png") });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  // Four markets × four countries × two widths: minutes on a loaded two-core machine.
  it("keeps every demo market's names apart under every country at both widths", async () => {
    const response = await fetch(`${base}/v1/markets`, {
      headers: { Authorization: `Bearer ${inject("accounts").reader.token}` },
    });
    const listed = (await response.json()) as { markets: { marketId: string }[] };
    // The demo's markets (db/demo/markets), not the browser suite's formula-names fixture (seven
    // products sharing one point there leave some label nowhere a streak does not reach), nor the
    // generated market of the height budgets (tests/browser/bounded-pages.test.ts).
    const markets = listed.markets.filter(
      (m) => m.marketId !== "formula-names" && m.marketId !== SIZED_MARKET.marketId,
    );
    expect(markets.length).toBeGreaterThan(1);
    const countries = ["DE", "US", "BE", "JP"];
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      for (const { marketId } of markets)
        for (const country of countries) {
          await page.goto(`${base}/markets/${marketId}/readings?country=${country}`);
          const where = `${marketId} under ${country} at ${viewport.width} px`;
          // Shorter forms allowed where a market is crowded (a phone).
          await expectReadableLabels(page, { full: false }).catch(async (error: Error) => {
            await page.getByTestId("delta-map").screenshot({
              path: path.join(SCREENSHOTS, `delta-map-failed-${marketId}-${country}-${viewport.width}.png`),
            });
            throw new Error(`${where}: ${error.message}`);
          });
        }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 240_000);

  it("draws the names as text, never as markup", async () => {
    // Names reach the SVG as React text: each label is a text element with no element children.
    const children = await page
      .locator('[data-testid="delta-map"] svg text.streak-label')
      .evaluateAll((texts) => texts.reduce((n, t) => n + t.children.length, 0));
    expect(children).toBe(0);
  });
});
