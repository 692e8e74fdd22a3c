/** Which operation a /v1 path names (query names the edge ignores: tests/unit/rest-dispatch.test.ts). */
import { describe, expect, it } from "vitest";
import { operationOfPath } from "@/server/8-rest/routes";

describe("the operation a path names", () => {
  it("matches the operation's path below /v1, whatever the method, and nothing else", () => {
    expect(operationOfPath("/markets")).toBe("markets.list");
    expect(operationOfPath("/markets/foundation-model-apis")).toBe("markets.get");
    expect(operationOfPath("/markets/foundation-model-apis/snapshot")).toBe("readings.snapshot");
    expect(operationOfPath("/markets/m/delta/")).toBe("readings.delta");
    expect(operationOfPath("/geographies")).toBe("geographies.list");
    expect(operationOfPath("/markets/m/nope")).toBeUndefined();
    expect(operationOfPath("/openapi.json")).toBeUndefined();
    expect(operationOfPath("/")).toBeUndefined();
  });
});
