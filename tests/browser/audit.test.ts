/**
 * The audit trail as a person meets it, in Chromium against the running app: sign up (the new
 * organization is the first event), make a token on /tokens, see it on /audit with who, what and
 * from where, filter by action, download the CSV (formula-like names neutralised), read it with
 * the new token over the API; addresses shown plainly (127.0.0.1, never ::ffff:127.0.0.1); the
 * filters in the page's address (reload, Back, Forward, a forged one ignored), an inverted period
 * explained and an empty result naming its filters, at 1280 and 390 px; axe-core's WCAG 2.2 AA
 * check of /audit at 1280 and 390 px.
 */
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { downloadText, type ReaderSession, readerSignedUpAt } from "../helpers/browser";
import { SCREENSHOTS } from "../helpers/views";

const base = inject("appUrl");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const HOSTILE = '=HYPERLINK("http://evil.example","<b>x</b>")';

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

describe("the audit trail in the dashboard, in Chromium", () => {
  let session: ReaderSession;
  beforeAll(async () => {
    session = await readerSignedUpAt(
      `${base}/audit`,
      { email: `audit-${Date.now()}@example.com`, organization: "Audit <i>Browser</i> SAS", homeCountry: "FR" },
      { acceptDownloads: true },
    );
  });
  afterAll(() => session?.close());

  it("shows a token made on /tokens, filters by action and downloads the CSV", async () => {
    const { page } = session;
    // Onboarding created the organization: its first event.
    await expect
      .poll(() => page.locator('[data-testid="audit-row"][data-action="organization.create"]').count())
      .toBe(1);

    await page.goto(`${base}/tokens`);
    await page.getByLabel("Name", { exact: true }).fill(HOSTILE);
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByTestId("new-token-secret").waitFor();
    const secret = await page.getByTestId("new-token-secret").inputValue();

    // Reached from the account menu.
    await page.locator(".user-menu summary").click();
    await page.getByTestId("audit-link").click();
    await page.waitForURL(/\/audit$/);
    const tokenRow = page.locator('[data-testid="audit-row"][data-action="token.create"]');
    await expect.poll(() => tokenRow.count()).toBe(1);
    const text = (await tokenRow.textContent()) ?? "";
    expect(text).toContain("token.create");
    expect(text).toMatch(/audit-\d+@example\.com/);
    expect(text).toMatch(/127\.0\.0\.1|::1/);
    // An IPv4 client is shown as its IPv4 address, never as "::ffff:127.0.0.1".
    expect(text).not.toContain("::ffff:");
    // Hostile text is shown as text, never as markup.
    expect(await tokenRow.locator("b").count()).toBe(0);
    expect(text).toContain("<b>x</b>");
    expect(await page.content()).not.toContain(secret);

    await page.getByLabel("Action").selectOption("token.create");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect.poll(() => page.getByTestId("audit-row").count()).toBe(1);
    expect(await page.getByTestId("audit-csv").getAttribute("href")).toBe("/audit/export.csv?action=token.create");

    const csv = await downloadText(page, "audit-csv");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("token.create");
    expect(csv).not.toContain("::ffff:");
    expect(csv).not.toContain(secret);
    // Every cell that could start a formula is quoted and neutralised; the name sits inside JSON.
    for (const cell of lines[1]?.split(",") ?? []) expect(cell).not.toMatch(/^[=+\-@]/);

    // The token just made reads the same trail over the API (free, whatever its scopes).
    const api = await fetch(`${base}/v1/audit-events?action=token.create`, {
      headers: { Authorization: `Bearer ${secret}` },
    });
    expect(api.status).toBe(200);
    const { events } = (await api.json()) as { events: { details: { name: string } }[] };
    expect(events.map((e) => e.details.name)).toEqual([HOSTILE]);

    await page.getByLabel("Action").selectOption("webhook.create");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect.poll(() => page.getByTestId("account-list-empty").count()).toBe(1);
    // The empty result names the filters that left nothing.
    expect(await page.getByTestId("account-list-empty").textContent()).toBe(
      "No events match these filters (action webhook.create). Clear or widen them to see more.",
    );
  });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ])
    it(`keeps the filters in the address, and explains an inverted period, at ${viewport.width} px`, async () => {
      const { page } = session;
      await page.setViewportSize(viewport);
      await page.goto(`${base}/audit`);
      const rows = page.getByTestId("audit-row");
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThan(1);
      const all = await rows.count();
      // Applied filters are in the address: shareable, kept on reload, undone by Back.
      await page.getByLabel("Action").selectOption("token.create");
      await page.getByRole("button", { name: "Apply filters" }).click();
      await page.waitForURL(/\/audit\?action=token\.create$/);
      await expect.poll(() => rows.count()).toBe(1);
      await page.reload();
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(1);
      expect(await page.getByLabel("Action").inputValue()).toBe("token.create");
      expect(await page.getByTestId("audit-csv").getAttribute("href")).toBe("/audit/export.csv?action=token.create");
      await page.goBack();
      await page.waitForURL(/\/audit$/);
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(all);
      expect(await page.getByLabel("Action").inputValue()).toBe("");
      await page.goForward();
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(1);
      await page.getByTestId("audit-clear-filters").click();
      await page.waitForURL(/\/audit$/);
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(all);

      // A period that ends before it starts says so, instead of "No events match".
      await page.goto(`${base}/audit?from=2026-05-10&to=2026-05-01`);
      const inverted = page.getByTestId("audit-inverted-range");
      await expect.poll(() => inverted.count()).toBe(1);
      expect(await inverted.textContent()).toContain("From (2026-05-10) is after To (2026-05-01)");
      expect(await page.getByTestId("account-list-empty").count()).toBe(0);
      expect(await page.getByLabel("From").inputValue()).toBe("2026-05-10");
      await page.screenshot({ path: path.join(SCREENSHOTS, `audit-inverted-${viewport.width}.png`), fullPage: true });
      expect(await seriousViolations(page), `/audit with an inverted period at ${viewport.width} px`).toEqual([]);

      // What is no filter the page gives is left out (a forged action, a date that is none, markup).
      await page.goto(
        `${base}/audit?action=%3Cb%3Ex%3C%2Fb%3E&from=yesterday&actor=${"a".repeat(200)}&to=%3Cscript%3E`,
      );
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(all);
      expect(await page.locator("main b").count()).toBe(0);
      // No problem shown (Next's route announcer is an alert of its own, outside main).
      expect(await page.locator("main [role='alert']").count()).toBe(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, `audit-${viewport.width}.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
    });

  it("passes axe-core at 1280 and 390 px", async () => {
    const { page } = session;
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`${base}/audit`);
      await expect.poll(() => page.getByTestId("audit-row").count(), { timeout: 20_000 }).toBeGreaterThan(0);
      expect(await seriousViolations(page), `/audit at ${viewport.width} px`).toEqual([]);
    }
  });
});
