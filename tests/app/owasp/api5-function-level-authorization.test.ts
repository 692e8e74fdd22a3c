/**
 * OWASP API5:2023 Broken Function Level Authorization, tried against the running app: readings
 * need the Market.Read.All scope on every surface; the dashboard's changes need a session of the
 * dashboard's own origin; an operator's functions (grants, publishing) are on no HTTP surface; the
 * dev outbox and the metrics answer this machine only.
 */
import { describe, expect, inject, it } from "vitest";
import { dashboardCall } from "../../helpers/dashboard";
import { callToolWithToken, scopeRefusal } from "../../helpers/mcp";
import { nonLoopbackUrl } from "../../helpers/server";
import { SERVED_TOOL_NAMES } from "../../helpers/spec";

const base = inject("appUrl");
const accounts = inject("accounts");

interface OpenApi {
  paths: Record<
    string,
    { get: { "x-credits"?: number; parameters?: { name: string; in: string; required?: boolean }[] } }
  >;
}

describe("API5: a token without the scope", () => {
  it("is refused every metered operation over REST with 403 insufficient_scope, uncharged", async () => {
    const document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as OpenApi;
    const metered = Object.entries(document.paths).filter(([, item]) => (item.get["x-credits"] ?? 0) > 0);
    expect(metered.length).toBeGreaterThan(8);
    for (const [path] of metered) {
      const url = path
        .replace("{marketId}", "foundation-model-apis")
        .replace("{productId}", "quillmere-atlas")
        .replace("{file}", "snapshot.csv");
      const query = path.endsWith("/whatif") ? "?weights=reasoning-benchmark:2" : "";
      const response = await fetch(`${base}/v1${url}${query}`, {
        headers: { Authorization: `Bearer ${accounts.tokens.noScope}` },
      });
      expect(response.status, path).toBe(403);
      expect(((await response.json()) as { code: string }).code, path).toBe("insufficient_scope");
      expect(response.headers.get("x-credits-cost"), path).toBeNull();
    }
  });

  it("is refused the metered tools over MCP with insufficient_scope", async () => {
    for (const tool of ["service_market_get_snapshot", "service_market_get_delta", "service_market_whatif"]) {
      const refused = await scopeRefusal(base, accounts.tokens.noScope, tool, {
        marketId: "foundation-model-apis",
        weights: "reasoning-benchmark:2",
      });
      expect(refused, tool).toMatchObject({ status: 403, code: "insufficient_scope" });
      expect(refused.challenge, tool).toMatch(/error="insufficient_scope"/);
    }
    expect(SERVED_TOOL_NAMES).toContain("service_market_get_snapshot");
    // A free tool is served to the same token.
    expect((await callToolWithToken(base, accounts.tokens.noScope, "service_markets_list", {})).isError).toBeFalsy();
  });
});

describe("API5: the dashboard's functions", () => {
  it("need a session", async () => {
    const answer = await dashboardCall(base, null, "tokens.create", { name: "x", scopes: [] }, { mutation: true });
    expect(answer.status).toBe(401);
  });

  it("refuse a change from another site, or with no Origin at all", async () => {
    for (const origin of ["https://evil.example", null]) {
      const answer = await dashboardCall(
        base,
        accounts.hostile.session,
        "tokens.create",
        { name: "csrf", scopes: [] },
        { mutation: true, origin },
      );
      expect(answer.status).toBe(403);
      expect(answer.problem?.code).toBe("forbidden_origin");
    }
  });

  it("need an organization for the organization's functions", async () => {
    const answer = await dashboardCall(base, accounts.people.orgless, "tokens.list");
    expect(answer.status).toBe(403);
    expect(answer.problem?.code).toBe("organization_required");
  });

  it("hold no operator function: grants and publishing are the CLI's alone", async () => {
    for (const procedure of [
      "credits.grant",
      "credits.adjust",
      "catalog.publish",
      "organizations.grant",
      "admin.users",
    ]) {
      const answer = await dashboardCall(
        base,
        accounts.hostile.session,
        procedure,
        { amount: 1_000_000 },
        { mutation: true },
      );
      expect(answer.status, procedure).toBe(404);
    }
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const response = await fetch(`${base}/v1/ledger`, {
        method,
        headers: { Authorization: `Bearer ${accounts.hostile.token}` },
      });
      expect(response.status, method).toBe(405);
    }
  });
});

describe("API5: this machine's pages", () => {
  it("answer the dev outbox and the metrics to loopback clients only", async () => {
    const remote = nonLoopbackUrl(base);
    expect(remote, "the machine has a non-loopback address to test from").toBeDefined();
    expect((await fetch(`${remote}/dev/outbox`)).status).toBe(404);
    expect([401, 403, 404]).toContain((await fetch(`${remote}/metrics`)).status);
    expect((await fetch(`${base}/dev/outbox`)).status).toBe(200);
  });
});
