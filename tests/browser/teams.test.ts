/**
 * Organizations as teams in Chromium: an owner invites a colleague from /members; the colleague,
 * signed out, opens the invitation from the dev outbox, reads who invites them to what and signs in
 * right there, the address filled in (the sign-in link returns to the invitation), joins as a
 * member and lands on the members list, read-only; they create a token of their own and are
 * refused an invitation (403 forbidden). A forged link shows nothing of any invitation. The owner
 * makes them an admin (who is told, on /identity-provider, that only owners manage it), a member
 * again, then removes them: each change asked first and said after, in a live region. axe-core's WCAG 2.2
 * AA check of /members, as the owner and as the member, at 1280 px and at a phone's width.
 */
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SESSION_COOKIE } from "../helpers/accounts";
import { launchChromium, signUpOnTheWay } from "../helpers/browser";
import { dashboardCall } from "../helpers/dashboard";
import { SCREENSHOTS } from "../helpers/views";

const base = inject("appUrl");
const run = Date.now().toString(36);
const OWNER = `team-owner-${run}@example.com`;
const INVITEE = `team-member-${run}@example.com`;
const ORGANIZATION = `Team <b>${run}</b> & Co`;
const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

async function expectMembersAccessible(page: Page, who: string) {
  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport);
    await page.goto(`${base}/members`);
    await expect.poll(() => page.getByTestId("member-row").count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await seriousViolations(page), `/members as ${who} at ${viewport.width} px`).toEqual([]);
  }
  await page.setViewportSize(WIDTHS[0]);
}

