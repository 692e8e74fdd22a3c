/**
 * OWASP API9:2023 Improper Inventory Management, tried against the running app: the API is what
 * its published document says and nothing more — every documented path answers, no undocumented
 * version, admin, debug or internal path does, the dashboard's procedures are only the ones it
 * has, and the benchmark's floor route answers nobody outside a benchmark run.
 */
import { describe, expect, inject, it } from "vitest";
import { DECLARATIONS } from "@/server/7-procedures/operations";

const base = inject("appUrl");
const { hostile } = inject("accounts");
const auth = { Authorization: `Bearer ${hostile.token}` };

interface OpenApi {
  paths: Record<string, { get?: unknown; head?: unknown }>;
}

describe("API9: the published inventory", () => {
  it("lists exactly the declared operations, each answering", async () => {
    const document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as OpenApi;
    const documented = Object.keys(document.paths).sort();
    expect(documented).toEqual(DECLARATIONS.map((d) => d.path).sort());
    for (const path of documented) {
      const url = path
        .replace("{marketId}", "foundation-model-apis")
        .replace("{productId}", "quillmere-atlas")
        .replace("{file}", "snapshot.csv");
      const response = await fetch(`${base}/v1${url}`, { method: "HEAD", headers: auth });
      // Served: an answer of its own (a path parameter's or a required query's 400 at worst), never "no such path".
      expect([200, 400], path).toContain(response.status);
    }
  });

  it.each([
    "/v2/markets",
    "/v0/markets",
    "/v1.1/markets",
    "/v1/admin",
    "/v1/admin/organizations",
    "/v1/internal/metrics",
    "/v1/debug",
    "/v1/users",
    "/v1/tokens",
    "/v1/organizations",
    "/v1/markets/foundation-model-apis/releases",
    "/v1/openapi.yaml",
    "/v1/swagger.json",
    "/api/v1/markets",
    "/bench/floor?name=snapshot",
    "/.env",
    "/.git/config",
    "/server/3-keys/app-secret.ts",
  ])("serves nothing at the undocumented %s", async (path) => {
    const response = await fetch(`${base}${path}`, { headers: auth });
    expect(response.status, path).toBe(404);
    expect(await response.text()).not.toMatch(/AUTH_SECRET|\[core\]|export function/);
  });

  it("answers the dashboard's procedure names only", async () => {
    for (const procedure of ["readings.internal", "account.secrets", "tokens.all", "organizations.all"]) {
      const response = await fetch(`${base}/api/trpc/${procedure}`, {
        headers: { Cookie: `authjs.session-token=${hostile.session}` },
      });
      expect(response.status, procedure).toBe(404);
    }
  });
});
