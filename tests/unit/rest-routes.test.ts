/** What the REST edge does to a URL before routing it. */
import { describe, expect, it } from "vitest";
import { withoutInheritedNames } from "@/server/rest/routes";

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
