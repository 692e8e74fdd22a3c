/**
 * Security properties of the running app that no feature suite owns: the headers of pages (CSP
 * with a per-response nonce on every script, no framing, nosniff, HSTS only behind TLS) and of
 * every /v1 and /mcp answer, problem+json even for requests Node's HTTP parser refuses, no
 * X-Powered-By anywhere, and no secret — API token, session, bearer value — in the app's log.
 * docs/security.md maps the OWASP API Security Top 10 to these and the other suites' tests.
 */
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { fixtureSecrets, SESSION_COOKIE } from "../helpers/accounts";
import { outboxLinks, requestSignInLink } from "../helpers/logs";
import { rawExchange } from "../helpers/raw-http";

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

  it("sends HSTS only when the operator's origin is https: a client's own X-Forwarded-Proto does not count", async () => {
    // This app has no APP_URL and no TRUST_PROXY (tests/app/owasp/api6 checks a trusted proxy's https).
    const { response } = await page("/", { "X-Forwarded-Proto": "https" });
    expect(response.headers.get("strict-transport-security")).toBeNull();
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

/** The headers every /v1 and /mcp answer carries (server/2-http/security-headers.ts), over plain HTTP. */
function expectApiSecurityHeaders(headers: { get(name: string): string | null | undefined }, what: string) {
  expect(headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(headers.get("x-frame-options"), what).toBe("DENY");
  expect(headers.get("content-security-policy"), what).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(headers.get("referrer-policy"), what).toBe("no-referrer");
  expect(headers.get("strict-transport-security") ?? null, what).toBeNull();
}

describe("API security headers", () => {
  const MCP_INITIALIZE = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "mps-tests", version: "1" } },
  });
  const asReader = { Authorization: `Bearer ${accounts.reader.token}` };
  const mcpHeaders = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

  it.each([
    ["a /v1 success", "/v1/markets", { headers: asReader }, 200],
    ["a /v1 401", "/v1/markets", {}, 401],
    ["a /v1 404", "/v1/markets/no-such-market", { headers: asReader }, 404],
    ["a /v1 400", "/v1/%ZZ", { headers: asReader }, 400],
    ["an /mcp success", "/mcp", { method: "POST", headers: { ...mcpHeaders, ...asReader }, body: MCP_INITIALIZE }, 200],
    ["an /mcp 401", "/mcp", { method: "POST", headers: mcpHeaders, body: MCP_INITIALIZE }, 401],
  ] as const)("on %s", async (what, path, init, status) => {
    const response = await fetch(`${base}${path}`, init as RequestInit);
    await response.arrayBuffer();
    expect(response.status, what).toBe(status);
    expectApiSecurityHeaders(response.headers, what);
    if (status >= 400) expect(response.headers.get("content-type"), what).toBe("application/problem+json");
  });

  it.each(["PUT", "PATCH", "HEAD"])("answers %s /mcp with our 405", async (method) => {
    const response = await fetch(`${base}/mcp`, { method, headers: asReader });
    const text = await response.text();
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expectApiSecurityHeaders(response.headers, method);
    if (method === "HEAD") expect(text).toBe("");
    else
      expect(JSON.parse(text)).toMatchObject({
        status: 405,
        code: "method_not_allowed",
        type: `${base}/docs/errors#method_not_allowed`,
        requestId: response.headers.get("x-request-id"),
      });
  });
});

describe("requests Node's HTTP parser refuses", () => {
  const bigHeader = `X-Padding: ${"a".repeat(20 * 1024)}\r\n`;

  async function expectRefusal(request: string, status: number, code: string) {
    const response = await rawExchange(base, request);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("connection")).toBe("close");
    expect(Number(response.headers.get("content-length"))).toBe(Buffer.byteLength(response.body));
    expectApiSecurityHeaders(response.headers, code);
    const body = JSON.parse(response.body);
    expect(body).toMatchObject({ status, code, type: `${base}/docs/errors#${code}` });
    expect(body.requestId).toBe(response.headers.get("x-request-id"));
    expect(body.detail.length).toBeGreaterThan(0);
    expect(response.body).not.toMatch(/HPE_|stack|at .*\.js/);
  }

  it.each(["/v1/markets", "/mcp", "/"])("answers a 20 KB header on %s with 431 problem+json", async (path) => {
    await expectRefusal(
      `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${accounts.reader.token}\r\n${bigHeader}\r\n`,
      431,
      "request_header_too_large",
    );
  });

  it.each([
    ["a malformed request line", "GARBAGE\r\n\r\n"],
    ["an unknown HTTP version", "GET /v1/markets HTTP/9.9\r\nHost: localhost\r\n\r\n"],
    ["a space in the path", "GET /v1/mar kets HTTP/1.1\r\nHost: localhost\r\n\r\n"],
    ["a space in a header name", "GET /v1/markets HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n"],
    ["a control character in a header", "GET /mcp HTTP/1.1\r\nHost: localhost\r\nX-Note: a\u0001b\r\n\r\n"],
    ["a bad Content-Length", "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n"],
    [
      "both Transfer-Encoding and Content-Length (smuggling)",
      "POST /mcp HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
    ],
  ])("answers %s with 400 problem+json", async (_what, request) => {
    await expectRefusal(request, 400, "invalid_request");
  });

  it("keeps serving after refusing", async () => {
    const response = await fetch(`${base}/v1/markets`, {
      headers: { Authorization: `Bearer ${accounts.reader.token}` },
    });
    expect(response.status).toBe(200);
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

  it("never writes a sign-in link, nor its token, though the mail is logged", async () => {
    const email = `log-check-${Date.now()}@example.com`;
    await requestSignInLink(base, email);
    const [link] = await outboxLinks(base, email);
    expect(link).toMatch(/^http.*[?&]token=[0-9a-f]{32,}/);
    const token = new URL(link ?? "").searchParams.get("token") ?? "";
    // The mail's own line comes through the log's pipe; once it is there, nothing of the link is.
    await expect.poll(() => readFileSync(logFile, "utf8").includes(email)).toBe(true);
    const log = readFileSync(logFile, "utf8");
    expect(log.includes(link ?? ""), "the sign-in link is in the log").toBe(false);
    expect(log.includes(token), "the sign-in link's token is in the log").toBe(false);
  });
});
