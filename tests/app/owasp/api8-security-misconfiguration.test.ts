/**
 * OWASP API8:2023 Security Misconfiguration, tried against the running app: nothing says what the
 * service runs on, no cross-origin read of the API from a browser, methods the API does not serve
 * refused as problems, no stack trace or internal detail in any failure, and the headers that
 * keep pages from being framed or sniffed. (A deployment's own configuration — production without
 * APP_URL, SMTP_URL, or with private hosts allowed — refuses to start: tests/app/outbox-start and
 * oauth-cimd.)
 */
import { describe, expect, inject, it } from "vitest";
import { hostileRequest } from "../../helpers/hostile";

const base = inject("appUrl");
const { hostile } = inject("accounts");

describe("API8: what the answers say of the service", () => {
  it.each(["/", "/v1/markets", "/mcp", "/api/health", "/.well-known/oauth-authorization-server", "/v1/nowhere"])(
    "%s names no server, framework or version",
    async (path) => {
      const answer = await hostileRequest(base, path, { headers: { Authorization: `Bearer ${hostile.token}` } });
      expect(answer.headers["x-powered-by"]).toBeUndefined();
      expect(String(answer.headers.server ?? "")).toBe("");
      expect(answer.body).not.toMatch(/at .+\.(ts|js):\d+|node_modules|Error: /);
    },
  );

  it("lets no other site's script read the API with a visitor's browser", async () => {
    const preflight = await hostileRequest(base, "/v1/markets", {
      method: "OPTIONS",
      headers: {
        Origin: "https://evil.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(preflight.headers["access-control-allow-credentials"]).toBeUndefined();
    const read = await hostileRequest(base, "/v1/markets", {
      headers: { Origin: "https://evil.example", Authorization: `Bearer ${hostile.token}` },
    });
    expect(read.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it.each(["TRACE", "TRACK", "CONNECT_", "PROPFIND", "DELETE", "PUT"])(
    "answers %s on /v1 as a problem, never echoing",
    async (method) => {
      const answer = await hostileRequest(base, "/v1/markets", {
        method: method.replace(/_$/, "X"),
        headers: { Authorization: `Bearer ${hostile.token}`, "X-Echo": "secret-header-value" },
      });
      expect([400, 405]).toContain(answer.status);
      expect(String(answer.headers["content-type"])).toContain("application/problem+json");
      expect(answer.body).not.toContain("secret-header-value");
    },
  );

  it("keeps the API and pages out of frames and sniffing", async () => {
    for (const path of ["/v1/markets", "/"]) {
      const answer = await hostileRequest(base, path, { headers: { Authorization: `Bearer ${hostile.token}` } });
      expect(answer.headers["x-content-type-options"], path).toBe("nosniff");
      expect(String(answer.headers["content-security-policy"]), path).toContain("frame-ancestors 'none'");
    }
  });

  it("says nothing internal when the request is malformed", async () => {
    for (const path of [
      "/v1/markets/%E0%A4%A",
      "/v1/markets/foundation-model-apis/snapshot?release=%00",
      "/mcp?x=%ZZ",
    ]) {
      const answer = await hostileRequest(base, path, { headers: { Authorization: `Bearer ${hostile.token}` } });
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.body, path).not.toMatch(/stack|at Object\.|\/work\/|node_modules/);
    }
  });
});
