/**
 * Sovereign decisions as an analyst meets them in Chromium: a product's Sovereignty view (each
 * objective's SEAL level, the weakest marked, the overall level) equal to the API's profile; the
 * Overview's SEAL line and restated history; the readings' gates (set from the form, kept in the
 * link, products that fail set apart with the gate) and the odds beside the ranks, equal to the
 * API's. Screenshots at 1280 and 390 px.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ReaderSession, readerSignedUpAt } from "../helpers/browser";

const base = inject("appUrl");
const accounts = inject("accounts");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
type Json = Record<string, any>;

async function api(pathAndQuery: string): Promise<Json> {
  const response = await fetch(`${base}/v1${pathAndQuery}`, {
    headers: { Authorization: `Bearer ${accounts.french.token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

/** A chart's table as rows of cells keyed by column label. */
async function tableRows(page: Page, testId: string): Promise<Record<string, string>[]> {
  const table = page.getByTestId(testId);
  await table.waitFor({ state: "attached", timeout: 20_000 });
  return table.evaluate((element) => {
    const labels = [...element.querySelectorAll("thead th")].map((th) => th.textContent ?? "");
    return [...element.querySelectorAll("tbody tr")].map((row) =>
      Object.fromEntries(
        [...row.querySelectorAll("td")].map((td, i) => [labels[i] ?? String(i), td.textContent ?? ""]),
      ),
    );
  });
}

describe("sovereign decisions in the dashboard, in Chromium", () => {
  let reader: ReaderSession;
  let page: Page;
  const SOVEREIGNTY = `${base}/markets/managed-kubernetes/products/aubeline-kubernetes/sovereignty?country=FR`;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    reader = await readerSignedUpAt(SOVEREIGNTY, {
      email: `sovereign-${Date.now()}@example.com`,
      organization: "Sovereign Buyers SAS",
      homeCountry: "FR",
    });
    page = reader.page;
  });
  afterAll(() => reader?.close());

  it("shows each objective's level, the weakest marked, as the API's profile says", async () => {
    const profile = await api("/markets/managed-kubernetes/products/veltaro-kubernetes/sovereignty?country=DE");
    await page.goto(`${base}/markets/managed-kubernetes/products/veltaro-kubernetes/sovereignty?country=DE`);
    const rows = page.getByTestId("sovereignty-objective");
    await expect.poll(() => rows.count()).toBe(8);
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => ({
        objective: tr.getAttribute("data-objective"),
        level: tr.getAttribute("data-level"),
        weakest: tr.getAttribute("data-weakest") === "true",
      })),
    );
    expect(shown).toEqual(
      profile.objectives.map((o: Json) => ({
        objective: o.objective,
        level: String(o.level ?? "none"),
        weakest: profile.overall.weakest.includes(o.objective),
      })),
    );
    // Weakest said in words, not by colour alone.
    expect(await page.locator("tr.weakest .weakest-badge").count()).toBe(profile.overall.weakest.length);
    expect(await page.getByTestId("seal-overall").getAttribute("data-level")).toBe(
      String(profile.overall.level ?? "none"),
    );
    await page.screenshot({ path: path.join(SCREENSHOTS, "product-sovereignty-desktop.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "product-sovereignty-phone.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("gives the overview a SEAL line and a restated history whose table is the API's", async () => {
    const history = await api("/markets/foundation-model-apis/products/quillmere-atlas/history");
    await page.goto(`${base}/markets/foundation-model-apis/products/quillmere-atlas?country=DE`);
    await page.getByTestId("seal-overall").waitFor();
    const rows = await tableRows(page, "restated-history-table");
    expect(rows.map((r) => Number(r.Release))).toEqual(history.releases.map((r: Json) => r.release));
    for (const [i, r] of history.releases.entries()) {
      expect(Number(rows[i]?.["Innovation published"])).toBeCloseTo(r.published.scores.innovation, 1);
      expect(Number(rows[i]?.["Innovation restated"])).toBeCloseTo(r.restated.scores.innovation, 1);
    }
    expect(await page.locator('[data-testid="history-innovation"] svg').count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "product-overview-sovereignty-desktop.png"), fullPage: true });
  });

  it("applies the reader's gates from the form, keeps them in the link, and sets apart who fails", async () => {
    await page.goto(`${base}/markets/managed-kubernetes/readings?country=FR`);
    await page.getByTestId("gate-min-seal").selectOption("3");
    await expect.poll(() => new URL(page.url()).searchParams.get("minSeal")).toBe("3");
    const gated = await api("/markets/managed-kubernetes/servicemax?country=FR&minSeal=3");
    const failing = gated.products.filter((p: Json) => p.available && !p.gate.passed);
    await expect
      .poll(() => page.getByTestId("gated-out").locator("li").count(), { timeout: 20_000 })
      .toBe(failing.length);
    const rows = await tableRows(page, "servicemax-table");
    const ranked = rows.filter((r) => r.Rank !== "—" && r.Rank !== "");
    expect(ranked.map((r) => r.Product)).toEqual(
      gated.products.filter((p: Json) => p.gate.passed).map((p: Json) => p.name),
    );
    for (const r of ranked) expect(Number(r.SEAL)).toBeGreaterThanOrEqual(3);
    for (const r of rows.filter((row) => row["Your gates"]?.startsWith("below"))) expect(r.Rank).toBe("—");
    // The Delta takes the same gates: those that fail are set apart below its chart and named in its table.
    const gatedDelta = await api("/markets/managed-kubernetes/delta?country=FR&minSeal=3");
    const deltaFailing = gatedDelta.products.filter((p: Json) => p.available && !p.gate.passed);
    expect(deltaFailing.length).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId("delta-gated-out").locator("li").count(), { timeout: 20_000 })
      .toBe(deltaFailing.length);
    const deltaRows = await tableRows(page, "delta-map-table");
    expect(deltaRows.map((r) => [r.Product, r["Your gates"] === "passes"])).toEqual(
      gatedDelta.products.map((p: Json) => [p.name, p.gate.passed]),
    );
    await page.screenshot({ path: path.join(SCREENSHOTS, "readings-gates-desktop.png"), fullPage: true });
    // The link keeps the gate: opened afresh, the same reading.
    await page.goto(page.url());
    expect(await page.getByTestId("gate-min-seal").inputValue()).toBe("3");
  });

  it("puts the odds beside the Capability Index's ranks, as the API gives them", async () => {
    const capaindex = await api("/markets/foundation-model-apis/capaindex");
    await page.goto(`${base}/markets/foundation-model-apis/readings?country=FR`);
    const rows = await tableRows(page, "capaindex-table");
    // Within half a point of the share, and 0 or 100 only when the share is none or all (0.998 is not 100).
    expect(rows).toHaveLength(capaindex.products.length);
    capaindex.products.forEach((p: Json, i: number) => {
      const shown = Number(rows[i]?.["P(top 3) %"]);
      const share = p.rankOdds.top3 as number;
      expect(Math.abs(shown - share * 100), p.name).toBeLessThanOrEqual(0.5);
      if (shown === 0 || shown === 100) expect(share * 100, p.name).toBe(shown);
    });
    expect(rows.map((r) => r["Tied group"])).toEqual(capaindex.products.map((p: Json) => String(p.rankOdds.tieGroup)));
  });
});
