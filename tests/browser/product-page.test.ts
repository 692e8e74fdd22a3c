/**
 * The product page and the market page's availability heat map, in Chromium against the built app:
 * a product's link from the snapshot table; each axis's contributions adding up to the shown score,
 * with their evidence; a country's controls (the engaged offering, or the controls an unavailable
 * product misses, and each indicator's change); every product name on the market page a link; the
 * heat map driven by keyboard alone (one tab stop, arrow keys, the focused cell described), its
 * unavailable cells marked, its CSV against the API's matrix; both at 390 px without widening the
 * page. Expected values come from the REST API's own answers, never from the page.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { AvailabilityCell } from "@/server/2-readings/availability";
import { downloadText, type ReaderSession, readerSignedUpAt } from "../helpers/browser";
import { readCsv } from "../helpers/csv";
import { expectViewsWithinBudget, PHONE, SCREENSHOTS, SIZES } from "../helpers/views";

const base = inject("appUrl");
const accounts = inject("accounts");
const MARKET = "foundation-model-apis";
const MARKET_PAGE = `${base}/markets/${MARKET}`;
const FORMULA_MARKET = "formula-names";
const HOME = "DE";
const COUNTRY = "FR";
const AXES = ["innovation", "control", "scale"] as const;
/**
 * The product page's views, what shows each is drawn, and its height budget in screens of the
 * width's viewport (the page was one 7,400 px stack at 1280): about two at 1280, more on a phone,
 * where tables become cards.
 */
const PRODUCT_VIEWS = [
  { id: "overview", path: "", ready: "under-controls", desktop: 2, phone: 4 },
  { id: "innovation", path: "/innovation", ready: "contributions-innovation-table", desktop: 2.5, phone: 8 },
  { id: "control", path: "/control", ready: "contributions-control-table", desktop: 2.5, phone: 8 },
  { id: "scale", path: "/scale", ready: "contributions-scale-table", desktop: 2.5, phone: 8 },
  { id: "offerings", path: "/offerings", ready: "offerings-table", desktop: 2, phone: 6 },
  { id: "sovereignty", path: "/sovereignty", ready: "sovereignty-table", desktop: 2, phone: 6 },
] as const;

type Axis = (typeof AXES)[number];
type Scores = Record<Axis, number>;
interface Evidence {
  source: string;
  asOf: string;
  note?: string;
  confidence?: string;
}
interface Breakdown {
  release: number;
  productId: string;
  name: string;
  vendor: string;
  scores: Scores;
  bands: Record<Axis, string>;
  axes: Record<
    Axis,
    {
      score: number;
      indicators: {
        indicatorId: string;
        name: string;
        contribution: number;
        gap: boolean;
        evidence: Evidence | null;
      }[];
    }
  >;
  offerings: { offeringId: string; name: string; default: boolean; satisfies: string[] }[];
  underControls: {
    country: string;
    available: boolean;
    offering: { id: string; name: string } | null;
    missingControls: string[];
    underControls: Scores;
    distance: Scores & { magnitude: number };
    axes: Record<Axis, { score: number; indicators: { indicatorId: string; change: number }[] }>;
  } | null;
}
interface Matrix {
  release: number;
  countries: { country: string; name: string; controls: { id: string; name: string }[] }[];
  products: {
    productId: string;
    name: string;
    innovation: number;
    cells: AvailabilityCell[];
  }[];
}

/** The API's own answer, with a fixture token of another organization. */
async function api<T>(pathAndQuery: string): Promise<T> {
  const response = await fetch(`${base}/v1${pathAndQuery}`, {
    headers: { Authorization: `Bearer ${accounts.reader.token}` },
  });
  expect(response.status, pathAndQuery).toBe(200);
  return (await response.json()) as T;
}

const one = (n: number) => n.toFixed(1);
const tenths = (n: number) => Math.round(n * 10);
/** Every control's name by id, from the matrix's columns. */
const controlNames = (matrix: Matrix) =>
  new Map(matrix.countries.flatMap((c) => c.controls.map((k) => [k.id, k.name] as const)));

/** The focused element's place in the heat map: its row and column (−1: the product's name), or null outside it. */
async function focused(page: Page): Promise<{ row: number; col: number } | null> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active?.closest('[data-testid="heatmap"]') || active.dataset.row === undefined) return null;
    return { row: Number(active.dataset.row), col: Number(active.dataset.col) };
  });
}

