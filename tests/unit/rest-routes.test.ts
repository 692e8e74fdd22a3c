/** What the REST edge does to a URL before routing it. */
import { describe, expect, it } from "vitest";
import { operationOfPath, withoutInheritedNames } from "@/server/rest/routes";

describe("query names the REST edge ignores", () => {
  it("drops names inherited from Object.prototype and keeps everything else as sent", () => {
    const base = "http://x/v1/markets/m/delta";
    expect(withoutInheritedNames(new URL(`${base}?country=FR&view=bars`))).toBeNull();
    expect(withoutInheritedNames(new URL(`${base}?toString=&country=FR&constructor=1&__proto__=x&valueOf`))).toBe(
      `${base}?country=FR`,
    );
    expect(withoutInheritedNames(new URL(`${base}?hasOwnProperty=1&hasOwnProperty=2`))).toBe(base);
  });
});

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
