/** Which registrations become native apps (any loopback port), and which scopes a grant holds. */
import { describe, expect, it } from "vitest";
import { grantableScopes } from "@/server/8-oauth/decision";
import { nativeRedirectUri, normalizeRegistration, registrationOverLimits } from "@/server/8-oauth/registration";

describe("nativeRedirectUri (RFC 8252 §7)", () => {
  it.each([
    ["http://127.0.0.1:33418/callback", true],
    ["http://localhost/callback", true],
    ["http://[::1]:8080/cb", true],
    ["https://vscode.dev/redirect", true],
    ["cursor://anysphere.cursor-retrieval/oauth/callback", true],
    ["http://example.com/callback", false],
    ["https://localhost/callback", false],
    ["javascript:alert(1)", false],
    ["not a url", false],
  ])("%s → %s", (uri, expected) => {
    expect(nativeRedirectUri(uri)).toBe(expected);
  });
});

describe("normalizeRegistration", () => {
  it("registers loopback and private-scheme clients as native when they do not say", () => {
    expect(
      normalizeRegistration({ redirect_uris: ["http://127.0.0.1:33418/cb", "https://vscode.dev/redirect"] }),
    ).toEqual({
      redirect_uris: ["http://127.0.0.1:33418/cb", "https://vscode.dev/redirect"],
      application_type: "native",
    });
    expect(normalizeRegistration({ redirect_uris: ["cursor://x/cb"] })).toMatchObject({ application_type: "native" });
  });

  it("leaves web apps, explicit choices and anything else as they are", () => {
    const web = { redirect_uris: ["https://app.example/cb"] };
    expect(normalizeRegistration(web)).toBe(web);
    const mixed = { redirect_uris: ["http://127.0.0.1/cb", "http://app.example/cb"] };
    expect(normalizeRegistration(mixed)).toBe(mixed);
    const explicit = { application_type: "web", redirect_uris: ["http://localhost:9/cb"] };
    expect(normalizeRegistration(explicit)).toBe(explicit);
    for (const odd of [null, [], "x", 3, { redirect_uris: "http://localhost/cb" }, { redirect_uris: [] }])
      expect(normalizeRegistration(odd)).toBe(odd);
  });
});

describe("normalizeRegistration: scopes", () => {
  it("keeps only OpenID scopes in the registered scope (resource scopes are granted per resource)", () => {
    expect(
      normalizeRegistration({ scope: "Market.Read.All offline_access", redirect_uris: ["https://a.example/cb"] }),
    ).toEqual({
      scope: "offline_access",
      redirect_uris: ["https://a.example/cb"],
    });
    expect(normalizeRegistration({ scope: "Market.Read.All", redirect_uris: ["https://a.example/cb"] })).toEqual({
      redirect_uris: ["https://a.example/cb"],
    });
    const untouched = { scope: "openid", redirect_uris: ["https://a.example/cb"] };
    expect(normalizeRegistration(untouched)).toEqual(untouched);
  });
});

describe("grantableScopes", () => {
  it("grants only what was asked for and exists, split into OpenID and resource scopes", () => {
    expect(grantableScopes("openid Market.Read.All offline_access admin")).toEqual({
      oidc: ["openid", "offline_access"],
      resource: ["Market.Read.All"],
    });
    expect(grantableScopes("openid")).toEqual({ oidc: ["openid"], resource: [] });
    expect(grantableScopes(undefined)).toEqual({ oidc: [], resource: [] });
    expect(grantableScopes("market.read.all")).toEqual({ oidc: [], resource: [] });
  });
});

describe("registrationOverLimits", () => {
  const uris = (n: number) => Array.from({ length: n }, (_, i) => `http://127.0.0.1:${3000 + i}/cb`);
  it("accepts what real clients send", () => {
    expect(
      registrationOverLimits({
        client_name: "Claude Code",
        redirect_uris: uris(10),
        logo_uri: `https://x.example/${"a".repeat(500)}`,
      }),
    ).toBeNull();
  });
  it.each([
    [{ client_name: "n".repeat(201) }, "client_name is longer than 200 characters"],
    [{ client_uri: `https://x.example/${"a".repeat(2000)}` }, "client_uri is longer than 2000 characters"],
    [{ redirect_uris: uris(11) }, "redirect_uris has more than 10 entries"],
    [
      { redirect_uris: [`http://127.0.0.1/${"a".repeat(2000)}`] },
      "an entry of redirect_uris is longer than 2000 characters",
    ],
    [{ ["x".repeat(101)]: 1 }, "a metadata name is longer than 100 characters"],
  ])("refuses %#", (metadata, reason) => {
    expect(registrationOverLimits(metadata)).toBe(reason);
  });
});
