/**
 * WCAG 2.2 AA, checked by axe-core in Chromium on every page as its three kinds of visitor meet
 * it — signed out, signed in without an organization, and a member — at 1280 × 900 and 390 × 844:
 * no serious or critical violation anywhere. Each violation is reported with its rule, its nodes'
 * selectors and axe's words, so a failure says what to fix.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium, signInHere } from "../helpers/browser";

const base = inject("appUrl");
const MARKET = "foundation-model-apis";
const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** What axe finds serious or critical on the page as it stands, in words. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Closed disclosures are opened: what they hide must pass too.
  await page.evaluate(() => {
    for (const details of document.querySelectorAll("details:not(.site-header details)"))
      (details as HTMLDetailsElement).open = true;
  });
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}, ${v.nodes.length} nodes): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
}

async function expectAccessible(page: Page, url: string, ready?: string) {
  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport);
    await page.goto(url);
    // Visible, not only present (content a suspended view hides under its loading fallback is in the DOM).
    if (ready) await page.getByTestId(ready).first().waitFor({ state: "visible", timeout: 20_000 });
    // A table frame becomes a keyboard stop once it has measured itself as scrolling (an effect
    // after its first paint, which a loaded machine delays): give it that moment. One that never
    // does is still reported by axe (scrollable-region-focusable).
    await page
      .waitForFunction(
        () =>
          [...document.querySelectorAll(".table-wrap")].every(
            (frame) => frame.scrollWidth <= frame.clientWidth + 1 || frame.hasAttribute("tabindex"),
          ),
        undefined,
        { timeout: 15_000 },
      )
      .catch(() => undefined);
    expect(await seriousViolations(page), `${url} at ${viewport.width} px`).toEqual([]);
  }
}

describe("WCAG 2.2 AA (axe-core), in Chromium", () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterAll(() => browser?.close());

  it("signed out: the landing page, sign-in, the error codes", async () => {
    await expectAccessible(page, `${base}/`, "sample-reading");
    await expectAccessible(page, `${base}/signin`);
    await expectAccessible(page, `${base}/docs/errors`);
  });

  it("signed in without an organization: onboarding", async () => {
    await page.goto(`${base}/signin?callbackUrl=%2Fonboarding`);
    await signInHere(page, `a11y-${Date.now()}@example.com`);
    await page.waitForURL(/\/onboarding/);
    await expectAccessible(page, `${base}/onboarding`);
  });

  it("a member: creates an organization", async () => {
    await page.goto(`${base}/onboarding`);
    await page.getByLabel("Organization name").fill("Accessible Analysts Oy");
    await page.getByTestId("home-country").selectOption("DE");
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.waitForURL(/\/markets$/);
  });

  // One test per page, in order, each with its own clock and a failure that names its page. axe
  // at two widths on a page whose disclosures are all open is slow where the page is a table:
  // availability's 3,800 cells took 5 s closed and 11 s opened per width on a quiet machine.
  const market = `/markets/${MARKET}`;
  const product = `${market}/products/quillmere-atlas`;
  const memberPages: [path: string, ready?: string][] = [
    ["/", "markets-table"],
    ["/markets", "markets-country"],
    ["/docs/api", "api-reference-frame"],
    [`${market}?country=FR`, "snapshot-table"],
    [`${market}/readings?country=FR`, "delta-map"],
    [`${market}/readings?country=FR&minSeal=3`, "delta-gated-out"],
    [`${market}/whatif?country=FR`, "whatif"],
    // With weights: the summary, the order and every product's three axes, as tables or cards.
    [`${market}/whatif?country=FR&whatif=key-custody:6,sla-tier:0&whatifBy=control`, "whatif-capaindex"],
    [`${market}/changes?country=FR`, "changes-table"],
    [`${market}/availability?country=FR`, "heatmap"],
    [`${market}/methodology`, "methodology"],
    [`${product}?country=FR`, "under-controls"],
    ...["innovation", "control", "scale"].map((axis): [string, string] => [
      `${product}/${axis}?country=FR`,
      `contributions-${axis}-table`,
    ]),
    [`${product}/offerings?country=FR`, "offerings-table"],
    [`${product}/sovereignty?country=FR`, "sovereignty-table"],
    ["/geographies"],
    ["/tokens"],
    ["/credits"],
    ["/webhooks"],
    ["/connect"],
    ["/notifications"],
    ["/notifications/settings"],
    ["/members", "member-row"],
    ["/embeds"],
    ["/audit", "audit-row"],
    ["/identity-provider", "idp-form"],
  ];
  for (const [path, ready] of memberPages)
    it(`a member: ${path}`, async () => {
      await expectAccessible(page, `${base}${path}`, ready);
    }, 180_000);
});
