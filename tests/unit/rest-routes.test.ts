/** Which operation a /v1 path names (query names the edge ignores: tests/unit/rest-dispatch.test.ts). */
import { describe, expect, it } from "vitest";
import { procedureMetas } from "@/server/7-routers/root";
import { findRestRoute } from "@/server/8-rest/dispatch";
import { isApiPath, operationOfPath } from "@/server/8-rest/routes";

describe("the operation a path names", () => {
  it("matches the operation's path below /v1, whatever the method, and nothing else", () => {
    expect(operationOfPath("/markets")).toBe("markets.list");
    expect(operationOfPath("/markets/foundation-model-apis")).toBe("markets.get");
    expect(operationOfPath("/markets/foundation-model-apis/snapshot")).toBe("readings.snapshot");
    expect(operationOfPath("/markets/m/delta/")).toBe("readings.delta");
    expect(operationOfPath("/MARKETS/m/Delta")).toBe("readings.delta");
    expect(operationOfPath("/geographies")).toBe("geographies.list");
    expect(operationOfPath("/markets/m/nope")).toBeUndefined();
    expect(operationOfPath("//markets")).toBeUndefined();
    expect(operationOfPath("/markets//snapshot")).toBeUndefined();
    expect(operationOfPath("/openapi.json")).toBeUndefined();
    expect(operationOfPath("/")).toBeUndefined();
  });
});

describe("the paths /v1 serves", () => {
  it("are the dispatcher's routes and the OpenAPI document, one table for the 405 and the call", () => {
    const paths = procedureMetas.flatMap((meta) => (meta.openapi?.path ? [meta.openapi.path] : []));
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) {
      const concrete = path.replace(/\{[^}]+\}/g, "x");
      expect(isApiPath(concrete), path).toBe(true);
      expect(findRestRoute(concrete)?.route.operation?.name, path).toBe(operationOfPath(concrete));
    }
    expect(isApiPath("/openapi.json")).toBe(true);
    expect(isApiPath("/OpenAPI.json/")).toBe(true);
    for (const path of ["/", "/nope", "/markets/m/nope", "//markets", "/openapi.json.bak", "/markets/m/snapshot/x"])
      expect(isApiPath(path), path).toBe(false);
  });
});
