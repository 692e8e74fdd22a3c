/**
 * The market page's "What changed" section, in Chromium against the built app: the latest release
 * against the one before by default, under the organization's home country; the pair chosen with
 * the pickers (the page's other query kept); the changelog's links to each comparison; pairs that
 * cannot be compared said in words; a market with one release. Expected values come from the demo
 * catalogue's files (db/demo) and the REST API's own answers, never from the page.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { type ReaderSession, readerSignedUpAt } from "../helpers/browser";

const base = inject("appUrl");
const accounts = inject("accounts");
const MARKET = "foundation-model-apis";
const MARKET_PAGE = `${base}/markets/${MARKET}`;
/** The market page's What changed view. */
const CHANGES = `${MARKET_PAGE}/changes`;
const ONE_RELEASE = "managed-kubernetes";
const HOME = "DE";
const AXES = ["innovation", "control", "scale"] as const;
const DEMO = path.resolve(import.meta.dirname, "../../db/demo");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");

interface DemoRelease {
  methodologyVersion: string;
  methodology: string;
  indicators: { id: string; weight: number }[];
  products: { productId: string; name: string }[];
}

/** Release N of the demo market as its file has it. */
const demo = (release: number): DemoRelease =>
  parseYaml(readFileSync(path.join(DEMO, "markets", `${MARKET}.r${release}.yaml`), "utf8"));

/** Whether the demo manifest publishes release N of the market as a material change. */
function demoMaterial(release: number): boolean {
  const { steps } = parseYaml(readFileSync(path.join(DEMO, "manifest.yaml"), "utf8")) as {
    steps: { publish?: string; material?: boolean }[];
  };
  return steps.find((s) => s.publish === `markets/${MARKET}.r${release}.yaml`)?.material === true;
}

interface Changes {
  from: { release: number };
  to: { release: number };
  country: string;
  products: {
    productId: string;
    name: string;
    status: string;
    scores: Record<
      string,
      { change: number; attribution: { ownValues: number; field: number; method: number } }
    > | null;
    capabilityIndexRank: { from: number | null; to: number | null };
  }[];
}

/** The API's own answer, with a token of another organization; `status` for the refusals. */
async function api<T>(pathAndQuery: string, status = 200): Promise<T> {
  const response = await fetch(`${base}/v1${pathAndQuery}`, {
    headers: { Authorization: `Bearer ${accounts.french.token}` },
  });
  expect(response.status, pathAndQuery).toBe(status);
  return (await response.json()) as T;
}

const section = (page: Page) => page.getByTestId("changes");
const line = async (page: Page, id: string) => (await section(page).getByTestId(`changes-${id}`).textContent()) ?? "";

/** Every product row of the table against the API's comparison: status, name, each axis's change and causes. */
async function expectRowsOf(page: Page, changes: Changes) {
  const rows = section(page).locator('[data-testid="changes-table"] tbody tr');
  // Biggest movers first: entered, then left, then by the largest change on any axis, ties by name.
  const statusRank: Record<string, number> = { entered: 0, left: 1, stayed: 2 };
  const largest = (p: Changes["products"][number]) =>
    p.status === "stayed" ? Math.max(0, ...Object.values(p.scores ?? {}).map((c) => Math.abs(c.change))) : 0;
  const expected = [...changes.products].sort(
    (a, b) =>
      (statusRank[a.status] ?? 3) - (statusRank[b.status] ?? 3) ||
      largest(b) - largest(a) ||
      a.name.localeCompare(b.name),
  );
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-product-id")))).toEqual(
    expected.map((p) => p.productId),
  );
  for (const product of changes.products) {
    const row = section(page).locator(`tr[data-product-id="${product.productId}"]`);
    expect(await row.getAttribute("data-status")).toBe(product.status);
    expect(await row.getByTestId("changes-product-name").textContent()).toBe(product.name);
    if (!product.scores) continue;
    for (const axis of AXES) {
      const { change, attribution } = product.scores[axis] as NonNullable<typeof product.scores>[string];
      const cell = row.locator(`td[data-axis="${axis}"]`);
      const shown = await cell.evaluate((td) => ({ ...(td as HTMLElement).dataset }));
      expect(shown, `${product.productId} ${axis}`).toMatchObject({
        change: String(change),
        ownValues: String(attribution.ownValues),
        field: String(attribution.field),
        method: String(attribution.method),
      });
    }
  }
}