/**
 * Waits until the streamed page shows this element: the server streams a page behind its loading
 * frame, and React reveals what it streamed a moment later, so "loaded" is not yet "shown".
 */
const shown = (page: Page, testId: string) => page.getByTestId(testId).first().waitFor({ state: "visible" });

/** How far the page itself scrolls sideways. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** The innermost elements reaching past the right edge, for the failure message. */
const widest = (page: Page) =>
  page.evaluate((width) => {
    const past = [...document.querySelectorAll("#content *")].filter(
      (e) => e.getBoundingClientRect().right > width + 1 && e.closest(".heatmap-scroll") === null,
    );
    return past
      .filter((e) => !past.some((other) => other !== e && e.contains(other)))
      .slice(0, 8)
      .map(
        (e) =>
          `<${e.tagName.toLowerCase()} class="${e.getAttribute("class") ?? ""}"> ${Math.round(e.getBoundingClientRect().right)} px: ${(e.textContent ?? "").slice(0, 40)}`,
      );
  }, PHONE.width);

describe("the product page and the availability heat map, in Chromium", () => {
  let reader: ReaderSession;
  let page: Page;
  let matrix: Matrix;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    reader = await readerSignedUpAt(
      MARKET_PAGE,
      {
        email: `product-${Date.now()}@example.com`,
        organization: "Product Readers BV",
        homeCountry: HOME,
      },
      { acceptDownloads: true },
    );
    page = reader.page;
    matrix = await api<Matrix>(`/markets/${MARKET}/availability`);
  });
  afterAll(() => reader?.close());

  it("follows a product's link from the snapshot table to its page: name, vendor, release, scores and bands", async () => {
    const snapshot = await api<{ release: number; name: string; products: { productId: string; name: string }[] }>(
      `/markets/${MARKET}/snapshot`,
    );
    const product = snapshot.products[0] as { productId: string; name: string };
    await page.goto(MARKET_PAGE);
    await shown(page, "snapshot-table");
    const link = page.locator(`[data-testid="snapshot-table"] tr[data-product-id="${product.productId}"] th a`);
    expect(await link.textContent()).toBe(product.name);
    // In the page's reading: the release the name was read in, the country the page is read under.
    expect(await link.getAttribute("href")).toBe(
      `/markets/${MARKET}/products/${product.productId}?release=${snapshot.release}&country=${HOME}`,
    );
    await link.click();
    await page.waitForURL(
      `${base}/markets/${MARKET}/products/${product.productId}?release=${snapshot.release}&country=${HOME}`,
    );
    await shown(page, "product-name");

    const detail = await api<Breakdown>(`/markets/${MARKET}/products/${product.productId}`);
    expect(await page.getByTestId("product-name").textContent()).toBe(detail.name);
    expect(await page.getByTestId("product-vendor").textContent()).toBe(`by ${detail.vendor}`);
    expect(await page.getByTestId("release-line").textContent()).toContain(`Release ${detail.release} (latest)`);
    // Back to the market at the same release, under the same country (the home country here).
    expect(await page.getByRole("link", { name: snapshot.name }).getAttribute("href")).toBe(
      `/markets/${MARKET}?release=${snapshot.release}&country=${HOME}`,
    );
    for (const axis of AXES) {
      expect(await page.getByTestId(`score-${axis}-value`).textContent()).toBe(one(detail.scores[axis]));
      expect(await page.getByTestId(`score-${axis}`).locator(".badge").textContent()).toBe(detail.bands[axis]);
    }
  });

  it("shows each axis's contributions, largest first, adding up to the shown score, with their evidence", async () => {
    const detail = await api<Breakdown>(`/markets/${MARKET}/products/${matrix.products[0]?.productId}`);
    await page.goto(`${base}/markets/${MARKET}/products/${detail.productId}`);
    await shown(page, "product-name");
    const overview = new Map<Axis, number>();
    for (const axis of AXES) overview.set(axis, Number(await page.getByTestId(`score-${axis}-value`).textContent()));
    for (const axis of AXES) {
      // Each axis is a view of its own, reached from its score's card.
      await page.goto(`${base}/markets/${MARKET}/products/${detail.productId}`);
      await page.getByTestId(`score-${axis}-link`).click();
      await page.waitForURL((url) => url.pathname === `/markets/${MARKET}/products/${detail.productId}/${axis}`);
      await shown(page, `contributions-${axis}-table`);
      expect(await page.getByTestId("product-views").locator('a[aria-current="page"]').getAttribute("data-view")).toBe(
        axis,
      );
      const shownScore = overview.get(axis) as number;
      expect(shownScore).toBe(detail.scores[axis]);
      const rows = await page
        .locator(`[data-testid="contributions-${axis}-table"] tbody tr`)
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
      const indicators = detail.axes[axis].indicators;
      expect(rows).toHaveLength(indicators.length);
      // The table's contributions add up to the score shown on the overview.
      const headers = await page.locator(`[data-testid="contributions-${axis}-table"] thead th`).allTextContents();
      const column = headers.indexOf("Contribution (pts)");
      expect(column, headers.join(" | ")).toBeGreaterThan(0);
      const contributions = rows.map((cells) => Number(cells[column]));
      expect(contributions.reduce((sum, c) => sum + tenths(c), 0)).toBe(tenths(shownScore));
      expect(contributions).toEqual([...contributions].sort((a, b) => b - a));
      expect(rows.map((cells) => cells[0]).sort()).toEqual(indicators.map((i) => i.name).sort());
      expect(await page.getByTestId(`contributions-total-${axis}`).textContent()).toBe(one(shownScore));
      // One bar per indicator, gaps said in words.
      const marks = page.locator(`[data-testid="contributions-${axis}"] svg [data-mark="contribution"]`);
      expect(await marks.count()).toBe(indicators.length);
      for (const gap of indicators.filter((i) => i.gap))
        expect(
          await page
            .locator(`[data-testid="contributions-${axis}"] svg [data-indicator-id="${gap.indicatorId}"]`)
            .textContent(),
        ).toContain("not demonstrated");
    }
    // The evidence behind a value: its date on screen, its source a link only when it is a web address.
    // The evidence of the Innovation view (the page now shows it).
    await page.goto(`${base}/markets/${MARKET}/products/${detail.productId}/innovation`);
    await shown(page, "contributions-innovation-table");
    const documented = detail.axes.innovation.indicators.filter((i) => i.evidence);
    expect(documented.length).toBeGreaterThan(0);
    const first = documented[0] as (typeof documented)[number] & { evidence: Evidence };
    const row = page.locator(`[data-testid^="contributions-"] tr[data-key="${first.indicatorId}"]`).first();
    expect(await row.getByTestId("evidence-as-of").isVisible()).toBe(true);
    expect(await row.getByTestId("evidence-as-of").textContent()).toBe(first.evidence.asOf);
    for (const indicator of documented) {
      const cells = page.locator(`[data-testid^="contributions-"] tr[data-key="${indicator.indicatorId}"]`).first();
      const source = (indicator.evidence as Evidence).source;
      if (/^https?:\/\//i.test(source)) {
        const anchor = cells.getByTestId("evidence-link");
        expect(await anchor.getAttribute("href")).toBe(new URL(source).href);
        expect(await anchor.getAttribute("rel")).toBe("noopener noreferrer");
        expect(await anchor.getAttribute("target")).toBe("_blank");
      } else {
        expect(await cells.getByTestId("evidence-source").textContent()).toBe(source);
        expect(await cells.locator("a").count()).toBe(0);
      }
    }
    // The CSV is the table: contributions as numbers, in the same order.
    const [header, ...csv] = readCsv(await downloadText(page, "contributions-innovation-csv"));
    expect(header?.slice(0, 6)).toEqual(["Indicator", "Value", "Unit", "Normalised", "Weight", "Contribution (pts)"]);
    // Normalised values to two places, as every other number on the page is written to a fixed few.
    expect(csv.every((r) => /^\d\.\d{2}$/.test(r[3] ?? ""))).toBe(true);
    expect(csv.map((r) => Number(r[5])).reduce((sum, c) => sum + tenths(c), 0)).toBe(tenths(detail.scores.innovation));
  });

  it(`engages ${COUNTRY}'s controls: the engaged offering, or the controls an unavailable product misses`, async () => {
    const names = controlNames(matrix);
    const column = matrix.countries.findIndex((c) => c.country === COUNTRY);
    const available = matrix.products.find((p) => p.cells[column]?.available);
    const unavailable = matrix.products.find((p) => !p.cells[column]?.available);
    expect(available, `a product available in ${COUNTRY}`).toBeDefined();
    expect(unavailable, `a product unavailable in ${COUNTRY}`).toBeDefined();
    for (const product of [available, unavailable] as Matrix["products"]) {
      const detail = await api<Breakdown>(`/markets/${MARKET}/products/${product.productId}?country=${COUNTRY}`);
      const under = detail.underControls as NonNullable<Breakdown["underControls"]>;
      await page.goto(`${base}/markets/${MARKET}/products/${product.productId}?release=${matrix.release}`);
      await shown(page, "product-name");
      // A product page reads under the organization's home country until another is chosen.
      expect(await page.getByTestId("frame-country").inputValue()).toBe(HOME);
      await shown(page, "under-controls");
      // The choice applies at once, as on the market page: no button to press.
      await page.getByTestId("frame-country").selectOption(COUNTRY);
      await page.waitForURL((url) => url.searchParams.get("country") === COUNTRY);
      await shown(page, "under-controls");
      expect(new URL(page.url()).searchParams.get("release")).toBe(String(matrix.release));
      const section = page.getByTestId("under-controls");
      expect(await section.getAttribute("data-available")).toBe(String(under.available));
      if (under.available) {
        expect(await section.getByTestId("engaged-offering").textContent()).toContain(under.offering?.name);
      } else {
        expect(await section.getByTestId("missing-controls").textContent()).toBe(
          under.missingControls.map((id) => names.get(id) ?? id).join("; "),
        );
      }
      // Unavailable: no distance and no score under the controls, said in words, never a number.
      expect(await section.getByTestId("distance-magnitude").textContent()).toBe(
        under.available ? one(under.distance.magnitude) : "—",
      );
      if (!under.available)
        expect(
          await section
            .locator('[data-testid="under-controls-scores"] tbody tr[data-axis] td:nth-of-type(2)')
            .allTextContents(),
        ).toEqual(["unavailable", "unavailable", "unavailable", ""]);
      // Each indicator's change, largest loss first, as the API computes it, on each axis's view.
      for (const axis of AXES) {
        await page.getByTestId("product-views").locator(`a[data-view="${axis}"]`).click();
        await page.waitForURL(
          (url) => url.pathname.endsWith(`/${axis}`) && url.searchParams.get("country") === COUNTRY,
        );
        if (!under.available) {
          // Excluded: nothing is kept, so no indicator is listed as kept; said in words.
          await shown(page, `changes-${axis}`);
          expect(await page.getByTestId(`changes-${axis}`).getAttribute("data-unavailable-under")).toBe(COUNTRY);
          expect(await page.getByTestId(`changes-${axis}-table`).count()).toBe(0);
          continue;
        }
        await shown(page, `changes-${axis}-table`);
        const changes = await page
          .locator(`[data-testid="changes-${axis}-table"] tbody tr`)
          .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute("data-indicator-id"), Number(tr.dataset.change)]));
        const expected = new Map(under.axes[axis].indicators.map((i) => [i.indicatorId, i.change]));
        expect(new Map(changes as [string, number][])).toEqual(expected);
        const values = changes.map(([, change]) => change as number);
        expect(values).toEqual([...values].sort((a, b) => a - b));
      }
    }
    // Back to the overview, the country kept: every view reads under the one chosen.
    await page.getByTestId("product-views").locator('a[data-view="overview"]').click();
    await page.waitForURL((url) => !/\/(innovation|control|scale)$/.test(url.pathname));
    await shown(page, "under-controls");
    expect(new URL(page.url()).searchParams.get("country")).toBe(COUNTRY);
    expect(await page.getByTestId("frame-country").inputValue()).toBe(COUNTRY);
  });

  it("links every product name on the market page to its page; the CSVs keep names as text", async () => {
    const hrefs = (scope: string) =>
      page
        .locator(`[data-testid="${scope}"] tbody a[data-testid="product-link"]`)
        .evaluateAll((links) => links.map((a) => [a.getAttribute("data-product-id"), a.getAttribute("href")]));
    const expected = matrix.products
      .map((p) => [
        p.productId,
        `/markets/${MARKET}/products/${p.productId}?release=${matrix.release}&country=${COUNTRY}`,
      ])
      .sort();
    // Each view of the market page links every product name it shows.
    await page.goto(`${MARKET_PAGE}?country=${COUNTRY}`);
    await shown(page, "snapshot-table");
    expect((await hrefs("snapshot-table")).sort(), "snapshot-table").toEqual(expected);
    await page.goto(`${MARKET_PAGE}/availability?country=${COUNTRY}`);
    await shown(page, "heatmap");
    expect(await page.getByTestId("market-views").locator('a[aria-current="page"]').textContent()).toBe("Availability");
    expect((await hrefs("heatmap")).sort(), "heatmap").toEqual(expected);
    await page.goto(`${MARKET_PAGE}/changes?country=${COUNTRY}`);
    await shown(page, "changes-table");
    expect((await hrefs("changes-table")).length).toBeGreaterThan(0);
    await page.goto(`${MARKET_PAGE}/readings?country=${COUNTRY}`);
    await expect
      .poll(() => page.locator('[data-testid="delta-map"] svg [data-mark="streak"]').count(), { timeout: 20_000 })
      .toBe(matrix.products.length);
    for (const scope of ["capaindex-table", "servicemax-table", "delta-map-table"])
      expect((await hrefs(scope)).sort(), scope).toEqual(expected);
    const [, ...rows] = readCsv(await downloadText(page, "capaindex-csv"));
    expect(rows.map((r) => r[1]).sort()).toEqual(matrix.products.map((p) => p.name).sort());
  });

  it("drives the heat map by keyboard: one tab stop, arrow keys, the focused cell's missing controls shown", async () => {
    const names = controlNames(matrix);
    await page.goto(`${MARKET_PAGE}/availability`);
    await shown(page, "heatmap");
    const grid = page.getByTestId("heatmap");
    expect(await grid.locator('[tabindex="0"]').count()).toBe(1);
    // The control before the grid in tab order is the country finder; one Tab lands in the grid.
    await page.getByTestId("heatmap-filter").focus();
    await page.keyboard.press("Tab");
    expect(await focused(page)).toEqual({ row: 0, col: 0 });
    await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toEqual({ row: 0, col: 1 });
    await page.keyboard.press("ArrowDown");
    expect(await focused(page)).toEqual({ row: 1, col: 1 });
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    expect(await focused(page)).toEqual({ row: 1, col: -1 });
    await page.keyboard.press("End");
    expect(await focused(page)).toEqual({ row: 1, col: matrix.countries.length - 1 });
    await page.keyboard.press("Home");
    expect(await focused(page)).toEqual({ row: 1, col: -1 });
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    expect(await focused(page)).toEqual({ row: 0, col: -1 });
    // One tab stop: Tab leaves the grid, Shift+Tab comes back to the cell last focused.
    await page.keyboard.press("Tab");
    expect(await focused(page)).toBeNull();
    await page.keyboard.press("Shift+Tab");
    expect(await focused(page)).toEqual({ row: 0, col: -1 });
    await page.keyboard.press("ArrowRight");

    // The columns are the country read under (the home country here) first, then the others by
    // name (Australia before Austria); `shownAt` is where the matrix's column c stands on screen.
    const byName = [...matrix.countries.keys()].sort(
      (a, b) =>
        Number(matrix.countries[b]?.country === HOME) - Number(matrix.countries[a]?.country === HOME) ||
        (matrix.countries[a]?.name ?? "").localeCompare(matrix.countries[b]?.name ?? "", "en") ||
        (matrix.countries[a]?.country ?? "").localeCompare(matrix.countries[b]?.country ?? ""),
    );
    const shownAt = (c: number) => byName.indexOf(c);
    expect(
      await grid
        .locator("thead th.heat-country")
        .evaluateAll((ths) => ths.map((th) => th.getAttribute("data-country"))),
    ).toEqual(byName.map((c) => matrix.countries[c]?.country));

    // To an unavailable cell by arrows alone: marked (hatched, ×), its missing controls written out.
    const row = matrix.products.findIndex((p) => p.cells.some((c) => !c.available));
    expect(row).toBeGreaterThanOrEqual(0);
    const product = matrix.products[row] as Matrix["products"][number];
    const apiCol = product.cells.findIndex((c) => !c.available);
    const col = shownAt(apiCol);
    const cell = product.cells[apiCol] as Matrix["products"][number]["cells"][number];
    for (let r = 0; r < row; r += 1) await page.keyboard.press("ArrowDown");
    for (let c = 0; c < col; c += 1) await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toEqual({ row, col });
    const target = grid.locator(`[data-row="${row}"][data-col="${col}"]`);
    expect(await target.getAttribute("data-state")).toBe("unavailable");
    expect(await target.textContent()).toBe("×");
    expect(await target.evaluate((td) => getComputedStyle(td).backgroundImage)).toContain("repeating-linear-gradient");
    const details = page.getByTestId("heatmap-details");
    expect(await details.getAttribute("aria-live")).toBe("polite");
    expect(await details.getByTestId("heatmap-missing").textContent()).toBe(
      cell.missingControls.map((id) => names.get(id) ?? id).join("; "),
    );
    expect(await details.textContent()).toContain((matrix.countries[apiCol] as Matrix["countries"][number]).name);

    // An available cell that keeps less than published: marked apart, its offering shown on hover.
    const lessRow = matrix.products.findIndex((p) =>
      p.cells.some((c) => c.available && c.innovationRetained < p.innovation),
    );
    expect(lessRow).toBeGreaterThanOrEqual(0);
    const lessProduct = matrix.products[lessRow] as Matrix["products"][number];
    const lessCol = lessProduct.cells.findIndex((c) => c.available && c.innovationRetained < lessProduct.innovation);
    const lessCell = grid.locator(`[data-row="${lessRow}"][data-col="${shownAt(lessCol)}"]`);
    expect(await lessCell.getAttribute("data-state")).toBe("less");
    await lessCell.hover();
    expect(await details.getByTestId("heatmap-offering").textContent()).toBe(lessProduct.cells[lessCol]?.offeringId);

    // Sorted by code, then narrowed to one country by its name: the grid follows, the count says so.
    await page.getByTestId("heatmap-sort").selectOption("code");
    await expect
      .poll(() =>
        grid.locator("thead th.heat-country").evaluateAll((ths) => ths.map((th) => th.getAttribute("data-country"))),
      )
      .toEqual([HOME, ...matrix.countries.map((c) => c.country).filter((c) => c !== HOME)]);
    const someone = matrix.countries[apiCol] as Matrix["countries"][number];
    await page.getByTestId("heatmap-filter").fill(someone.name);
    await expect.poll(() => grid.locator("thead th.heat-country").count()).toBe(1);
    expect(await page.getByTestId("heatmap-count").textContent()).toBe(
      `1 of ${matrix.countries.length} countries shown.`,
    );
    expect(await grid.locator(`[data-row="${row}"][data-col="0"]`).getAttribute("data-state")).toBe("unavailable");
    // A tap (a click, here) on a cell writes out its details, as focus and hover do.
    await grid.locator(`[data-row="${row}"][data-col="0"]`).click();
    expect(await details.getByTestId("heatmap-missing").textContent()).toBe(
      cell.missingControls.map((id) => names.get(id) ?? id).join("; "),
    );
    await page.getByTestId("heatmap-filter").fill("");
    await page.getByTestId("availability").screenshot({ path: path.join(SCREENSHOTS, "availability-desktop.png") });
  });

  it("downloads the heat map as one CSV row per product and country, equal to the API's matrix", async () => {
    const names = controlNames(matrix);
    await page.goto(`${MARKET_PAGE}/availability`);
    await shown(page, "heatmap");
    const [header, ...rows] = readCsv(await downloadText(page, "availability-map-csv"));
    expect(header).toEqual([
      "Product",
      "Country",
      "Available",
      "Offering",
      "Innovation retained",
      "Distance",
      "Missing controls",
    ]);
    expect(rows).toHaveLength(matrix.products.length * matrix.countries.length);
    expect(rows).toEqual(
      matrix.products.flatMap((p) =>
        p.cells.map((c) => [
          p.name,
          c.country,
          c.available ? "yes" : "no",
          c.offeringId ?? "",
          one(c.innovationRetained),
          one(c.distance),
          c.missingControls.map((id) => names.get(id) ?? id).join("; "),
        ]),
      ),
    );
    // The grid itself: every cell present, its state as the matrix has it, the home country first, then by name.
    const countryName = new Map(matrix.countries.map((c) => [c.country, c.name]));
    const byName = (a: { country: string }, b: { country: string }) =>
      Number(b.country === HOME) - Number(a.country === HOME) ||
      (countryName.get(a.country) ?? "").localeCompare(countryName.get(b.country) ?? "", "en") ||
      a.country.localeCompare(b.country);
    const states = await page
      .locator('[data-testid="heatmap"] [data-testid="heat-cell"]')
      .evaluateAll((tds) => tds.map((td) => `${td.getAttribute("data-country")}:${td.getAttribute("data-state")}`));
    expect(states).toEqual(
      matrix.products.flatMap((p) =>
        [...p.cells]
          .sort(byName)
          .map(
            (c) =>
              `${c.country}:${c.available ? (c.innovationRetained < p.innovation ? "less" : "all") : "unavailable"}`,
          ),
      ),
    );
  });

  it("renders names that look like formulas or markup as text on the product page", async () => {
    const { products } = await api<{ products: { productId: string; name: string; vendor: string }[] }>(
      `/markets/${FORMULA_MARKET}/snapshot`,
    );
    const product = products.find((p) => p.productId === "equals") ?? products[0];
    await page.goto(`${base}/markets/${FORMULA_MARKET}/products/${product?.productId}?country=BE`);
    await shown(page, "product-name");
    expect(await page.getByTestId("product-name").textContent()).toBe(product?.name);
    expect(await page.getByTestId("product-vendor").textContent()).toBe(`by ${product?.vendor}`);
    await page.goto(`${base}/markets/${FORMULA_MARKET}/products/${product?.productId}/offerings?country=BE`);
    await shown(page, "offerings-table");
    expect(await page.getByTestId("product-name").textContent()).toBe(product?.name);
    expect(await page.getByTestId("offerings-table").locator("tbody tr").count()).toBeGreaterThan(0);
  });

  for (const [size, viewport] of SIZES)
    it(`keeps every product view within its height budget at ${viewport.width} px, the current tab marked`, async () => {
      // The product whose page is the longest: the most indicators on one axis.
      const snapshot = await api<{ products: { productId: string }[] }>(`/markets/${MARKET}/snapshot`);
      const details = await Promise.all(
        snapshot.products.map((p) => api<Breakdown>(`/markets/${MARKET}/products/${p.productId}?country=${COUNTRY}`)),
      );
      const longest = details.reduce((a, b) =>
        Math.max(...AXES.map((x) => b.axes[x].indicators.length)) >
        Math.max(...AXES.map((x) => a.axes[x].indicators.length))
          ? b
          : a,
      );
      await expectViewsWithinBudget(
        page,
        PRODUCT_VIEWS.map((v) => ({
          ...v,
          url: `${base}/markets/${MARKET}/products/${longest.productId}${v.path}?country=${COUNTRY}`,
        })),
        { size, tabs: "product-views", shot: (v) => `product-${v.id}`, tablesFit: true },
      );
    });

  it("fits 390 px: the product page and the heat map never widen the page; the grid scrolls in its frame", async () => {
    await page.setViewportSize(PHONE);
    const product = matrix.products[0] as Matrix["products"][number];
    for (const view of PRODUCT_VIEWS) {
      await page.goto(`${base}/markets/${MARKET}/products/${product.productId}${view.path}?country=${COUNTRY}`);
      await shown(page, view.ready);
      if (view.path.length > 1 && view.path !== "/offerings" && view.path !== "/sovereignty")
        await expect.poll(() => page.locator('[data-mark="contribution"]').count()).toBeGreaterThan(0);
      expect(await pageWidth(page), `${view.path}: ${(await widest(page)).join("\n")}`).toBeLessThanOrEqual(
        PHONE.width,
      );
    }

    await page.goto(`${MARKET_PAGE}/availability`);
    await shown(page, "heatmap");
    const frame = page.getByTestId("heatmap-scroll");
    expect(await pageWidth(page), (await widest(page)).join("\n")).toBeLessThanOrEqual(PHONE.width);
    const box = await frame.evaluate((e) => ({
      right: e.getBoundingClientRect().right,
      scrollWidth: e.scrollWidth,
      clientWidth: e.clientWidth,
    }));
    expect(box.right).toBeLessThanOrEqual(PHONE.width);
    expect(box.scrollWidth).toBeGreaterThan(box.clientWidth);
    // The last column reached by keyboard scrolls the frame, not the page.
    await page.getByTestId("heatmap-filter").focus();
    await page.keyboard.press("Tab");
    await page.keyboard.press("End");
    expect(await focused(page)).toEqual({ row: 0, col: matrix.countries.length - 1 });
    expect(await frame.evaluate((e) => e.scrollLeft)).toBeGreaterThan(0);
    expect(await page.evaluate(() => window.scrollX)).toBe(0);
    expect(await pageWidth(page), (await widest(page)).join("\n")).toBeLessThanOrEqual(PHONE.width);
    await page.getByTestId("availability").screenshot({ path: path.join(SCREENSHOTS, "availability-phone.png") });
  });
});
