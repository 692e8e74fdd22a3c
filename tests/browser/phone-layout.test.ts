/**
 * Every dashboard page at a phone's size (390 × 844), in Chromium, as a new person uses them:
 * sign-in, the e-mail check, the dev outbox and onboarding on the way in; then the markets list
 * (the named case: it was a table whose last column was cut off), a market page with each reading
 * and what changed, a product page, geographies, tokens, credits with a ledger, an MCP client's
 * consent page and /connect with the connection, notifications and their settings, a second
 * organization, the error codes and the not-found pages. On each: the page does not scroll
 * sideways, no visible element or line of text of the header or the content reaches past the
 * viewport's edges (which also catches a table scrolling inside its frame with columns out of
 * sight), and no two pieces of text in a chart overlap.
 */
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SESSION_COOKIE } from "../helpers/accounts";
import { launchChromium } from "../helpers/browser";
import { authorizeUrl, discover, pkcePair, register } from "../helpers/oauth";

const base = inject("appUrl");
const accounts = inject("accounts");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
const WIDTH = 390;
const HEIGHT = 844;
const MARKET = "foundation-model-apis";

/**
 * What does not fit: the page's own sideways scroll, then every visible element and text line of
 * the header and the content whose box reaches past the left or right edge (1 px of rounding
 * allowed), and every element that scrolls sideways inside itself; each named once, at the
 * outermost element that misfits. Closed <details> are opened first, so the charts' tables are
 * measured too. What is clipped on purpose (the screen-reader-only text) is left out, and so is
 * the inside of a scrolling box that holds an ARIA grid. Then, in every chart, any two pieces of
 * text that overlap.
 */
