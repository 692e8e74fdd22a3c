/**
 * The market pages as a person reads them, in Chromium against the built app: the snapshot table
 * against the API's own snapshot, the readings under a country with controls and one without, the
 * delta's two views and the URL, CSV downloads (names that start like formulas neutralised), one SVG mark per product, the keyboard, and
 * screenshots at desktop and phone widths (artifacts/screenshots/). Reading here costs no credits.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { downloadText, type ReaderSession, readerSignedUpAt } from "../helpers/browser";
import { type CsvField, readCsv, readCsvFields } from "../helpers/csv";

const base = inject("appUrl");
const accounts = inject("accounts");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
const MARKET = "foundation-model-apis";
const MARKET_PAGE = `${base}/markets/${MARKET}`;
/** The market page's views, each at its own URL. */
const READINGS = `${MARKET_PAGE}/readings`;
const METHODOLOGY = `${MARKET_PAGE}/methodology`;
const HOME = "FR"; // has controls in the demo catalogue
const NO_CONTROLS = "IE"; // engages none
/** Published for this suite only (tests/fixtures/formula-names.yaml): names that start like formulas. */
const FORMULA_MARKET = "formula-names";
const RESIDENCY_ONLY = "BE"; // there the fixture's products move to weaker EU offerings, one is unavailable

interface Scores {
  innovation: number;
  control: number;
  scale: number;
}
interface DeltaProduct {
  productId: string;
  name: string;
  available: boolean;
  published: Scores;
  underControls: Scores;
}

