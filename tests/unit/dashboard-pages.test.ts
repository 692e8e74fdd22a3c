/** Which requests the server treats as dashboard pages (answered 503 at once while the database is away). */
import { describe, expect, it } from "vitest";
import { isDashboardPage } from "@/server/5-http-server/http-server";

describe("isDashboardPage", () => {
  it.each([
    ["/", true],
    ["/markets/foundation-model-apis?country=FR", true],
    ["/tokens", true],
    ["/docs/errors", true],
    ["/oauth/interaction/abc123", true],
    ["/v1/markets", false],
    ["/mcp", false],
    ["/api/trpc/markets.list", false],
    ["/api/health", false],
    ["/oauth/token", false],
    ["/oauth/interaction/abc123/decision", false],
    ["/.well-known/oauth-authorization-server", false],
    ["/_next/static/chunk.js", false],
    ["/metrics", false],
    ["/docs/api", true],
    ["/docs/api?x=1", true],
    ["/docs/api/reference", false],
    ["/docs/api/scalar.js", false],
    ["/v1", false],
    ["/v1?x=1", false],
    ["/v1x", true],
  ])("%s → %s", (url, page) => {
    expect(isDashboardPage(url)).toBe(page);
  });
});
