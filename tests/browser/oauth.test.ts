/**
 * Connecting an MCP client as a person does it, in Chromium: the client opens the authorization
 * URL, the person signs in, learns an organization is needed, creates one and comes back to the
 * consent page, allows; the client gets its code. Then the Connect page lists the connection and
 * revokes it, and the client's token stops working.
 */
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium, signInHere } from "../helpers/browser";
import { authorizeUrl, discover, pkcePair, postMcp, register, tokenRequest } from "../helpers/oauth";

const base = inject("appUrl");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");

const toolsList = async (token: string) => (await postMcp(base, token)).status;

describe("connecting an MCP client, in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => browser?.close());

  it("signs in, creates the organization from the consent page, allows, and revokes on /connect", async () => {
    // The client's loopback listener, as native MCP clients run one: the browser ends there.
    let callback: URL | null = null;
    // Only the callback counts: Chromium also asks the listener for /favicon.ico once the page loads.
    const listener = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (url.pathname === "/callback") callback = url;
      response.end("You can close this window.");
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const REDIRECT = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
    const { metadata, resource, scope } = await discover(base);
    const client = await register(metadata, {
      client_name: "Browser MCP client",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
    });
    expect(client.status).toBe(201);
    const { verifier, challenge } = pkcePair();

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();

    await page.goto(
      authorizeUrl(metadata, { clientId: client.body.client_id, redirectUri: REDIRECT, scope, resource, challenge }),
    );
    await page.waitForURL(/\/signin\?callbackUrl=%2Foauth%2Finteraction%2F/);
    const email = `connect-${Date.now()}@example.com`;
    await signInHere(page, email);
    await page.waitForURL(/\/oauth\/interaction\/[\w-]+$/);
    const consentUrl = page.url();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Connect Browser MCP client?");
    await expect.poll(() => page.getByRole("note").textContent()).toContain("An organization is needed for data");
    await page.screenshot({ path: path.join(SCREENSHOTS, "oauth-consent-no-organization.png"), fullPage: true });

    await page.getByRole("link", { name: "Create an organization first" }).click();
    await page.waitForURL(/\/onboarding\?returnTo=%2Foauth%2Finteraction%2F/);
    await page.getByLabel("Organization name").fill("Connected Ltd");
    await page.getByTestId("home-country").selectOption("GB");
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.waitForURL(consentUrl);
    await expect.poll(() => page.locator("main").textContent()).toContain("Calls are billed to Connected Ltd");
    await page.screenshot({ path: path.join(SCREENSHOTS, "oauth-consent.png"), fullPage: true });

    await page.getByRole("button", { name: "Allow" }).click();
    // The browser ends at the client's listener; on failure Playwright names where it stopped.
    await page.waitForURL((url) => url.href.startsWith(REDIRECT), { timeout: 30_000 });
    await expect.poll(() => (callback as URL | null)?.href ?? null, { timeout: 10_000 }).not.toBeNull();
    const code = (callback as URL | null)?.searchParams.get("code") as string;
    expect(code, `the client's callback was ${(callback as URL | null)?.href}`).toBeTruthy();
    const tokens = await tokenRequest(metadata, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: client.body.client_id,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
    expect(await toolsList(tokens.body.access_token)).toBe(200);

    await page.goto(`${base}/connect`);
    // The person's own list, and (an owner manages them all) the organization's, naming who it acts as.
    const row = page.getByRole("region", { name: "Your connected clients" }).getByTestId("connection-row");
    const everyone = page
      .getByRole("region", { name: "Everyone's connections in this organization" })
      .getByTestId("connection-row");
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("Browser MCP client");
    expect(await row.textContent()).toContain("Market data");
    expect(await everyone.count()).toBe(1);
    expect(await everyone.textContent()).toContain(email);
    await page.screenshot({ path: path.join(SCREENSHOTS, "connect-connections.png"), fullPage: true });
    page.once("dialog", (dialog) => dialog.accept());
    await row.getByRole("button", { name: /^Revoke/ }).click();
    await expect.poll(() => row.count()).toBe(0);
    await expect.poll(() => everyone.count()).toBe(0);
    expect(await toolsList(tokens.body.access_token)).toBe(401);

    // The audit trail of the organization it acted for: connected, then revoked, by this person.
    await page.goto(`${base}/audit`);
    const connected = page.locator('[data-testid="audit-row"][data-action="connection.create"]');
    const revoked = page.locator('[data-testid="audit-row"][data-action="connection.revoke"]');
    await expect.poll(() => connected.count()).toBe(1);
    expect(await revoked.count()).toBe(1);
    expect(await connected.textContent()).toContain(client.body.client_id);
    await context.close();
    listener.close();
  });
});