/** The API's own answer for the same question, with a token of another organization. */
async function api<T>(pathAndQuery: string): Promise<T> {
  const response = await fetch(`${base}/v1${pathAndQuery}`, {
    headers: { Authorization: `Bearer ${accounts.french.token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

const one = (n: number) => n.toFixed(1);

/** The marks a chart drew, as SVG elements, with their product ids. */
async function marks(page: Page, figure: string, kind: "bar" | "streak") {
  const locator = page.locator(`[data-testid="${figure}"] svg [data-mark="${kind}"]`);
  await expect.poll(() => locator.count(), { timeout: 20_000 }).toBeGreaterThan(0);
  return locator.evaluateAll((elements) =>
    elements.map((e) => ({
      tag: e.tagName.toLowerCase(),
      inSvg: e.closest("svg") !== null,
      productId: e.getAttribute("data-product-id"),
      value: e.getAttribute("data-value"),
      ceiling: e.getAttribute("data-ceiling"),
      moves: e.getAttribute("data-moves"),
      ghosts: e.querySelectorAll("rect.ghost").length,
      kept: e.querySelectorAll("rect.kept").length,
    })),
  );
}

/** A chart's CSV download, read strictly as RFC 4180 (CRLF records, quoted fields unquoted). */
async function downloadCsv(page: Page, testId: string): Promise<string[][]> {
  return readCsv(await downloadText(page, testId));
}

async function chooseCountry(page: Page, country: string) {
  await page.getByTestId("frame-country").selectOption(country);
  await page.waitForURL((url) => url.searchParams.get("country") === country);
}

describe("market pages, in Chromium", () => {
  let reader: ReaderSession;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    // Sign in on the way to a market: the link returns to it, onboarding too.
    reader = await readerSignedUpAt(
      MARKET_PAGE,
      {
        email: `markets-${Date.now()}@example.com`,
        organization: "Markets Reader SARL",
        homeCountry: HOME,
      },
      { acceptDownloads: true },
    );
    page = reader.page;
  });
  afterAll(() => reader?.close());

  it("lists the markets with links, product counts and dates", async () => {
    const { markets } = await api<{
      markets: { marketId: string; name: string; productCount: number; lastUpdated: string }[];
    }>("/markets");
    await page.goto(base);
    const rows = page.locator('[data-testid="markets-table"] tbody tr');
    expect(await rows.count()).toBe(markets.length);
    for (const market of markets) {
      const row = page.locator(`tr[data-market-id="${market.marketId}"]`);
      expect(await row.getByRole("link").getAttribute("href")).toBe(`/markets/${market.marketId}`);
      expect(await row.textContent()).toContain(String(market.productCount));
      expect(await row.textContent()).toContain(market.lastUpdated.slice(0, 10));
    }
    await page.getByRole("link", { name: markets.find((m) => m.marketId === MARKET)?.name }).click();
    await page.waitForURL(MARKET_PAGE);
  });

  it("shows the snapshot table as the API has it, sortable, with the methodology verbatim", async () => {
    const snapshot = await api<{
      release: number;
      methodology: string;
      products: {
        productId: string;
        name: string;
        vendor: string;
        scores: Scores;
        bands: Record<string, string>;
        uncertainty: Record<string, { interval: { p5: number; p95: number }; bandSettled: boolean }>;
      }[];
      dimensions: { id: string; bands: { name: string; from: number; to: number }[] }[];
    }>(`/markets/${MARKET}/snapshot`);
    await page.goto(MARKET_PAGE);
    const rows = page.locator('[data-testid="snapshot-table"] tbody tr');
    expect(await rows.count()).toBe(snapshot.products.length);
    for (const product of snapshot.products) {
      const row = page.locator(`[data-testid="snapshot-table"] tr[data-product-id="${product.productId}"]`);
      expect(await row.locator("th").textContent()).toBe(product.name);
      for (const axis of ["innovation", "control", "scale"] as const) {
        // The score and its band, then how sure it is: the 90 % interval and an unsettled band's badge.
        const { interval, bandSettled } = product.uncertainty[axis] as {
          interval: { p5: number; p95: number };
          bandSettled: boolean;
        };
        const range = interval.p5 === interval.p95 ? "" : `90 %: ${one(interval.p5)}–${one(interval.p95)}`;
        expect(await row.locator(`td[data-axis="${axis}"]`).textContent()).toBe(
          `${one(product.scores[axis])} ${product.bands[axis]}${bandSettled ? "" : " band not settled"}${range}`,
        );
      }
    }
    // Default order: Innovation, highest first; one click on Vendor sorts by vendor A→Z.
    const order = () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-product-id")));
    const byInnovation = [...snapshot.products].sort(
      (a, b) => b.scores.innovation - a.scores.innovation || a.name.localeCompare(b.name),
    );
    expect(await order()).toEqual(byInnovation.map((p) => p.productId));
    await page.getByRole("button", { name: "Scale" }).click();
    const byScale = [...snapshot.products].sort(
      (a, b) => b.scores.scale - a.scores.scale || b.name.localeCompare(a.name),
    );
    expect(await order()).toEqual(byScale.map((p) => p.productId));
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toContain("Scale");

    // Band cutoffs of each dimension, and the methodology as a quotation, paragraph for paragraph:
    // the Methodology view, one tab away.
    expect(await page.getByTestId("release-line").textContent()).toContain(`Release ${snapshot.release} (latest)`);
    await page.getByTestId("market-views").getByRole("link", { name: "Methodology and releases" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/methodology"));
    await expect.poll(() => page.getByTestId("methodology").count()).toBe(1);
    for (const dimension of snapshot.dimensions) {
      const cells = await page.getByTestId(`bands-${dimension.id}`).locator("tbody tr").allTextContents();
      expect(cells).toEqual(dimension.bands.map((b) => `${b.name}${b.from}${b.to}`));
    }
    const paragraphs = await page.locator('blockquote[data-testid="methodology"] p').allTextContents();
    expect(paragraphs.join("\n\n")).toBe(snapshot.methodology.trim());
    expect(paragraphs.length).toBeGreaterThan(1);
    expect(await page.getByTestId("release-line").textContent()).toContain(`Release ${snapshot.release} (latest)`);
  });

  it("picks an older release and marks the material methodology change", async () => {
    const { releases } = await api<{ releases: { release: number; material: boolean }[] }>(
      `/markets/${MARKET}/changelog`,
    );
    const material = releases.filter((r) => r.material).map((r) => r.release);
    expect(material.length).toBeGreaterThan(0);
    await page.goto(`${METHODOLOGY}?country=${NO_CONTROLS}`);
    expect(await page.locator('[data-testid="changelog"] .material').count()).toBe(material.length);
    await page.goto(`${READINGS}?country=${NO_CONTROLS}&view=bars`);
    const options = await page.getByTestId("release-picker").locator("option").allTextContents();
    expect(options.filter((o) => o.includes("material methodology change")).length).toBe(material.length);
    await page.getByTestId("release-picker").selectOption("1");
    await page.waitForURL((url) => url.searchParams.get("release") === "1");
    const url = new URL(page.url());
    // The reading's state survives the release change.
    expect(url.searchParams.get("country")).toBe(NO_CONTROLS);
    expect(url.searchParams.get("view")).toBe("bars");
    await expect.poll(() => page.getByTestId("release-line").textContent()).toMatch(/^Release 1 \(latest is \d+\)/);
    const old = await api<{ products: { productId: string; innovation: number }[] }>(
      `/markets/${MARKET}/capaindex?release=1`,
    );
    const drawn = await marks(page, "capaindex", "bar");
    expect(drawn.map((m) => m.productId)).toEqual(old.products.map((p) => p.productId));
    expect(drawn.map((m) => Number(m.value))).toEqual(old.products.map((p) => p.innovation));
  });

  it("reads under the home country by default, moves under controls and not without them", async () => {
    await page.goto(READINGS);
    expect(await page.getByTestId("frame-country").inputValue()).toBe(HOME);
    const home = await api<{ controls: { id: string }[]; products: DeltaProduct[] }>(
      `/markets/${MARKET}/delta?country=${HOME}`,
    );
    expect(home.controls.length).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId("engaged-controls").count()).toBe(1);

    const moving = (p: DeltaProduct) =>
      p.published.innovation !== p.underControls.innovation || p.published.control !== p.underControls.control;
    const streaks = await marks(page, "delta-map", "streak");
    expect(streaks).toHaveLength(home.products.length);
    expect(streaks.every((s) => s.tag === "g" && s.inSvg)).toBe(true);
    const moves = new Map(streaks.map((s) => [s.productId, s.moves]));
    for (const product of home.products) expect(moves.get(product.productId)).toBe(String(moving(product)));
    expect(home.products.some(moving)).toBe(true);

    const max = await api<{
      products: {
        productId: string;
        name: string;
        available: boolean;
        on: Scores;
        off: Scores;
        missingControls: string[];
      }[];
    }>(`/markets/${MARKET}/servicemax?country=${HOME}`);
    const maxBars = await marks(page, "servicemax", "bar");
    // The usable in the reading's rank order, then the unavailable by name: set apart, never tied.
    const usable = max.products.filter((p) => p.available);
    const unavailable = max.products.filter((p) => !p.available);
    const byName = [...unavailable].sort((a, b) => a.name.localeCompare(b.name));
    expect(maxBars.map((b) => b.productId)).toEqual([...usable, ...byName].map((p) => p.productId));
    expect(maxBars.slice(0, usable.length).map((b) => [Number(b.value), Number(b.ceiling)])).toEqual(
      usable.map((p) => [p.on.innovation, p.off.innovation]),
    );
    // A usable product is a bar in front of its ghost; an unavailable one is neither, never a bar
    // at its published length.
    expect(maxBars.map((b) => [b.ghosts, b.kept])).toEqual([
      ...usable.map(() => [1, 1]),
      ...unavailable.map(() => [0, 0]),
    ]);
    expect(unavailable.length).toBeGreaterThan(0);
    const names = await page
      .locator('[data-testid="servicemax"] svg [data-mark="bar"] .bar-name')
      .evaluateAll((texts) => texts.map((t) => t.textContent ?? ""));
    for (const [i, name] of names.slice(usable.length).entries()) {
      expect(name, "an unavailable product has no rank").toMatch(/^– /);
      expect(name).toContain(byName[i]?.name.slice(0, 8));
    }
    for (const product of unavailable) {
      const state = page.locator(`[data-testid="max-states"] li[data-product-id="${product.productId}"]`);
      expect(await state.textContent()).toContain("unavailable");
      expect(await state.textContent()).toMatch(/^– /);
    }
    // The headline first: how many can be used at all.
    const headline = page.getByTestId("usable-headline");
    expect(await headline.getAttribute("data-usable")).toBe(String(usable.length));
    expect(await headline.getAttribute("data-total")).toBe(String(max.products.length));
    expect(await headline.textContent()).toContain(`${usable.length} of ${max.products.length}`);

    // A country with no controls: the page says so, and nothing moves anywhere.
    await chooseCountry(page, NO_CONTROLS);
    await expect.poll(() => page.getByTestId("nothing-moves").count()).toBe(1);
    await expect
      .poll(async () => (await marks(page, "delta-map", "streak")).map((s) => s.moves))
      .toEqual(home.products.map(() => "false"));
    await expect
      .poll(async () => (await marks(page, "servicemax", "bar")).every((b) => b.value === b.ceiling))
      .toBe(true);
    expect(await page.getByTestId("engaged-controls").count()).toBe(0);

    // Back to the home country: the values move again, to the API's numbers.
    await chooseCountry(page, HOME);
    await expect
      .poll(async () => (await marks(page, "servicemax", "bar")).map((b) => Number(b.value)))
      .toEqual(max.products.map((p) => p.on.innovation));
  });

  it("switches the delta between map and bars, keeping the URL in step", async () => {
    const delta = await api<{ products: DeltaProduct[] }>(`/markets/${MARKET}/delta?country=${HOME}`);
    await page.goto(`${READINGS}?country=${HOME}`);
    await marks(page, "delta-map", "streak");
    await page.getByText("Bars", { exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("view") === "bars");
    const bars = await marks(page, "delta-bars", "bar");
    expect(bars).toHaveLength(delta.products.length);
    // A ghost behind every usable product; none for an unavailable one (no bar at its published length).
    const usableIds = new Set(delta.products.filter((p) => p.available).map((p) => p.productId));
    expect(bars.every((b) => b.inSvg && b.ghosts === (usableIds.has(b.productId ?? "") ? 1 : 0))).toBe(true);
    const ceilings = new Map(delta.products.map((p) => [p.productId, p.published.innovation]));
    for (const bar of bars) expect(Number(bar.ceiling)).toBe(ceilings.get(bar.productId ?? ""));
    expect(await page.getByTestId("delta-map").count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "market-delta-bars-desktop.png"), fullPage: true });

    await page.getByText("Map", { exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("view") === "map");
    expect(await marks(page, "delta-map", "streak")).toHaveLength(delta.products.length);

    // Opened directly on bars.
    await page.goto(`${READINGS}?view=bars`);
    expect(await marks(page, "delta-bars", "bar")).toHaveLength(delta.products.length);
    expect(await page.getByTestId("delta-view-bars").isChecked()).toBe(true);
  });

  it("downloads each chart's numbers as CSV, row for row", async () => {
    // A share as the odds columns hold it (docs/mcp.md, "Percentages"): whole percents, except that a
    // share strictly between 0 and 1 is never written 0 or 100 — then with one decimal, or two.
    const oddsCell = (share: number) => {
      for (const factor of [1, 10, 100]) {
        const cell = Math.round(share * 100 * factor) / factor;
        if (share <= 0 || share >= 1 || (cell > 0 && cell < 100)) return cell;
      }
      return share < 0.5 ? 0.01 : 99.99;
    };
    const delta = await api<{ products: DeltaProduct[] }>(`/markets/${MARKET}/delta?country=${HOME}`);
    const index = await api<{
      products: {
        rank: number;
        name: string;
        innovation: number;
        band: string;
        bandSettled: boolean;
        innovationInterval: { p5: number; p95: number };
        rankInterval: { best: number; worst: number };
        rankOdds: { top1: number; top3: number; top5: number; tieGroup: number | null };
      }[];
    }>(`/markets/${MARKET}/capaindex`);
    await page.goto(`${READINGS}?country=${HOME}&view=bars`);
    await marks(page, "delta-bars", "bar");

    const [header, ...rows] = await downloadCsv(page, "capaindex-csv");
    expect(header).toEqual([
      "Rank",
      "Product",
      "Vendor",
      "Innovation",
      "Band",
      "Band settled",
      "Innovation p5",
      "Innovation p95",
      "Rank best (p5)",
      "Rank worst (p95)",
      "P(top 1) %",
      "P(top 3) %",
      "P(top 5) %",
      "Tied group",
      // Read under a country, the published index says which products that country excludes.
      `Under ${HOME}`,
    ]);
    const max = await api<{ products: { productId: string; name: string; available: boolean }[] }>(
      `/markets/${MARKET}/servicemax?country=${HOME}`,
    );
    const usableThere = new Map(max.products.map((p) => [p.name, p.available ? "usable" : "unavailable"]));
    expect(rows.map((row) => [row[1], row[14]])).toEqual(rows.map((row) => [row[1], usableThere.get(row[1] ?? "")]));
    expect(
      rows.map(([rank, name, , innovation, band, settled, p5, p95, best, worst, top1, top3, top5, group]) => [
        Number(rank),
        name,
        Number(innovation),
        band,
        settled,
        Number(p5),
        Number(p95),
        Number(best),
        Number(worst),
        Number(top1),
        Number(top3),
        Number(top5),
        Number(group),
      ]),
    ).toEqual(
      index.products.map((p) => [
        p.rank,
        p.name,
        p.innovation,
        p.band,
        p.bandSettled ? "yes" : "no",
        p.innovationInterval.p5,
        p.innovationInterval.p95,
        p.rankInterval.best,
        p.rankInterval.worst,
        oddsCell(p.rankOdds.top1),
        oddsCell(p.rankOdds.top3),
        oddsCell(p.rankOdds.top5),
        p.rankOdds.tieGroup,
      ]),
    );

    const [barsHeader, ...barRows] = await downloadCsv(page, "delta-bars-csv");
    expect(barsHeader?.slice(4)).toEqual(["Innovation under controls", "Published Innovation", "Gives up"]);
    expect(barRows).toHaveLength(delta.products.length);
    // Ranked by Innovation under controls, highest first; "gives up" is published minus kept.
    const byName = new Map(delta.products.map((p) => [p.name, p]));
    let previous = Number.POSITIVE_INFINITY;
    let unranked = 0;
    for (const [rank, name, , state, kept, published, givesUp] of barRows) {
      const product = byName.get(name ?? "");
      expect(product).toBeDefined();
      expect(Number(published)).toBe(product?.published.innovation);
      if (!product?.available) {
        // Unavailable: no rank, nothing kept, nothing "given up" — empty fields, never a number.
        expect([rank, state, kept, givesUp]).toEqual(["", "unavailable", "", ""]);
        unranked++;
        continue;
      }
      expect(unranked, "the unavailable come after every usable product").toBe(0);
      expect(Number(kept)).toBe(product?.underControls.innovation);
      expect(Number(givesUp)).toBeCloseTo(Number(published) - Number(kept), 5);
      expect(Number(kept)).toBeLessThanOrEqual(previous);
      previous = Number(kept);
    }

    await page.getByText("Map", { exact: true }).click();
    const [mapHeader, ...mapRows] = await downloadCsv(page, "delta-map-csv");
    expect(mapHeader).toContain("Under controls Innovation");
    expect(mapRows.map((r) => r[0]).sort()).toEqual(delta.products.map((p) => p.name).sort());
  });

  it("neutralises names that start like formulas in every CSV download, and keeps numbers numbers", async () => {
    const { products } = await api<{ products: { name: string; vendor: string }[] }>(
      `/markets/${FORMULA_MARKET}/snapshot`,
    );
    // Every prefix OWASP's CSV Injection guidance names reached the API as the fixture spells it.
    const names = products.flatMap((p) => [p.name, p.vendor]);
    for (const prefix of ["=", "+", "-", "@", "\t", "\r", '=HYPERLINK("http://x","y")', "\uFF1D", "\uFF20"])
      expect(names.filter((name) => name.startsWith(prefix)).length).toBeGreaterThan(0);
    // In the file, such a name reads behind a single quote inside a quoted field; a plain one as it is.
    const formula = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
    const inFile = (name: string): CsvField =>
      formula.test(name) ? { text: `'${name}`, quoted: true } : { text: name, quoted: false };
    const expectedPairs = products.map((p) => JSON.stringify([inFile(p.name), inFile(p.vendor)])).sort();
    expect(expectedPairs.filter((pair) => pair.includes('"quoted":false'))).toHaveLength(1);

    await page.goto(`${base}/markets/${FORMULA_MARKET}/readings?country=${RESIDENCY_ONLY}&view=map`);
    await marks(page, "delta-map", "streak");
    const files = new Map<string, string>();
    for (const testId of ["capaindex-csv", "servicemax-csv", "delta-map-csv"])
      files.set(testId, await downloadText(page, testId));
    await page.getByText("Bars", { exact: true }).click();
    await marks(page, "delta-bars", "bar");
    files.set("delta-bars-csv", await downloadText(page, "delta-bars-csv"));
    expect(files.get("capaindex-csv")).toContain(`,"'=HYPERLINK(""http://x"",""y"")",`);

    const TEXT = new Set([
      "Product",
      "Vendor",
      "State",
      "Offering",
      "Band",
      "Band settled",
      "Moves",
      "Missing controls",
      "Weakest objectives",
      "Your gates",
    ]);
    // The published index's word for each product under the country: "usable" or "unavailable".
    const isUnder = (label: string) => /^Under [A-Z]{2}$/.test(label);
    let negatives = 0;
    for (const [testId, text] of files) {
      const [header = [], ...rows] = readCsvFields(text);
      const labels = header.map((field) => field.text);
      const at = (label: string) => labels.indexOf(label);
      expect(at("Product"), testId).toBeGreaterThanOrEqual(0);
      expect(rows.map((row) => JSON.stringify([row[at("Product")], row[at("Vendor")]])).sort(), testId).toEqual(
        expectedPairs,
      );
      for (const row of rows) {
        const unavailable = at("State") >= 0 && row[at("State")]?.text === "unavailable";
        row.forEach((field, i) => {
          const label = labels[i] ?? "";
          if (label === "Product" || label === "Vendor") return;
          // Every other cell holds nothing a spreadsheet could run; numbers are bare numbers, and an
          // unavailable product's missing numbers are empty fields, never a stand-in number.
          expect(field.quoted, `${testId} ${label}`).toBe(false);
          if (TEXT.has(label) || isUnder(label)) expect(field.text, `${testId} ${label}`).not.toMatch(formula);
          else if (unavailable && field.text === "") return;
          // This fixture's catalogue maps no fact to any sovereignty objective: no SEAL level to give.
          else if (label === "SEAL" && field.text === "") return;
          else expect(field.text, `${testId} ${label}`).toMatch(/^-?\d+(\.\d)?$/);
          if (field.text.startsWith("-")) negatives += 1;
        });
      }
    }
    // Under controls the products give Innovation up: negative distances, written as numbers.
    expect(negatives).toBeGreaterThan(0);
    // The table on screen shows the names as they are: the quote is for spreadsheets only.
    const table = (await page.getByTestId("delta-bars-table").textContent()) ?? "";
    expect(table).toContain('=HYPERLINK("http://x","y")');
    expect(table).not.toContain("'=");
  });

  it("moves through countries with the keyboard alone", async () => {
    const listed = await api<{ geographies: { country: string; name: string }[] }>("/geographies");
    // The picker lists countries by name, as people look them up (Australia before Austria).
    const geographies = [...listed.geographies].sort(
      (a, b) => a.name.localeCompare(b.name, "en") || a.country.localeCompare(b.country),
    );
    await page.goto(`${READINGS}?country=${HOME}`);
    const selector = page.getByTestId("frame-country");
    await expect.poll(() => selector.isEnabled()).toBe(true);
    // Tab from the top of the page until the selector has focus.
    let focused = false;
    for (let presses = 0; presses < 60 && !focused; presses++) {
      await page.keyboard.press("Tab");
      focused = await selector.evaluate((el) => el === document.activeElement);
    }
    expect(focused).toBe(true);
    const at = geographies.findIndex((g) => g.country === HOME);
    const next = geographies[at + 1]?.country;
    expect(next).toBeDefined();
    await page.keyboard.press("ArrowDown");
    await page.waitForURL((url) => url.searchParams.get("country") === next);
    await expect
      .poll(() => page.locator('[data-testid="servicemax"] figcaption').textContent())
      .toBe(`Max under ${next}`);
    await page.keyboard.press("ArrowUp");
    await page.waitForURL((url) => url.searchParams.get("country") === HOME);
    await expect
      .poll(() => page.locator('[data-testid="servicemax"] figcaption').textContent())
      .toBe(`Max under ${HOME}`);
  });

  it("says in words what went wrong, from the problem's detail", async () => {
    await page.goto(`${READINGS}?country=ZZ`);
    const alert = page.getByRole("alert").first();
    await expect.poll(() => alert.textContent(), { timeout: 20_000 }).toContain('Unknown country "ZZ"');
    await page.goto(`${base}/markets/no-such-market`);
    // The loading frame streams first; the 404 page replaces it.
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("No such market or release");
  });

  it("lists each country's controls with their frameworks", async () => {
    const { geographies } = await api<{
      geographies: { country: string; controls: { id: string; name: string; framework: string }[] }[];
    }>("/geographies");
    await page.goto(`${base}/geographies`);
    expect(await page.locator('[data-testid="geographies-table"] tbody tr').count()).toBe(geographies.length);
    for (const geography of geographies) {
      const row = page.locator(`tr[data-country="${geography.country}"]`);
      const text = (await row.textContent()) ?? "";
      if (geography.controls.length === 0) expect(text).toContain("nothing moves");
      for (const control of geography.controls) expect(text).toContain(`${control.name} (${control.framework})`);
    }
  });

  it("fits a phone, takes screenshots, and never spends credits", async () => {
    await page.goto(`${READINGS}?country=${HOME}`);
    await marks(page, "delta-map", "streak");
    await page.screenshot({ path: path.join(SCREENSHOTS, "market-desktop.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await marks(page, "delta-map", "streak");
    await marks(page, "servicemax", "bar");
    await page.screenshot({ path: path.join(SCREENSHOTS, "market-phone.png"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.goto(`${base}/geographies`);
    await page.screenshot({ path: path.join(SCREENSHOTS, "geographies-phone.png"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
    // Everything above read market data through the dashboard: the balance has not moved.
    await page.goto(`${base}/credits`);
    await expect.poll(() => page.getByTestId("credit-balance").textContent()).toBe("1,000");
    await expect.poll(() => page.locator('[data-testid="ledger-row"][data-kind="grant"]').count()).toBe(1);
    expect(await page.locator('[data-testid="ledger-row"][data-kind="debit"]').count()).toBe(0);
    expect(await page.getByTestId("header-balance").textContent()).toBe("1,000 credits");
  });
});