describe("What changed, in Chromium", () => {
  let reader: ReaderSession;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    reader = await readerSignedUpAt(MARKET_PAGE, {
      email: `changes-${Date.now()}@example.com`,
      organization: "Release Watchers GmbH",
      homeCountry: HOME,
    });
    page = reader.page;
  });
  afterAll(() => reader?.close());

  it("compares the latest release with the one before, under the home country, naming who entered", async () => {
    const { releases } = await api<{ releases: { release: number }[] }>(`/markets/${MARKET}/changelog`);
    const latest = Math.max(...releases.map((r) => r.release));
    expect(latest).toBe(3);
    const [before, after] = [demo(latest - 1), demo(latest)];
    const entered = after.products.filter((p) => !before.products.some((b) => b.productId === p.productId));
    expect(entered.map((p) => p.productId)).toEqual(["fennwick-private-inference"]);
    const changes = await api<Changes>(`/markets/${MARKET}/changes?country=${HOME}`);

    await page.goto(MARKET_PAGE);
    // What changed is a view of its own, one tab away from the overview.
    await page.getByTestId("market-views").getByRole("link", { name: "What changed" }).click();
    await page.waitForURL((url) => url.pathname === `/markets/${MARKET}/changes`);
    expect(await page.getByTestId("market-views").locator('a[aria-current="page"]').textContent()).toBe("What changed");
    expect(await section(page).getByRole("heading", { level: 2 }).textContent()).toBe("What changed");
    expect(await section(page).getByTestId("changes-from").inputValue()).toBe(String(latest - 1));
    expect(await section(page).getByTestId("changes-to").inputValue()).toBe(String(latest));
    const pair = await line(page, "pair");
    expect(pair).toContain(`Release ${latest} (methodology ${after.methodologyVersion}) against release ${latest - 1}`);
    expect(pair).toContain(`under ${HOME}`);

    // Methodology 2.0 kept its version and changed its words.
    expect(before.methodologyVersion).toBe(after.methodologyVersion);
    expect(before.methodology).not.toBe(after.methodology);
    expect(await line(page, "methodology")).toBe(`Methodology ${after.methodologyVersion} reworded.`);
    expect(await line(page, "products-added")).toBe(`Products added: ${entered.map((p) => p.name).join(", ")}.`);

    const newcomer = section(page).locator(`tr[data-product-id="${entered[0]?.productId}"]`);
    expect(await newcomer.getByTestId("changes-product-name").textContent()).toBe(entered[0]?.name);
    expect(await newcomer.getByTestId("changes-status").textContent()).toBe("entered");
    const rank = changes.products.find((p) => p.productId === entered[0]?.productId)?.capabilityIndexRank;
    expect(await newcomer.getByTestId("changes-capaindex-rank").textContent()).toBe(`new at ${rank?.to}`);
    // A product that entered shows its published numbers, not only its bands.
    const latestSnapshot = await api<{
      products: { productId: string; scores: Record<(typeof AXES)[number], number> }[];
    }>(`/markets/${MARKET}/snapshot`);
    const scores = latestSnapshot.products.find((p) => p.productId === entered[0]?.productId)?.scores;
    for (const axis of AXES) {
      const cell = newcomer.locator(`td[data-axis="${axis}"]`);
      expect(await cell.getAttribute("data-score")).toBe(String(scores?.[axis]));
      expect(await cell.textContent()).toMatch(new RegExp(`^${scores?.[axis].toFixed(1)} `));
    }
    expect(changes).toMatchObject({ from: { release: latest - 1 }, to: { release: latest }, country: HOME });
    await expectRowsOf(page, changes);
    await section(page).screenshot({ path: path.join(SCREENSHOTS, "market-changes-desktop.png") });
  });

  it("follows the readings' country picker: the Max ranks and availability move to the new country", async () => {
    await page.goto(CHANGES);
    await expect.poll(() => line(page, "pair")).toContain(`under ${HOME}`);
    await page.goto(`${MARKET_PAGE}/readings`);
    await page.getByTestId("frame-country").selectOption("US");
    await page.waitForURL((url) => url.searchParams.get("country") === "US");
    // The views' tabs carry the country: What changed opens under it.
    await page.getByTestId("market-views").getByRole("link", { name: "What changed" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/changes") && url.searchParams.get("country") === "US");
    await expect.poll(() => line(page, "pair"), { timeout: 20_000 }).toContain("under US");
    expect(await line(page, "pair")).not.toContain(`under ${HOME}`);
    await expectRowsOf(page, await api<Changes>(`/markets/${MARKET}/changes?country=US`));
    const availability = await section(page)
      .getByTestId("changes-availability")
      .evaluateAll((cells) => cells.map((c) => c.getAttribute("data-label")));
    expect(availability.every((label) => label === "Availability under US")).toBe(true);
  });

  it("compares the pair chosen with the pickers, keeping the page's country and view", async () => {
    const [first, third] = [demo(1), demo(3)];
    const weightsOf = (release: DemoRelease) => new Map(release.indicators.map((i) => [i.id, i.weight]));
    const [weights1, weights3] = [weightsOf(first), weightsOf(third)];
    const added = [...weights3.keys()].filter((id) => !weights1.has(id)).sort();
    const reweighted = [...weights3].filter(([id, w]) => weights1.has(id) && weights1.get(id) !== w);
    expect(added).toEqual(["eu-legal-immunity"]);
    expect(reweighted.length).toBeGreaterThan(0);

    await page.goto(`${CHANGES}?country=FR&view=bars`);
    await section(page).getByTestId("changes-from").selectOption("1");
    await section(page).getByTestId("changes-to").selectOption("3");
    await section(page).getByTestId("changes-compare").click();
    await page.waitForURL((url) => url.searchParams.get("from") === "1" && url.searchParams.get("to") === "3");
    const url = new URL(page.url());
    expect(url.searchParams.get("country")).toBe("FR");
    expect(url.searchParams.get("view")).toBe("bars");
    expect(url.hash).toBe("#changes");

    await expect.poll(() => line(page, "pair")).toContain("against release 1");
    expect(await line(page, "pair")).toContain("under FR");
    // The material flag is release 3's, which only refreshed the data.
    expect(demoMaterial(3)).toBe(false);
    expect(await line(page, "methodology")).toBe(
      `Methodology ${first.methodologyVersion} → ${third.methodologyVersion}.`,
    );
    expect(await line(page, "indicators-added")).toBe(`Indicators added: ${added.join(", ")}.`);
    const weights = await line(page, "weights");
    for (const [id, weight] of reweighted) expect(weights).toContain(`${id} ${weights1.get(id)} → ${weight}`);
    await expectRowsOf(page, await api<Changes>(`/markets/${MARKET}/changes?from=1&to=3&country=FR`));
  });

  it("submits as a plain GET form too, the page's query in hidden fields, as without JavaScript", async () => {
    await page.goto(`${CHANGES}?release=2&country=FR&view=bars`);
    await section(page).getByTestId("changes-from").selectOption("1");
    await section(page).getByTestId("changes-to").selectOption("2");
    // form.submit() skips the submit handler: the browser builds the URL from the fields alone.
    await section(page)
      .getByTestId("changes-form")
      .evaluate((form) => (form as HTMLFormElement).submit());
    await page.waitForURL((url) => url.searchParams.get("to") === "2");
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({
      release: "2",
      country: "FR",
      view: "bars",
      from: "1",
      to: "2",
    });
    expect(url.hash).toBe("#changes");
    await expect.poll(() => line(page, "pair")).toContain("against release 1");
  });

  it("links every release of the changelog but the first to what it changed", async () => {
    const { releases } = await api<{ releases: { release: number }[] }>(`/markets/${MARKET}/changelog`);
    await page.goto(`${MARKET_PAGE}/methodology`);
    const links = page.locator('[data-testid="changelog"] a[data-testid^="changelog-changes-"]');
    expect(await links.count()).toBe(releases.length - 1);
    expect(await page.getByTestId("changelog-changes-1").count()).toBe(0);
    const link = page.getByTestId("changelog-changes-2");
    expect(await link.textContent()).toBe("What changed");
    await link.click();
    await page.waitForURL((url) => url.searchParams.get("from") === "1" && url.searchParams.get("to") === "2");
    expect(new URL(page.url()).hash).toBe("#changes");
    await expect.poll(() => section(page).getByTestId("changes-to").inputValue()).toBe("2");
    expect(await section(page).getByTestId("changes-from").inputValue()).toBe("1");
    expect(demoMaterial(2)).toBe(true);
    expect(await line(page, "methodology")).toBe(
      `Methodology ${demo(1).methodologyVersion} → ${demo(2).methodologyVersion}, a material change.`,
    );
    await expectRowsOf(page, await api<Changes>(`/markets/${MARKET}/changes?from=1&to=2&country=${HOME}`));
  });

  it("says in words why a pair cannot be compared, and keeps the rest of the page", async () => {
    for (const [query, status] of [
      ["from=3&to=2", 400],
      ["to=9", 404],
    ] as const) {
      const problem = await api<{ detail: string }>(`/markets/${MARKET}/changes?${query}&country=${HOME}`, status);
      await page.goto(`${CHANGES}?${query}`);
      const alert = section(page).getByTestId("changes-problem");
      expect(await alert.getAttribute("role")).toBe("alert");
      expect(await alert.textContent()).toContain(problem.detail);
      expect(await section(page).getByTestId("changes-table").count()).toBe(0);
      // The pickers stay, to choose again; the views' tabs are there as ever.
      expect(await section(page).getByTestId("changes-form").count()).toBe(1);
      expect(await page.getByTestId("market-views").locator("a").count()).toBeGreaterThan(4);
    }
  });

  it("says a market with one release has nothing to compare", async () => {
    const { releases } = await api<{ releases: unknown[] }>(`/markets/${ONE_RELEASE}/changelog`);
    expect(releases).toHaveLength(1);
    await page.goto(`${base}/markets/${ONE_RELEASE}/changes`);
    expect(await section(page).getByTestId("changes-one-release").textContent()).toContain("one release");
    expect(await section(page).getByTestId("changes-form").count()).toBe(0);
    await page.goto(`${base}/markets/${ONE_RELEASE}/methodology`);
    expect(await page.locator('[data-testid="changelog"] a[data-testid^="changelog-changes-"]').count()).toBe(0);
  });
});