describe("a team in the dashboard", () => {
  let browser: Browser;
  let owner: BrowserContext;
  let invitee: BrowserContext;
  beforeAll(async () => {
    browser = await launchChromium();
    owner = await browser.newContext({ viewport: WIDTHS[0] });
    invitee = await browser.newContext({ viewport: WIDTHS[0] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("an owner invites by e-mail; the invitation is pending", async () => {
    const page = await owner.newPage();
    page.on("dialog", (dialog) => dialog.accept());
    await signUpOnTheWay(page, `${base}/members`, { email: OWNER, organization: ORGANIZATION, homeCountry: "DE" });
    await expect.poll(() => page.getByTestId("member-row").count(), { timeout: 20_000 }).toBe(1);
    await page.getByLabel("E-mail", { exact: true }).fill(INVITEE.toUpperCase());
    // The select's accessible name carries its chosen option ("Role member"): found by its form instead.
    await page.locator('section[aria-labelledby="invite"] select').selectOption("member");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect.poll(() => page.getByTestId("invitation-sent").textContent()).toContain(INVITEE);
    await expect.poll(() => page.getByTestId("invitation-row").count()).toBe(1);
    expect(await page.getByTestId("invitation-row").textContent()).toContain("member");
    await expectMembersAccessible(page, "owner");
  });

  it("the invitee signs in from the mail, accepts, and acts within the role only", async () => {
    const page = await invitee.newPage();
    page.on("dialog", (dialog) => dialog.accept());
    await page.goto(`${base}/dev/outbox`);
    const mail = page.locator(`[data-recipient="${INVITEE}"]`).first();
    expect(await mail.textContent()).toContain("You are invited to an organization");
    await mail.getByTestId("outbox-link").click();
    // Signed out: the invitation says who invites whom to what, and signs them in right there with
    // the invited address filled in; the sign-in link comes back to the invitation.
    await page.waitForURL(/\/invitations\/[\w-]+$/);
    const invitation = page.url();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(`Join ${ORGANIZATION}`);
    const summary = (await page.getByTestId("invitation-summary").textContent()) ?? "";
    expect(summary).toContain(`${OWNER} invited ${INVITEE} to join ${ORGANIZATION} as member`);
    expect(await page.locator("main b").count()).toBe(0); // the organization's name is text
    expect(await page.getByLabel("E-mail address").inputValue()).toBe(INVITEE);
    for (const viewport of WIDTHS) {
      await page.setViewportSize(viewport);
      await page.screenshot({
        path: path.join(SCREENSHOTS, `invitation-signed-out-${viewport.width}.png`),
        fullPage: true,
      });
      expect(await seriousViolations(page), `the signed-out invitation at ${viewport.width} px`).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `the signed-out invitation at ${viewport.width} px`).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize(WIDTHS[0]);
    await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await page.waitForURL(/\/signin\/check-email/);
    await page.getByRole("link", { name: "dev outbox" }).click();
    await page.locator(`[data-recipient="${INVITEE}"] [data-testid="outbox-link"]`).first().click();
    await page.waitForURL(invitation);
    // The organization's name is shown as text, never as markup.
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(`Join ${ORGANIZATION}`);
    expect(await page.getByTestId("invitation-summary").textContent()).toContain("as member");
    // The acceptance page at both widths, as the members page.
    for (const viewport of WIDTHS) {
      await page.setViewportSize(viewport);
      expect(await seriousViolations(page), `the invitation at ${viewport.width} px`).toEqual([]);
    }
    await page.setViewportSize(WIDTHS[0]);
    await page.getByRole("button", { name: `Join ${ORGANIZATION}` }).click();
    await page.waitForURL(/\/members$/);
    await expect.poll(() => page.getByTestId("member-row").count(), { timeout: 20_000 }).toBe(2);
    expect(await page.getByTestId("members-read-only").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Send invitation" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Remove/ }).count()).toBe(0);
    // The header's navigation offers a member the pages of their role only.
    const headerLinks = (href: string) => page.locator(`header.site-header nav a[href="${href}"]`).count();
    expect(await headerLinks("/tokens")).toBeGreaterThan(0);
    expect([await headerLinks("/credits"), await headerLinks("/webhooks")]).toEqual([0, 0]);
    // Members is in the Account menu, named after the organization.
    await page.locator(".site-header .user-menu summary").click();
    expect(await page.getByTestId("members-link").textContent()).toBe(`Members of ${ORGANIZATION}`);

    // Within the role: a token of their own.
    await page.goto(`${base}/tokens`);
    await page.getByLabel("Name", { exact: true }).fill("mine");
    await page.getByRole("button", { name: "Create token" }).click();
    const secretField = page.getByTestId("new-token-secret");
    await secretField.waitFor();
    // The member's token reads the organization, its two people among it.
    const organization = await fetch(`${base}/v1/organization`, {
      headers: { Authorization: `Bearer ${await secretField.inputValue()}` },
    });
    expect(organization.status).toBe(200);
    const { members } = (await organization.json()) as { members: { email: string; role: string }[] };
    expect(members.map((m) => [m.email, m.role])).toEqual([
      [OWNER, "owner"],
      [INVITEE, "member"],
    ]);

    // Outside it: inviting is refused by the server too, whatever the page shows.
    const session = (await invitee.cookies()).find((c) => c.name === SESSION_COOKIE)?.value ?? null;
    const refused = await dashboardCall(
      base,
      session,
      "members.invite",
      { email: "someone@example.com", role: "member" },
      { mutation: true },
    );
    expect([refused.status, refused.problem?.code]).toEqual([403, "forbidden"]);

    // Used once: the same link now says so.
    await page.goto(`${base}/dev/outbox`);
    await page.locator(`[data-recipient="${INVITEE}"] [data-testid="outbox-link"]`).last().click();
    await expect.poll(() => page.getByTestId("invitation-unusable").count()).toBe(1);

    await expectMembersAccessible(page, "member");
  });

  it("the owner sees the new member and no pending invitation", async () => {
    const page = await owner.newPage();
    await page.goto(`${base}/members`);
    await expect.poll(() => page.getByTestId("member-row").count(), { timeout: 20_000 }).toBe(2);
    expect(await page.getByTestId("invitation-row").count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Transfer ownership/ }).count()).toBe(1);
    await page.screenshot({ path: path.join(SCREENSHOTS, "members-owner.png"), fullPage: true });
  });

  it("a link that is not valid, signed out, says only that: no invitation's details, no address", async () => {
    const stranger = await browser.newContext({ viewport: WIDTHS[1] });
    const page = await stranger.newPage();
    for (const token of ["forged-token", "x".repeat(128), "%3Cb%3Ehi%3C%2Fb%3E"]) {
      await page.goto(`${base}/invitations/${token}`);
      await expect.poll(() => page.getByTestId("invitation-unusable").count()).toBe(1);
      expect(await page.getByLabel("E-mail address").count()).toBe(0);
      const text = (await page.locator("main").textContent()) ?? "";
      for (const leaked of [ORGANIZATION, OWNER, INVITEE]) expect(text).not.toContain(leaked);
      expect(await page.locator("main b").count()).toBe(0);
    }
    await stranger.close();
  });

  it("the owner changes the member's role and removes them: each asked first, then said; the admin is told only owners manage SSO", async () => {
    const page = await owner.newPage();
    const asked: string[] = [];
    let answer = true;
    page.on("dialog", (dialog) => {
      asked.push(dialog.message());
      void (answer ? dialog.accept() : dialog.dismiss());
    });
    await page.goto(`${base}/members`);
    const row = page.locator('[data-testid="member-row"]', { hasText: INVITEE });
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    // Handing ownership over is offered, as a secondary button: never the row's main action.
    const transfer = row.getByRole("button", { name: /^Transfer ownership/ });
    expect(await transfer.getAttribute("class")).toContain("secondary");
    const done = page.getByTestId("member-change-done");
    expect(await done.getAttribute("role")).toBe("status");
    expect(await done.getAttribute("aria-live")).toBe("polite");

    await row.locator("select").selectOption("admin");
    await row.getByRole("button", { name: /^Change role/ }).click();
    await expect.poll(() => done.textContent(), { timeout: 20_000 }).toBe(`${INVITEE} is now an admin.`);
    expect(asked.at(-1)).toMatch(new RegExp(`^Make ${INVITEE} admin\\?`));
    await page.screenshot({ path: path.join(SCREENSHOTS, "members-role-changed-1280.png"), fullPage: true });

    // The admin opens the identity provider page: told why not, on the page, not sent elsewhere.
    const admin = await invitee.newPage();
    for (const viewport of WIDTHS) {
      await admin.setViewportSize(viewport);
      await admin.goto(`${base}/identity-provider`);
      const refusal = admin.getByTestId("identity-provider-owners-only");
      await expect.poll(() => refusal.count()).toBe(1);
      expect(new URL(admin.url()).pathname).toBe("/identity-provider");
      expect(await refusal.textContent()).toContain(`Only owners of ${ORGANIZATION} can manage its identity provider`);
      expect(await refusal.textContent()).toContain("You are an admin here.");
      expect(await admin.getByRole("link", { name: "Members" }).last().getAttribute("href")).toBe("/members");
      expect(await admin.getByLabel("Issuer").count()).toBe(0);
      expect(await seriousViolations(admin), `/identity-provider as an admin at ${viewport.width} px`).toEqual([]);
      await admin.screenshot({
        path: path.join(SCREENSHOTS, `identity-provider-admin-${viewport.width}.png`),
        fullPage: true,
      });
    }
    await admin.close();

    // At a phone's width: back to member, then removal, which asks first; "no" keeps them.
    await page.setViewportSize(WIDTHS[1]);
    await row.locator("select").selectOption("member");
    await row.getByRole("button", { name: /^Change role/ }).click();
    await expect.poll(() => done.textContent(), { timeout: 20_000 }).toBe(`${INVITEE} is now a member.`);
    answer = false;
    await row.getByRole("button", { name: /^Remove/ }).click();
    expect(asked.at(-1)).toMatch(new RegExp(`^Remove ${INVITEE} from the organization\\?`));
    await page.waitForTimeout(500);
    expect(await page.getByTestId("member-row").count()).toBe(2);
    answer = true;
    await row.getByRole("button", { name: /^Remove/ }).click();
    await expect
      .poll(() => done.textContent(), { timeout: 20_000 })
      .toBe(`${INVITEE} was removed from ${ORGANIZATION}; their API tokens and MCP connections here are revoked.`);
    await expect.poll(() => page.getByTestId("member-row").count()).toBe(1);
    expect(await done.locator("b").count()).toBe(0); // the organization's name is text
    await page.screenshot({ path: path.join(SCREENSHOTS, "members-removed-390.png"), fullPage: true });
    await page.setViewportSize(WIDTHS[0]);
  });

  it("the owner renames the organization, then deletes it by typing its name; the member is left without it", async () => {
    const page = await owner.newPage();
    await page.goto(`${base}/members`);
    const renamed = `${ORGANIZATION} (renamed)`;
    const name = page.locator('section[aria-labelledby="organization-settings"]').getByLabel("Name");
    await expect.poll(() => name.inputValue(), { timeout: 20_000 }).toBe(ORGANIZATION);
    await name.fill(renamed);
    await page.getByRole("button", { name: "Save settings" }).click();
    // The page reloads with the new name, shown as text (the hostile name is never markup).
    await expect.poll(() => page.locator("main p strong").first().textContent(), { timeout: 20_000 }).toBe(renamed);
    const confirm = page.getByLabel("Organization name");
    const remove = page.getByRole("button", { name: "Delete organization" });
    await confirm.fill(ORGANIZATION);
    expect(await remove.isDisabled()).toBe(true); // the old name is not the name
    await confirm.fill(renamed);
    await remove.click();
    await page.waitForURL((url) => url.pathname === "/", { timeout: 20_000 });
    const member = await invitee.newPage();
    await member.goto(`${base}/members`);
    await member.waitForURL(/\/onboarding/, { timeout: 20_000 });
  });
});
