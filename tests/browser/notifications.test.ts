/**
 * Following a market in Chromium: the follower of the formula-names market (prepared before the
 * app started, then a release of it published) sees the bell's unread count, reads and marks the
 * notification, opens each notification e-mail's HTML part in the dev outbox and follows every
 * link in it — market page, comparison, settings, and the one-click unsubscribe, which works in a
 * browser that is not signed in.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SESSION_COOKIE } from "../helpers/accounts";
import { launchChromium } from "../helpers/browser";

const base = inject("appUrl");
const { follower } = inject("accounts");

describe("following a market", () => {
  let browser: Browser;
  let signedIn: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    signedIn = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // E-mail links name the app as localhost (APP_URL unset); the suite reaches it at 127.0.0.1.
    const local = new URL(base);
    local.hostname = "localhost";
    await signedIn.addCookies(
      [base, local.origin].map((url) => ({ name: SESSION_COOKIE, value: follower.session, url })),
    );
    page = await signedIn.newPage();
  });
  afterAll(() => browser?.close());

  it("shows the release in the bell and on /notifications, links to what changed, and marks it read", async () => {
    // The app's first fan-out runs just after it starts: poll the header until it counts it.
    await expect
      .poll(async () => {
        await page.goto(`${base}/`);
        return page
          .getByTestId("unread-count")
          .textContent({ timeout: 1000 })
          .catch(() => null);
      })
      .toBe("1");
    await page.getByTestId("notification-bell").click();
    await page.waitForURL(/\/notifications$/);
    const item = page.getByTestId("notification");
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.textContent()).toContain("Release 2 of Formula names was published.");
    expect(await item.getAttribute("data-read")).toBe("false");

    await item.getByRole("link", { name: "What changed" }).click();
    await page.waitForURL(/\/markets\/formula-names\/changes\?from=1&to=2#changes$/);
    await expect.poll(() => page.locator("#changes").isVisible()).toBe(true);

    await page.goto(`${base}/notifications`);
    await page.getByTestId("mark-all-read").click();
    await expect.poll(() => page.getByTestId("notification").getAttribute("data-read")).toBe("true");
    await expect.poll(() => page.getByTestId("unread-count").count()).toBe(0);
    expect(await page.getByTestId("notification-bell").getAttribute("aria-label")).toBe("Notifications: 0 unread");
  });

  it("follows and unfollows from the market page, and lists what is followed in the settings", async () => {
    await page.goto(`${base}/markets/foundation-model-apis`);
    const button = page.getByTestId("follow-button");
    expect(await button.getAttribute("aria-pressed")).toBe("false");
    await button.click();
    await expect.poll(() => button.getAttribute("aria-pressed")).toBe("true");
    await page.goto(`${base}/notifications/settings`);
    const followed = page.getByTestId("followed-markets").locator("li");
    await expect.poll(() => followed.count()).toBe(2);
    await page.locator('[data-market-id="foundation-model-apis"]').getByTestId("unfollow").click();
    await expect.poll(() => followed.count()).toBe(1);
    expect(await followed.first().getAttribute("data-market-id")).toBe("formula-names");
  });

  it("opens each notification e-mail's HTML and follows every link in it", async () => {
    const email = (await page.locator(".site-header .who").textContent())?.trim() as string;
    // This recipient's mail only: the suite's other sign-ins would push it past the page's newest 20.
    await page.goto(`${base}/dev/outbox?to=${encodeURIComponent(email)}`);
    const parts = page.locator(`[data-recipient="${email}"] [data-testid="outbox-html"]`);
    // The release e-mail and the weekly note, both sent by background jobs.
    await expect.poll(() => parts.count(), { timeout: 20_000 }).toBe(2);
    const mails = await parts.evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    const seen: string[] = [];
    const unsubscribeLinks: string[] = [];
    for (const mail of mails) {
      await page.goto(mail);
      const hrefs = await page.locator("a").evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
      expect(hrefs.length).toBeGreaterThanOrEqual(2);
      for (let i = 0; i < hrefs.length; i++) {
        const href = hrefs[i] as string;
        // Links point at this deployment (APP_URL unset: localhost on its port).
        const here = new URL(href);
        expect(here.origin).toBe(`http://localhost:${new URL(base).port}`);
        await page.goto(mail);
        await page.locator("a").nth(i).click();
        await page.waitForURL((url) => url.pathname === here.pathname);
        seen.push(here.pathname);
        // A page streams in after its loading skeleton: wait for its own heading.
        const heading = () => page.locator("h1:not(.skeleton-line)").first().textContent();
        if (here.pathname.startsWith("/markets/")) await expect.poll(heading).toBe("Formula names");
        if (here.pathname === "/notifications/settings") await expect.poll(heading).toBe("Notification settings");
        if (here.pathname === "/unsubscribe") {
          await expect.poll(heading).toBe("Unsubscribe");
          unsubscribeLinks.push(href);
        }
      }
    }
    // No session in either case: a browser that never signed in presses the button; a mail client
    // makes RFC 8058's one-click POST.
    const [first, second] = unsubscribeLinks as [string, string];
    const stranger = await browser.newContext();
    const anonymous = await stranger.newPage();
    await anonymous.goto(first);
    await anonymous.getByTestId("unsubscribe").click();
    await expect.poll(() => anonymous.locator("h1").textContent()).toBe("Unsubscribed");
    await stranger.close();
    const oneClick = await fetch(second.replace("//localhost:", "//127.0.0.1:"), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain("You will no longer receive");
    // A token whose signature changed by one character is refused.
    const link = second.replace("//localhost:", "//127.0.0.1:");
    const at = link.length - 10;
    const forged = `${link.slice(0, at)}${link[at] === "A" ? "B" : "A"}${link.slice(at + 1)}`;
    const refused = await fetch(forged, { method: "POST" });
    expect(refused.status).toBe(400);
    expect(seen.filter((p) => p === "/unsubscribe")).toHaveLength(2);
    expect(seen).toContain("/markets/formula-names");
    expect(seen).toContain("/notifications/settings");

    // Both lists are off now: the settings say so.
    await page.goto(`${base}/notifications/settings`);
    await expect.poll(() => page.getByTestId("preference-releaseEmails").isChecked()).toBe(false);
    expect(await page.getByTestId("preference-weeklySummary").isChecked()).toBe(false);
  });
});
