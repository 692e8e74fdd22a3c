/**
 * OWASP API2:2023 Broken Authentication, tried against the running app. The headline attack: ask
 * for someone else's sign-in link while naming your own host (Host, X-Forwarded-Host, Forwarded),
 * so the mailed link — a one-time token — would reach your server when they click it. Every link,
 * issuer and problem URL must name the operator's origin, whatever the request says. Then the
 * credentials themselves: malformed, revoked, expired and other-audience tokens are refused alike.
 */
import { describe, expect, inject, it } from "vitest";
import { askForSignInLink, hostileRequest } from "../../helpers/hostile";
import { outboxLinks } from "../../helpers/logs";

const base = inject("appUrl");
const accounts = inject("accounts");
const port = new URL(base).port;
/** What a link may name: the app's own loopback origin, as the quick start serves it. */
const OWN = new RegExp(`^http://(localhost|127\\.0\\.0\\.1):${port}(/|$)`);

const FORGERIES: [string, Record<string, string>][] = [
  ["a forged Host", { Host: "evil.example" }],
  ["X-Forwarded-Host", { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" }],
  ["Forwarded", { Forwarded: "host=evil.example;proto=https" }],
  ["a loopback name on another port", { Host: "localhost:6666" }],
];

const askForLink = (email: string, forged: Record<string, string>) => askForSignInLink(base, email, forged);

describe("API2 Broken Authentication: a sign-in link never follows the request's host", () => {
  it.each(FORGERIES)("mails the victim a link to the real service despite %s", async (_what, forged) => {
    const victim = `victim-${Math.random().toString(36).slice(2)}@example.com`;
    const sent = await askForLink(victim, forged);
    expect(sent.status).toBe(302);
    expect(String(sent.headers.location)).not.toContain("evil.example");
    const links = await outboxLinks(base, victim);
    expect(links).toHaveLength(1);
    const [link] = links as [string];
    expect(link).toMatch(OWN);
    expect(link).not.toContain("evil.example");
    expect(new URL(link).pathname).toBe("/api/auth/callback/email");
  });

  it.each(FORGERIES)("names the real issuer and resource in OAuth metadata despite %s", async (_what, forged) => {
    for (const path of [
      "/.well-known/oauth-authorization-server",
      "/.well-known/openid-configuration",
      "/.well-known/oauth-protected-resource/mcp",
    ]) {
      const answer = await hostileRequest(base, path, { headers: forged });
      expect(answer.status, path).toBe(200);
      expect(answer.body, path).not.toContain("evil.example");
      expect(answer.body, path).not.toContain(":6666");
      const metadata = JSON.parse(answer.body) as { issuer?: string; resource?: string };
      expect(metadata.issuer ?? metadata.resource, path).toMatch(OWN);
    }
  });

  it.each(FORGERIES)(
    "writes problem links and the OpenAPI servers on the real origin despite %s",
    async (_w, forged) => {
      const problem = await hostileRequest(base, "/v1/markets/no-such-market", {
        headers: { ...forged, Authorization: `Bearer ${accounts.reader.token}` },
      });
      expect(problem.status).toBe(404);
      expect(JSON.parse(problem.body).type).toMatch(OWN);
      const challenge = await hostileRequest(base, "/mcp", { method: "POST", headers: forged, body: "{}" });
      expect(challenge.status).toBe(401);
      expect(String(challenge.headers["www-authenticate"])).not.toContain("evil.example");
      const document = await hostileRequest(base, "/v1/openapi.json", { headers: forged });
      expect(JSON.parse(document.body).servers[0].url).toMatch(OWN);
    },
  );
});

describe("API2 Broken Authentication: credentials", () => {
  it.each([
    ["no token", undefined],
    ["a revoked token", `Bearer ${accounts.tokens.revoked}`],
    ["an expired token", `Bearer ${accounts.tokens.expired}`],
    ["a token one character short", `Bearer ${accounts.reader.token.slice(0, -1)}`],
    ["a token in the wrong scheme", `Basic ${accounts.reader.token}`],
    ["a session cookie as a bearer token", `Bearer ${accounts.reader.session}`],
  ])("refuses %s with 401 and a Bearer challenge, on /v1 and /mcp", async (_what, authorization) => {
    const headers: Record<string, string> = authorization ? { Authorization: authorization } : {};
    const rest = await fetch(`${base}/v1/markets`, { headers });
    expect(rest.status).toBe(401);
    expect(rest.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect((await rest.json()).code).toBe("unauthorized");
    const mcp = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get("www-authenticate")).toMatch(/^Bearer .*resource_metadata=/);
  });

  it("does not tell a known address from an unknown one when asked for a link", async () => {
    const known = await askForLink("demo@example.com", {});
    const unknown = await askForLink(`nobody-${Date.now()}@example.com`, {});
    expect(known.status).toBe(unknown.status);
    expect(String(known.headers.location)).toBe(String(unknown.headers.location));
  });
});
