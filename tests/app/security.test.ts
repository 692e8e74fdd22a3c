/**
 * Security properties of the running app that no feature suite owns: the headers of pages (CSP
 * with a per-response nonce on every script, no framing, nosniff, HSTS only behind TLS), no
 * X-Powered-By anywhere, and no secret — API token, session, bearer value — in the app's log.
 * docs/security.md maps the OWASP API Security Top 10 to these and the other suites' tests.
 */
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { fixtureSecrets, SESSION_COOKIE } from "../helpers/accounts";

const base = inject("appUrl");
const accounts = inject("accounts");
const logFile = inject("appLogFile");

const PAGES = ["/", "/signin", "/onboarding"];

async function page(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    headers: { Cookie: `${SESSION_COOKIE}=${accounts.reader.session}`, ...headers },
    redirect: "manual",
  });
  return { response, html: await response.text() };
}

describe("page security headers", () => {
  it.each(PAGES)("%s: a nonce policy that every script carries, and no framing", async (path) => {
    const { response, html } = await page(path);
    const policy = response.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
    expect(nonce).toBeDefined();
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'(;|$)/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    if (response.status === 200) {
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    }
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("uses a fresh nonce for every response", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const { response } = await page("/");
      nonces.add(/'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? "");
    }
    expect(nonces.size).toBe(5);
  });

  it("sends HSTS only when the request came over TLS", async () => {
    const { response } = await page("/", { "X-Forwarded-Proto": "https" });
    expect(response.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    const plain = await page("/", { "X-Forwarded-Proto": "http" });
    expect(plain.response.headers.get("strict-transport-security")).toBeNull();
  });

  it("never says what it runs on", async () => {
    const paths = [
      "/",
      "/signin",
      "/v1/markets",
      "/v1/openapi.json",
      "/v1/%ZZ",
      "/mcp",
      "/api/health",
      "/docs/api",
      "/docs/errors",
      "/.well-known/oauth-authorization-server",
      "/no-such-page",
    ];
    for (const path of paths) {
      const response = await fetch(`${base}${path}`, { redirect: "manual" });
      await response.arrayBuffer();
      expect(response.headers.get("x-powered-by"), path).toBeNull();
      expect(response.status, path).toBeLessThan(500);
    }
  });
});

describe("secrets in the log", () => {
  it("never writes a token, a session or a bearer value, even for refused calls", async () => {
    const forged = `mps_${"A".repeat(43)}`;
    const calls: [string, Record<string, string>][] = [
      ["/v1/markets/foundation-model-apis/snapshot", { Authorization: `Bearer ${accounts.reader.token}` }],
      ["/v1/markets/foundation-model-apis/snapshot", { Authorization: `Bearer ${accounts.tokens.revoked}` }],
      ["/v1/markets/foundation-model-apis/snapshot", { Authorization: `Bearer ${forged}` }],
      ["/v1/markets/no-such/delta?toString=1", { Authorization: `Bearer ${accounts.reader.token}` }],
      ["/v1/%ZZ", { Authorization: `Bearer ${accounts.reader.token}` }],
      ["/mcp", { Authorization: `Bearer ${accounts.reader.token}` }],
      ["/api/trpc/credits.summary", { Cookie: `${SESSION_COOKIE}=${accounts.reader.session}` }],
      ["/api/trpc/credits.summary", { Cookie: `${SESSION_COOKIE}=${accounts.expiredSession}` }],
    ];
    for (const [path, headers] of calls) await (await fetch(`${base}${path}`, { headers })).arrayBuffer();
    const log = readFileSync(logFile, "utf8");
    expect(log.length).toBeGreaterThan(0);
    const secrets = [forged, ...fixtureSecrets(accounts), String(accounts.signingKey.d)];
    for (const secret of secrets)
      expect(log.includes(secret), `a secret (${secret.slice(0, 8)}…) is in the log`).toBe(false);
    // Not even a recognisable piece of one: the part after the prefix.
    for (const secret of secrets.filter((s) => s.startsWith("mps_")))
      expect(log.includes(secret.slice(4, 24))).toBe(false);
  });
});
