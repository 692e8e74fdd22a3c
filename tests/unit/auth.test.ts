/** The pure parts of authentication: reading the bearer token and the challenges we answer with. */
import { describe, expect, it } from "vitest";
import { insufficientScope, unauthorized } from "@/server/1-errors/api-error";
import { generateSecret, hashSecret, looksLikeSecret } from "@/server/4-api-access/tokens";
import { bearerToken } from "@/server/6-auth/caller";

const headers = (authorization?: string) => new Headers(authorization === undefined ? {} : { authorization });

describe("bearerToken", () => {
  it.each([
    [undefined, null],
    ["Bearer abc", "abc"],
    ["bearer   abc  ", "abc"],
    ["BEARER abc", "abc"],
    ["Bearer", ""],
    ["Bearer ", ""],
    ["Bearer a b", ""],
    ["Basic dXNlcjpwYXNz", ""],
    ["abc", ""],
  ])("reads %j as %j", (authorization, expected) => {
    expect(bearerToken(headers(authorization))).toBe(expected);
  });
});

describe("token secrets", () => {
  it("are mps_ and 43 base64url characters, distinct each time", () => {
    const secrets = new Set(Array.from({ length: 200 }, generateSecret));
    expect(secrets.size).toBe(200);
    for (const secret of secrets) expect(looksLikeSecret(secret)).toBe(true);
    expect(looksLikeSecret(`mps_${"A".repeat(42)}`)).toBe(false);
    expect(looksLikeSecret(`mps_${"A".repeat(42)}=`)).toBe(false);
    expect(looksLikeSecret(`xyz_${"A".repeat(43)}`)).toBe(false);
  });

  it("hash to hex SHA-256", () => {
    // printf 'mps_test' | sha256sum
    expect(hashSecret("mps_test")).toBe("f638098e32f1f3dcfa00aa1112d7ccfd24109549a1b8ca63962ed70f82cb01f4");
  });
});

describe("challenges", () => {
  it("says invalid_token, without quotes that would break the header", () => {
    expect(unauthorized('The "token" is bad.').extra.headers?.["WWW-Authenticate"]).toBe(
      'Bearer realm="market-positioning", error="invalid_token", error_description="The token is bad."',
    );
  });

  it("names the missing scope", () => {
    const error = insufficientScope("Market.Read.All");
    expect(error.extra.headers?.["WWW-Authenticate"]).toBe(
      'Bearer realm="market-positioning", error="insufficient_scope", scope="Market.Read.All"',
    );
    expect(error.problemCode).toBe("insufficient_scope");
    expect(error.code).toBe("FORBIDDEN");
  });
});
