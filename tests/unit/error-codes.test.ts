/**
 * The order of the API's error codes on /docs/errors (server/1-errors/codes.ts, ERROR_CODE_LIST):
 * by HTTP status, then by code within a status, so 413 comes before 431.
 */
import { describe, expect, it } from "vitest";
import { ERROR_CODE_LIST, ERROR_CODES } from "@/server/1-errors/codes";

describe("ERROR_CODE_LIST", () => {
  it("lists every code once", () => {
    expect(new Set(ERROR_CODE_LIST).size).toBe(Object.keys(ERROR_CODES).length);
  });

  it("orders by status, then by code", () => {
    ERROR_CODE_LIST.forEach((code, i) => {
      const before = ERROR_CODE_LIST[i - 1];
      if (!before) return;
      const [a, b] = [ERROR_CODES[before].status, ERROR_CODES[code].status];
      expect(a < b || (a === b && before < code), `${before} (${a}) before ${code} (${b})`).toBe(true);
    });
    const statuses = ERROR_CODE_LIST.map((code) => ERROR_CODES[code].status);
    if (statuses.includes(413) && statuses.includes(431))
      expect(statuses.indexOf(413)).toBeLessThan(statuses.indexOf(431));
  });
});
