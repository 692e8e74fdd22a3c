/**
 * Dashboard sign-in through an organization's own identity provider, in Chromium, against an app
 * of this file's own (IDP_ALLOW_PRIVATE_HOSTS=1 for the loopback IdP, DNS_SERVERS at the tests' DNS
 * server for the TXT record) and a real IdP (oidc-provider, tests/helpers/test-idp.ts). The owner
 * sets the IdP on /identity-provider, publishes the TXT record the page shows and verifies it; a
 * person of the domain types their address on /signin, is sent to the IdP, and lands in the
 * dashboard as a member with the default role; revoked at the IdP, their next dashboard request
 * removes and signs them out. With required SSO, no e-mail link goes out — not
 * from the page, not from next-auth's own endpoint — and the page says to use the company sign-in.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organization, SESSION_COOKIE } from "../helpers/accounts";
import { launchChromium } from "../helpers/browser";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server";
import { type OwnApp, startOwnApp } from "../helpers/own-app";
import { rawExchange } from "../helpers/raw-http";
import { startTestIdp, type TestIdp } from "../helpers/test-idp";
import { SCREENSHOTS } from "../helpers/views";

const DOMAIN = "acme-sso.example";
const ORGANIZATION = "Acme <b>SSO</b> & Co";

let app: OwnApp<{ organizationId: string; session: string }>;
let idp: TestIdp;
let dns: TestDnsServer;
let browser: Browser;
let owner: BrowserContext;

beforeAll(async () => {
  dns = await startDnsServer({ TXT: {} });
  idp = await startTestIdp();
  // A recheck at the IdP on every request a second after the last: de-provisioning shows at once.
  const env = { IDP_ALLOW_PRIVATE_HOSTS: "1", DNS_SERVERS: dns.address, SSO_RECHECK_SECONDS: "1" };
  app = await startOwnApp(env, async (db) => {
    const org = await organization(db, ORGANIZATION, { credits: 100 });
    return { organizationId: org.id, session: org.session };
  });
  idp.addClient({
    clientId: "dashboard",
    clientSecret: "dashboard-secret",
    redirectUris: [`${app.url}/api/auth/sso/callback`],
  });
  browser = await launchChromium();
  owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await owner.addCookies([{ name: SESSION_COOKIE, value: app.prepared.session, url: app.url }]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await idp?.close();
  await dns?.close();
});

describe("sign-in through the organization's identity provider", () => {
  it("the owner sets the IdP, publishes the TXT record the page shows and verifies the domain", async () => {
    const page = await owner.newPage();
    await page.goto(`${app.url}/members`);
    await page.getByText("Account", { exact: true }).click();
    await page.getByTestId("identity-provider-link").click();
    await page.waitForURL(/\/identity-provider$/);
    await page.getByLabel("Issuer").fill(idp.issuer);
    await page.getByLabel("Client ID").fill("dashboard");
    await page.getByLabel("Client secret").fill("dashboard-secret");
    await page.getByLabel("E-mail domains (one a line)").fill(DOMAIN);
    await page.getByRole("button", { name: "Save identity provider" }).click();
    await expect.poll(() => page.getByTestId("idp-saved").textContent()).toContain(idp.issuer);
    expect(await page.getByTestId("redirect-uri").textContent()).toBe(`${app.url}/api/auth/sso/callback`);
    const row = page.locator(`[data-testid="domain-row"][data-domain="${DOMAIN}"]`);
    await expect.poll(() => row.getByTestId("domain-state").textContent()).toBe("Not verified");
    const value = (await row.getByTestId("txt-value").textContent()) ?? "";
    expect(value).toMatch(/^market-positioning-verification=/);
    // Before the record is published, Verify says why not.
    await row.getByRole("button", { name: `Verify ${DOMAIN}` }).click();
    await expect.poll(() => page.locator("p.error").first().textContent()).toContain("Not verified");
    dns.records.TXT = { [`_market-positioning.${DOMAIN}`]: [value] };
    await row.getByRole("button", { name: `Verify ${DOMAIN}` }).click();
    await expect.poll(() => row.getByTestId("domain-state").textContent()).toMatch(/^Verified \d{4}-\d\d-\d\d$/);
    expect(dns.asked).toContain(`TXT _market-positioning.${DOMAIN}`);
    // The page as an owner finds it: fresh, at the top, menus closed; axe's WCAG 2.2 AA check.
    await page.goto(`${app.url}/identity-provider`);
    await expect.poll(() => page.getByTestId("domain-state").first().textContent()).toMatch(/^Verified/);
    // What the IdP needs for MCP clients' ID-JAGs, and the keys they are checked with.
    const facts = (await page.getByTestId("id-jag-facts").textContent()) ?? "";
    expect(facts).toContain(`${app.url}/oauth/token`);
    expect(facts).toContain(`${app.url}/mcp`);
    expect(facts).toContain("urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(await page.getByTestId("id-jag-keys").textContent()).toMatch(/keys your issuer publishes/);
    const { violations } = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, "identity-provider-1280.png"), fullPage: true });
    await page.close();
  });

  it("a person of the domain signs in at the IdP and lands in the organization with the default role", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    idp.signInAs({ id: "pat-1", email: `pat@${DOMAIN}` });
    await page.goto(`${app.url}/signin?callbackUrl=${encodeURIComponent("/members")}`);
    await page.getByLabel("E-mail address").fill(`pat@${DOMAIN}`);
    await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await expect.poll(() => page.getByTestId("company-sign-in").textContent()).toContain(DOMAIN);
    await page.getByRole("button", { name: "Continue with company sign-in" }).click();
    await page.waitForURL(`${app.url}/members`);
    await expect.poll(() => page.getByTestId("member-row").count(), { timeout: 20_000 }).toBe(2);
    const me = page.getByTestId("member-row").filter({ hasText: `pat@${DOMAIN}` });
    expect(await me.locator('[data-label="Role"]').textContent()).toBe("member");
    expect(await page.getByTestId("organization-name").textContent()).toBe(ORGANIZATION);
    // A member is not offered the owner's page.
    await page.getByText("Account", { exact: true }).click();
    expect(await page.getByTestId("identity-provider-link").count()).toBe(0);
    // Gone at the IdP: their next dashboard request finds out, removes them and signs them out.
    await idp.revoke("pat-1");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await page.goto(`${app.url}/members`);
    await page.waitForURL(/\/signin\?callbackUrl=/);
    const ownerView = await owner.newPage();
    await ownerView.goto(`${app.url}/members`);
    await expect.poll(() => ownerView.getByTestId("member-row").count(), { timeout: 20_000 }).toBe(1);
    await ownerView.goto(`${app.url}/audit`);
    await expect.poll(() => ownerView.getByText("member.sso_deprovision").count()).toBeGreaterThan(0);
    await ownerView.close();
    await context.close();
  });

  it("with required SSO no e-mail link goes out and the page says to use the company sign-in", async () => {
    // Before it is required, a person of the domain may still ask for a link instead.
    const early = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const earlyPage = await early.newPage();
    const rita = `rita@${DOMAIN}`;
    await earlyPage.goto(`${app.url}/signin`);
    await earlyPage.getByLabel("E-mail address").fill(rita);
    await earlyPage.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await expect.poll(() => earlyPage.getByTestId("company-sign-in").count()).toBe(1);
    await earlyPage.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await earlyPage.waitForURL(/\/signin\/check-email/);

    const page = await owner.newPage();
    await page.goto(`${app.url}/identity-provider`);
    await expect.poll(() => page.getByLabel("Issuer").inputValue()).toBe(idp.issuer);
    await page.getByLabel(/^Require it/).check();
    await page.getByRole("button", { name: "Save identity provider" }).click();
    await expect.poll(() => page.getByTestId("idp-saved").count()).toBe(1);
    await page.close();

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const visitor = await context.newPage();
    const quinn = `quinn@${DOMAIN}`;
    await visitor.goto(`${app.url}/signin`);
    await visitor.getByLabel("E-mail address").fill(quinn);
    await visitor.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await expect.poll(() => visitor.getByTestId("company-sign-in").textContent()).toContain("requires it");
    expect(await visitor.getByRole("button", { name: "E-mail me a sign-in link" }).count()).toBe(0);
    // next-auth's own endpoint, asked directly, sends nothing either.
    const csrf = (await (await visitor.request.get(`${app.url}/api/auth/csrf`)).json()) as { csrfToken: string };
    await visitor.request.post(`${app.url}/api/auth/signin/email`, {
      form: { email: quinn, csrfToken: csrf.csrfToken, callbackUrl: "/" },
      maxRedirects: 0,
    });
    // An address of another domain still gets its link: the outbox works, and has nothing for quinn.
    await visitor.goto(`${app.url}/signin`);
    await visitor.getByLabel("E-mail address").fill("someone@elsewhere.example");
    await visitor.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await visitor.waitForURL(/\/signin\/check-email/);
    await visitor.goto(`${app.url}/dev/outbox`);
    await expect.poll(() => visitor.locator('[data-recipient="someone@elsewhere.example"]').count()).toBeGreaterThan(0);
    expect(await visitor.locator(`[data-recipient="${quinn}"]`).count()).toBe(0);
    // The link Rita got before it was required no longer signs her in.
    await earlyPage.goto(`${app.url}/dev/outbox`);
    await earlyPage.locator(`[data-recipient="${rita}"] [data-testid="outbox-link"]`).first().click();
    await earlyPage.waitForURL(/\/signin\?/);
    expect(new URL(earlyPage.url()).searchParams.get("sso_error")).toBe("required");
    expect(await earlyPage.locator("p.error").textContent()).toContain("continue with your company sign-in");
    expect((await early.cookies()).some((c) => c.name === SESSION_COOKIE)).toBe(false);
    await early.close();
    // And the company sign-in still works for them.
    idp.signInAs({ id: "quinn-1", email: quinn });
    await visitor.goto(`${app.url}/signin?sso=${encodeURIComponent(quinn)}`);
    await visitor.getByRole("button", { name: "Continue with company sign-in" }).click();
    await visitor.waitForURL(`${app.url}/`);
    expect(await visitor.getByTestId("organization-name").textContent()).toBe(ORGANIZATION);
    await context.close();
  });

  it("a forged Host or X-Forwarded-Host at the app does not change the redirect URI the IdP is given", async () => {
    const port = new URL(app.url).port;
    const body = `email=${encodeURIComponent(`pat@${DOMAIN}`)}&callbackUrl=%2F`;
    for (const forged of ["Host: evil.example", `Host: 127.0.0.1:${port}\r\nX-Forwarded-Host: evil.example`]) {
      // The page that posts the form is on the app's own origin as the app decides it.
      const origin = forged.startsWith("Host: evil") ? `http://localhost:${port}` : app.url;
      const answer = await rawExchange(
        app.url,
        `POST /api/auth/sso/start HTTP/1.1\r\n${forged}\r\nOrigin: ${origin}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(answer.status).toBe(303);
      const location = new URL(answer.headers.get("location") ?? "");
      expect(location.origin).toBe(idp.issuer);
      const redirectUri = location.searchParams.get("redirect_uri") ?? "";
      expect(redirectUri).not.toContain("evil");
      expect(redirectUri).toBe(`${origin}/api/auth/sso/callback`);
    }
  });
});