async function misfits(page: Page): Promise<string[]> {
  await page.evaluate(() => {
    for (const details of document.querySelectorAll("details"))
      if (!details.open) {
        details.open = true;
        details.dataset.openedToMeasure = "";
      }
  });
  const found = await page.evaluate((width) => {
    const found: string[] = [];
    const html = document.documentElement;
    if (html.scrollWidth > width) found.push(`the page is ${html.scrollWidth} px wide`);
    const name = (e: Element) => {
      const id = e.getAttribute("data-testid") ?? e.id;
      const cls = e.getAttribute("class");
      const text = (e.textContent ?? "").trim().slice(0, 40);
      return `<${e.tagName.toLowerCase()}${id ? ` #${id}` : ""}${cls ? ` .${cls.split(/\s+/).join(".")}` : ""}> "${text}"`;
    };
    const flagged = new Set<Element>();
    const skipped = new Set<Element>();
    const within = (e: Element, set: Set<Element>) => {
      for (let p: Element | null = e; p; p = p.parentElement) if (set.has(p)) return true;
      return false;
    };
    const visible = (e: Element) => e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
    const outside = (r: DOMRect) => r.width > 0 && r.height > 0 && (r.right > width + 1 || r.left < -1);
    const span = (r: DOMRect) => `spans ${Math.round(r.left)}–${Math.round(r.right)} px`;
    for (const root of document.querySelectorAll("header.site-header, #content")) {
      for (const e of [root, ...root.querySelectorAll("*")]) {
        if (within(e, flagged) || within(e, skipped)) continue;
        if (!visible(e)) continue;
        const style = getComputedStyle(e);
        if (style.clip !== "auto" || style.clipPath !== "none") {
          skipped.add(e);
          continue;
        }
        const r = e.getBoundingClientRect();
        if (outside(r)) {
          found.push(`${name(e)} ${span(r)}`);
          flagged.add(e);
        } else if (["auto", "scroll", "hidden"].includes(style.overflowX) && e.scrollWidth > e.clientWidth + 1) {
          // A box that scrolls (or clips) sideways hides part of what it holds — unless it holds an
          // ARIA grid (the availability heat map): a two-dimensional widget whose cells the arrow
          // keys move through, each scrolled into view. The box itself must still fit.
          if (style.overflowX !== "hidden" && e.querySelector(":scope > [role='grid']")) {
            skipped.add(e);
            continue;
          }
          // Nor a row of tabs built to scroll sideways (data-scrolls="sideways"), so long as the
          // current tab is wholly in view inside it.
          if (style.overflowX !== "hidden" && e.getAttribute("data-scrolls") === "sideways") {
            const current = e.querySelector("[aria-current='page']")?.getBoundingClientRect();
            const box = e.getBoundingClientRect();
            if (current && current.left >= box.left - 1 && current.right <= box.right + 1) {
              skipped.add(e);
              continue;
            }
          }
          // Nor a one-line name cut short with an ellipsis whose title carries it whole.
          if (
            style.overflowX === "hidden" &&
            style.textOverflow === "ellipsis" &&
            e.getAttribute("title") === (e.textContent ?? "").trim()
          ) {
            skipped.add(e);
            continue;
          }
          found.push(`${name(e)} scrolls sideways: ${e.scrollWidth} px of content in ${e.clientWidth} px`);
          flagged.add(e);
        }
      }
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || !node.textContent?.trim() || within(parent, flagged) || within(parent, skipped)) continue;
        if (!visible(parent)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const r = [...range.getClientRects()].find(outside);
        if (r) found.push(`text "${node.textContent.trim().slice(0, 40)}" ${span(r)}`);
      }
    }
    // In every chart, no two pieces of text overlap (names, values, band names, axis ticks).
    for (const svg of document.querySelectorAll("#content svg")) {
      const texts = [...svg.querySelectorAll("text")]
        .filter((t) => t.textContent?.trim() && visible(t))
        .map((t) => ({ text: t.textContent?.trim() ?? "", r: t.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && r.height > 0);
      texts.forEach((a, i) => {
        for (const b of texts.slice(i + 1)) {
          const across = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
          const down = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
          if (across > 0.5 && down > 0.5) found.push(`chart text "${a.text}" overlaps "${b.text}"`);
        }
      });
    }
    return found;
  }, WIDTH);
  await page.evaluate(() => {
    for (const details of document.querySelectorAll<HTMLDetailsElement>("details[data-opened-to-measure]")) {
      details.open = false;
      delete details.dataset.openedToMeasure;
    }
  });
  return found;
}

async function expectFits(page: Page, screenshot: string) {
  // A row of tabs scrolls its current tab into view once the page is live: give it that moment,
  // which under a loaded machine (the suites run side by side in CI) can take seconds to come
  // (if it never does, misfits() reports the row).
  await page
    .waitForFunction(
      () =>
        [...document.querySelectorAll("[data-scrolls='sideways']")].every((box) => {
          const current = box.querySelector("[aria-current='page']")?.getBoundingClientRect();
          const shown = box.getBoundingClientRect();
          return !current || (current.left >= shown.left - 1 && current.right <= shown.right + 1);
        }),
      undefined,
      { timeout: 15_000 },
    )
    .catch(() => undefined);
  await page.screenshot({ path: path.join(SCREENSHOTS, `phone-${screenshot}.png`), fullPage: true });
  expect(await misfits(page), `${screenshot} at ${WIDTH} px: ${page.url()}`).toEqual([]);
}

/** Waits until the readings have drawn their charts (they load on the client). */
async function readingsDrawn(page: Page) {
  for (const figure of ["capaindex", "servicemax"])
    await expect
      .poll(() => page.locator(`[data-testid="${figure}"] svg [data-mark="bar"]`).count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
}

describe(`every dashboard page at ${WIDTH} × ${HEIGHT}, in Chromium`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let listener: Server;
  const email = `phone-${Date.now()}@example.com`;

  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT } });
    page = await context.newPage();
    listener = createServer((_request, response) => response.end("You can close this window."));
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    listener?.close();
  });

  it("signs up: sign-in, check your e-mail, the dev outbox, onboarding", async () => {
    // The markets list is open to anyone; a page of the account sends a stranger to sign in.
    await page.goto(`${base}/credits`);
    await page.waitForURL(/\/signin\?callbackUrl=/);
    await expectFits(page, "signin");
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await page.waitForURL(/\/signin\/check-email/);
    await expectFits(page, "check-email");
    await page.getByRole("link", { name: "dev outbox" }).click();
    await page.waitForURL(/\/dev\/outbox/);
    await expectFits(page, "outbox");
    await page.locator(`[data-recipient="${email}"] [data-testid="outbox-link"]`).first().click();
    await page.waitForURL(/\/onboarding\?returnTo=/);
    await expectFits(page, "onboarding");
    await page.getByLabel("Organization name").fill("Pocket-Sized Research Cooperative of Lyon");
    await page.getByTestId("home-country").selectOption("FR");
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.waitForURL(`${base}/credits`);
  });

  it("shows the markets list as one card per market, the last column in sight", async () => {
    await page.goto(`${base}/`);
    const rows = page.locator('[data-testid="markets-table"] tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    await expectFits(page, "markets");
    // Each market's last column (Last updated) is on screen, inside its card, labelled.
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) => {
        const last = tr.querySelector("td:last-child") as HTMLElement;
        const r = last.getBoundingClientRect();
        return { right: r.right, width: r.width, label: getComputedStyle(last, "::before").content };
      }),
    );
    for (const cell of cells) {
      expect(cell.width).toBeGreaterThan(0);
      expect(cell.right).toBeLessThanOrEqual(WIDTH);
      expect(cell.label).toBe('"Last updated"');
    }
  });

  it("fits every view of a market page: overview, the readings in both delta views, what if, what changed, availability, methodology", async () => {
    const market = `${base}/markets/${MARKET}`;
    await page.goto(`${market}?country=FR`);
    await expect.poll(() => page.getByTestId("snapshot-table").count()).toBe(1);
    await expectFits(page, "market-overview");
    // Sorting stays within reach on a phone: the headers' sort buttons.
    await page.getByRole("button", { name: "Scale" }).click();
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toContain("Scale");
    // Follow it, for the settings page below.
    await page.getByTestId("follow-button").click();
    await expect.poll(() => page.getByTestId("follow-button").getAttribute("aria-pressed")).toBe("true");

    await page.goto(`${market}/readings?country=FR`);
    await readingsDrawn(page);
    await expect
      .poll(() => page.locator('[data-testid="delta-map"] svg [data-mark="streak"]').count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await expectFits(page, "market-map");
    await page.getByTestId("delta-view-bars").check();
    await page.waitForURL((url) => url.searchParams.get("view") === "bars");
    await expect
      .poll(() => page.locator('[data-testid="delta-bars"] svg [data-mark="bar"]').count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await expectFits(page, "market-bars");

    for (const [view, ready] of [
      ["whatif", "whatif"],
      ["changes", "changes-table"],
      ["availability", "heatmap"],
      ["methodology", "methodology"],
    ] as const) {
      await page.goto(`${market}/${view}?country=FR`);
      // Visible, not only present: a view that suspends again keeps its content hidden under the
      // loading fallback, which is no page to measure.
      await page.getByTestId(ready).first().waitFor({ state: "visible", timeout: 20_000 });
      await expectFits(page, `market-${view}`);
    }
  });

  it("fits a product page, published and under France's controls", async () => {
    for (const [query, screenshot] of [
      ["", "product"],
      ["?country=FR", "product-fr"],
    ] as const) {
      await page.goto(`${base}/markets/${MARKET}/products/kestrelune-models${query}`);
      await expect.poll(() => page.getByTestId("product-name").textContent()).toBe("Kestrelune Models API");
      await expectFits(page, `${screenshot}-overview`);
      await page.goto(`${base}/markets/${MARKET}/products/kestrelune-models/innovation${query}`);
      await expect
        .poll(() => page.locator('[data-testid="contributions-innovation"] svg [data-mark="contribution"]').count(), {
          timeout: 20_000,
        })
        .toBeGreaterThan(0);
      await expectFits(page, screenshot);
    }
  });

  it("fits the geographies", async () => {
    await page.goto(`${base}/geographies`);
    await expectFits(page, "geographies");
  });

  it("fits the tokens page with a new secret and the list, and the credits page with a ledger", async () => {
    await page.goto(`${base}/tokens`);
    await page.getByLabel("Name", { exact: true }).fill("a phone's token with a rather long name");
    await page.getByRole("button", { name: "Create token" }).click();
    const secret = await page.getByTestId("new-token-secret").inputValue();
    expect(secret).toMatch(/^mps_/);
    await expect.poll(() => page.getByTestId("token-row").count()).toBe(1);
    await expectFits(page, "tokens");
    // Two paid calls, so the ledger holds debits with an operation, a token and a request id.
    for (const reading of ["delta?country=FR", "snapshot"]) {
      const response = await fetch(`${base}/v1/markets/${MARKET}/${reading}`, {
        headers: { Authorization: `Bearer ${secret}` },
      });
      expect(response.status).toBe(200);
    }
    await page.goto(`${base}/credits`);
    await expect.poll(() => page.locator('[data-testid="ledger-row"][data-kind="debit"]').count()).toBe(2);
    await expect.poll(() => page.locator('[data-testid="usage-chart"] svg').count()).toBeGreaterThan(0);
    await expectFits(page, "credits");
  });

  it("fits an MCP client's consent page and /connect with the connection", async () => {
    const redirect = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
    const { metadata, resource, scope } = await discover(base);
    const client = await register(metadata, {
      client_name: "A phone-friendly MCP client with a long name",
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none",
    });
    expect(client.status).toBe(201);
    const { challenge } = pkcePair();
    await page.goto(
      authorizeUrl(metadata, { clientId: client.body.client_id, redirectUri: redirect, scope, resource, challenge }),
    );
    await page.waitForURL(/\/oauth\/interaction\/[\w-]+$/);
    await expect.poll(() => page.getByRole("button", { name: "Allow" }).count()).toBe(1);
    await expectFits(page, "consent");
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL((url) => url.href.startsWith(redirect), { timeout: 30_000 });
    await page.goto(`${base}/connect`);
    // The owner's own list and the organization's both hold it, and both fit.
    await expect.poll(() => page.getByTestId("connection-row").count()).toBe(2);
    await expectFits(page, "connect");
  });

  it("fits notifications and their settings", async () => {
    await page.goto(`${base}/notifications`);
    await expectFits(page, "notifications-empty");
    await page.goto(`${base}/notifications/settings`);
    await expect.poll(() => page.locator('[data-testid="followed-markets"] li').count()).toBe(1);
    await expectFits(page, "notification-settings");
    // Someone with a notification: the follower of the browser suite's fixture market, read only.
    const follower = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT } });
    await follower.addCookies([{ name: SESSION_COOKIE, value: accounts.follower.session, url: base }]);
    const theirs = await follower.newPage();
    await theirs.goto(`${base}/notifications`);
    await expect.poll(() => theirs.getByTestId("notification").count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expectFits(theirs, "notifications");
    await follower.close();
  });

  it("fits a second organization's onboarding and the header's organization switcher", async () => {
    await page.goto(`${base}/onboarding?returnTo=%2Fcredits`);
    await expectFits(page, "onboarding-second");
    await page.getByLabel("Organization name").fill("Second Organization With A Long Name GmbH");
    await page.getByTestId("home-country").selectOption("DE");
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.waitForURL(`${base}/credits`);
    await expect.poll(() => page.getByTestId("organization-switcher").count()).toBe(1);
    await expectFits(page, "credits-second-organization");
  });

  it("fits the owner's identity provider page: settings, the domain's TXT record, the MCP section", async () => {
    await page.goto(`${base}/identity-provider`);
    await page.getByLabel("Issuer").fill("https://login.a-rather-long-identity-provider-name.example.com");
    await page.getByLabel("E-mail domains (one a line)").fill("phone-layout-organization.example");
    await page.getByRole("button", { name: "Save identity provider" }).click();
    await expect.poll(() => page.getByTestId("idp-saved").count()).toBe(1);
    await expect.poll(() => page.getByTestId("id-jag-facts").count()).toBe(1);
    await expectFits(page, "identity-provider");
  });

  it("fits the error codes and the not-found pages", async () => {
    await page.goto(`${base}/docs/errors`);
    await expectFits(page, "errors");
    await page.goto(`${base}/markets`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Markets");
    await expectFits(page, "markets-list");
    await page.goto(`${base}/no-such-page`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Page not found");
    await expectFits(page, "not-found");
    await page.goto(`${base}/markets/no-such-market`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("No such market or release");
    await expectFits(page, "market-not-found");
  });
});
