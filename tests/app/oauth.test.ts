/**
 * OAuth for MCP clients against the running app, as a client would do it: discovery from the
 * 401, dynamic registration, authorization with PKCE (the dashboard session cookie is the signed-in
 * person), the token exchange, tool calls with the access token, refresh and revocation; then what
 * must be refused, and the connection made before its user has an organization.
 */
import {
  Client,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, SignJWT } from "jose";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { dashboardCall } from "../helpers/dashboard";
import { callToolWithToken, scopeRefusal } from "../helpers/mcp";
import {
  authorizeInBrowser,
  authorizeUrl,
  browse,
  CookieJar,
  challengeParams,
  discover,
  exchangeCode,
  pkcePair,
  postMcp,
  register,
  type ServerMetadata,
  tokenRequest,
} from "../helpers/oauth";
import { SERVED_TOOL_NAMES } from "../helpers/spec";

const base = inject("appUrl");
const accounts = inject("accounts");
const SCOPE = "Market.Read.All";
const SNAPSHOT = { marketId: "foundation-model-apis" };

/** What Claude Code, VS Code and friends send: several redirects, one on a loopback port. */
const REGISTRATION = {
  client_name: "Test MCP client",
  redirect_uris: ["http://127.0.0.1:33418/callback", "http://localhost:33418/callback", "https://vscode.dev/redirect"],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
};
/** Another port than registered: loopback redirects may use any (RFC 8252 §7.3). */
const REDIRECT = "http://127.0.0.1:51999/callback";

const mcpCall = (token: string, tool: string, args: Record<string, unknown>) =>
  callToolWithToken(base, token, tool, args);

async function mcpStatus(token: string): Promise<{ status: number; challenge: string | null; detail?: string }> {
  const response = await postMcp(base, token);
  const detail = response.status === 401 ? ((await response.json()) as { detail: string }).detail : undefined;
  return { status: response.status, challenge: response.headers.get("www-authenticate"), detail };
}

let metadata: ServerMetadata;
let resource: string;
let challengedScope: string;
let clientId: string;

beforeAll(async () => {
  ({ metadata, resource, scope: challengedScope } = await discover(base));
  const registered = await register(metadata, REGISTRATION);
  expect(registered.status).toBe(201);
  clientId = registered.body.client_id;
});

/** The whole flow for `session`; returns the token response and the consent page. */
async function connect(session: string, options: { scope?: string; resource?: string } = {}) {
  const { verifier, challenge } = pkcePair();
  const jar = new CookieJar(session);
  const state = `s-${Math.random()}`;
  const { redirect, consentHtml } = await authorizeInBrowser(
    base,
    jar,
    authorizeUrl(metadata, {
      clientId,
      redirectUri: REDIRECT,
      scope: options.scope ?? `${SCOPE} offline_access`,
      resource: options.resource ?? resource,
      challenge,
      state,
    }),
  );
  expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT);
  expect(redirect.searchParams.get("state")).toBe(state);
  expect(redirect.searchParams.get("iss")).toBe(base);
  const code = redirect.searchParams.get("code") as string;
  expect(code).toBeTruthy();
  const exchange = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: clientId };
  const tokens = await tokenRequest(metadata, { ...exchange, code_verifier: verifier, resource });
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  return { tokens: tokens.body, consentHtml, code, verifier, exchange };
}

describe("discovery", () => {
  it("answers 401 on /mcp with a challenge naming the resource metadata and the scope", async () => {
    const response = await fetch(`${base}/mcp`, { method: "POST", headers: { "Content-Type": "application/json" } });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const params = challengeParams(response.headers.get("www-authenticate"));
    expect(params.resource_metadata).toBe(`${base}/.well-known/oauth-protected-resource/mcp`);
    expect(params.scope).toBe(SCOPE);
    // No credentials, so no error code (RFC 6750 §3.1).
    expect(params.error).toBeUndefined();
    expect(challengedScope).toBe(SCOPE);
  });

  it("publishes the protected-resource metadata at the root and at the path-inserted URL", async () => {
    for (const url of [
      `${base}/.well-known/oauth-protected-resource`,
      `${base}/.well-known/oauth-protected-resource/mcp`,
    ]) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body.resource).toBe(`${base}/mcp`);
      expect(body.authorization_servers).toEqual([base]);
      expect(body.scopes_supported).toEqual([SCOPE]);
    }
  });

  it("publishes RFC 8414 and OpenID metadata at the root with the bare origin as issuer", async () => {
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as ServerMetadata & Record<string, string[]>;
      expect(body.issuer).toBe(base);
      expect(body.authorization_endpoint).toBe(`${base}/oauth/authorize`);
      expect(body.token_endpoint).toBe(`${base}/oauth/token`);
      expect(body.registration_endpoint).toBe(`${base}/oauth/register`);
      expect(body.revocation_endpoint).toBe(`${base}/oauth/revoke`);
      expect(body.code_challenge_methods_supported).toEqual(["S256"]);
      expect(body.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
      expect(body.scopes_supported).toEqual(expect.arrayContaining([SCOPE]));
    }
  });

  it("offers OAuth 2.1 only: the code flow with PKCE, no implicit, hybrid or id_token responses", async () => {
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const body = (await (await fetch(`${base}${path}`)).json()) as Record<string, unknown>;
      expect(body.response_types_supported).toEqual(["code"]);
      expect(body.grant_types_supported).not.toContain("implicit");
      expect(body.client_id_metadata_document_supported).toBe(true);
    }
  });

  it("answers at every endpoint either metadata document names", async () => {
    const named = new Map<string, string>();
    for (const path of [
      "/.well-known/oauth-authorization-server",
      "/.well-known/openid-configuration",
      "/.well-known/oauth-protected-resource/mcp",
    ]) {
      const body = (await (await fetch(`${base}${path}`)).json()) as Record<string, unknown>;
      for (const [name, value] of Object.entries(body))
        if ((name.endsWith("_endpoint") || name.endsWith("_uri")) && typeof value === "string") named.set(name, value);
    }
    expect([...named.keys()]).toEqual(
      expect.arrayContaining(["authorization_endpoint", "token_endpoint", "pushed_authorization_request_endpoint"]),
    );
    for (const [name, url] of named) {
      expect(new URL(url).origin, name).toBe(base);
      // Its own method answers; any other is 405 with Allow, never a bare 404.
      for (const method of ["GET", "POST"]) {
        const answer = await fetch(url, { method, redirect: "manual" });
        expect(answer.status, `${method} ${name} ${url}`).not.toBe(404);
        if (answer.status === 405) expect(answer.headers.get("allow"), `${method} ${name}`).toMatch(/GET|POST/);
      }
    }
  });
});

describe("the full flow", () => {
  it("registers, authorizes with PKCE, calls tools with a JWT for /mcp, refreshes and revokes", async () => {
    const { tokens, consentHtml } = await connect(accounts.oauth.session);
    expect(consentHtml).toContain("Test MCP client");
    expect(consentHtml).toContain("http://127.0.0.1:51999");
    expect(tokens.token_type).toBe("Bearer");
    // The token response names the access token's scopes: the resource's, for /mcp.
    expect(String(tokens.scope).split(" ")).toEqual([SCOPE]);
    expect(tokens.refresh_token).toBeTruthy();

    // A JWT for exactly /mcp, signed with a key the JWKS publishes.
    const jwks = (await (await fetch(metadata.jwks_uri)).json()) as { keys: { kid: string; d?: string }[] };
    expect(jwks.keys.every((key) => key.d === undefined)).toBe(true);
    expect(decodeProtectedHeader(tokens.access_token).typ).toBe("at+jwt");
    const { payload } = await jwtVerify(tokens.access_token, createLocalJWKSet(jwks as never), {
      issuer: base,
      audience: `${base}/mcp`,
    });
    expect(payload.sub).toBe(accounts.oauth.userId);
    expect(payload.client_id).toBe(clientId);
    expect(String(payload.scope).split(" ")).toContain(SCOPE);

    const before = (await dashboardCall(base, accounts.oauth.session, "credits.summary")).data as { balance: number };
    const result = await mcpCall(tokens.access_token, "service_market_get_snapshot", SNAPSHOT);
    expect(result.isError).toBeFalsy();
    expect(result._meta?.credits).toEqual({ cost: 5, remaining: before.balance - 5 });
    const rest = await fetch(`${base}/v1/markets/foundation-model-apis/snapshot`, {
      headers: { Authorization: `Bearer ${accounts.oauth.token}` },
    });
    expect(result.structuredContent).toEqual(await rest.json());

    // The connection shows on the Connect page's list.
    const list = (await dashboardCall(base, accounts.oauth.session, "connections.list")).data as {
      grantId: string;
      clientName: string;
      scopes: string[];
    }[];
    expect(list.map((c) => c.grantId)).toContain(decodeJwt(tokens.access_token).gid);
    expect(list.find((c) => c.grantId === decodeJwt(tokens.access_token).gid)?.clientName).toBe("Test MCP client");

    // Refresh: a new access token that works, and a rotated refresh token.
    const refreshed = await tokenRequest(metadata, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token as string,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(tokens.access_token);
    expect(decodeJwt(refreshed.body.access_token).aud).toBe(`${base}/mcp`);
    expect((await mcpCall(refreshed.body.access_token, "service_markets_list", {})).isError).toBeFalsy();

    // Revocation of the refresh token ends the whole grant: every access token stops at once.
    const revoked = await fetch(metadata.revocation_endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: refreshed.body.refresh_token as string, client_id: clientId }).toString(),
    });
    expect(revoked.status).toBe(200);
    for (const token of [tokens.access_token, refreshed.body.access_token]) {
      const answer = await mcpStatus(token);
      expect(answer.status).toBe(401);
      expect(answer.detail).toMatch(/revoked/);
      expect(challengeParams(answer.challenge).error).toBe("invalid_token");
    }
    const again = await tokenRequest(metadata, {
      grant_type: "refresh_token",
      refresh_token: refreshed.body.refresh_token as string,
      client_id: clientId,
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
  });

  it("revokes from the Connect page's list: only one's own connection, effective at once", async () => {
    const { tokens } = await connect(accounts.oauth.session);
    const grantId = String(decodeJwt(tokens.access_token).gid);
    const stranger = await dashboardCall(
      base,
      accounts.reader.session,
      "connections.revoke",
      { grantId },
      { mutation: true },
    );
    expect(stranger.problem?.code).toBe("not_found");
    expect((await mcpStatus(tokens.access_token)).status).toBe(200);
    const own = await dashboardCall(
      base,
      accounts.oauth.session,
      "connections.revoke",
      { grantId },
      { mutation: true },
    );
    expect(own.data).toEqual({ revoked: grantId, organizationId: accounts.oauth.id });
    expect((await mcpStatus(tokens.access_token)).status).toBe(401);
    const list = (await dashboardCall(base, accounts.oauth.session, "connections.list")).data as { grantId: string }[];
    expect(list.map((c) => c.grantId)).not.toContain(grantId);
    const refresh = await tokenRequest(metadata, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token as string,
      client_id: clientId,
    });
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("sends the client access_denied when the person denies", async () => {
    const { challenge } = pkcePair();
    const { redirect } = await authorizeInBrowser(
      base,
      new CookieJar(accounts.oauth.session),
      authorizeUrl(metadata, { clientId, redirectUri: REDIRECT, scope: SCOPE, challenge }),
      "deny",
    );
    expect(redirect.searchParams.get("error")).toBe("access_denied");
    expect(redirect.searchParams.get("code")).toBeNull();
  });

  it("sends a person who is not signed in to sign-in, returning to the consent page", async () => {
    const { challenge } = pkcePair();
    const jar = new CookieJar();
    const start = await browse(
      jar,
      authorizeUrl(metadata, { clientId, redirectUri: REDIRECT, scope: SCOPE, challenge }),
    );
    const interaction = new URL(start.headers.get("location") as string, base);
    expect(interaction.pathname).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    const page = await browse(jar, interaction.href);
    expect(page.status).toBe(307);
    expect(page.headers.get("location")).toBe(`/signin?callbackUrl=${encodeURIComponent(interaction.pathname)}`);
  });
});

describe("what is refused", () => {
  it("refuses an unregistered redirect URI without redirecting to it", async () => {
    const { challenge } = pkcePair();
    for (const redirectUri of [
      "https://evil.example/callback",
      "http://127.0.0.1:51999/other",
      "https://vscode.dev/x",
    ]) {
      const response = await browse(
        new CookieJar(accounts.oauth.session),
        authorizeUrl(metadata, { clientId, redirectUri, scope: SCOPE, challenge }),
      );
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain("redirect_uri");
    }
  });

  it("refuses implicit and hybrid requests with unsupported_response_type", async () => {
    const { challenge } = pkcePair();
    for (const responseType of ["token", "id_token", "code id_token", "id_token token"]) {
      const url = new URL(
        authorizeUrl(metadata, { clientId, redirectUri: REDIRECT, scope: `openid ${SCOPE}`, challenge }),
      );
      url.searchParams.set("response_type", responseType);
      url.searchParams.set("nonce", "n");
      const response = await browse(new CookieJar(accounts.oauth.session), url.href);
      const location = response.headers.get("location");
      const error = location
        ? (new URL(location).searchParams.get("error") ??
          new URLSearchParams(new URL(location).hash.slice(1)).get("error"))
        : await response.text();
      expect(error, responseType).toMatch(/unsupported_response_type/);
    }
  });

  it("serves pushed authorization requests under /oauth", async () => {
    const { challenge, verifier } = pkcePair();
    const pushed = await fetch(metadata.pushed_authorization_request_endpoint as string, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: clientId,
        response_type: "code",
        redirect_uri: REDIRECT,
        scope: SCOPE,
        resource,
        code_challenge: challenge,
        code_challenge_method: "S256",
        state: "par",
      }).toString(),
    });
    expect(pushed.status).toBe(201);
    const { request_uri } = (await pushed.json()) as { request_uri: string };
    const authorize = new URL(metadata.authorization_endpoint);
    authorize.searchParams.set("client_id", clientId);
    authorize.searchParams.set("request_uri", request_uri);
    const { redirect } = await authorizeInBrowser(base, new CookieJar(accounts.oauth.session), authorize.href);
    expect(redirect.searchParams.get("state")).toBe("par");
    const tokens = await exchangeCode(metadata, { redirect, redirectUri: REDIRECT, clientId, verifier, resource });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  });

  it("requires PKCE with S256", async () => {
    const { redirect } = await (async () => {
      const response = await browse(
        new CookieJar(accounts.oauth.session),
        authorizeUrl(metadata, { clientId, redirectUri: REDIRECT, scope: SCOPE }),
      );
      return { redirect: new URL(response.headers.get("location") as string) };
    })();
    expect(redirect.searchParams.get("error")).toBe("invalid_request");
    expect(redirect.searchParams.get("error_description")).toMatch(/PKCE/);
  });

  it("refuses a token exchange with no or the wrong code_verifier, and a reused code", async () => {
    const { challenge, verifier } = pkcePair();
    const { redirect } = await authorizeInBrowser(
      base,
      new CookieJar(accounts.oauth.session),
      authorizeUrl(metadata, { clientId, redirectUri: REDIRECT, scope: SCOPE, challenge, resource }),
    );
    const exchange = {
      grant_type: "authorization_code",
      code: redirect.searchParams.get("code") as string,
      redirect_uri: REDIRECT,
      client_id: clientId,
    };
    const missing = await tokenRequest(metadata, exchange);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/invalid_(grant|request)/);
    const wrong = await tokenRequest(metadata, { ...exchange, code_verifier: pkcePair().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");
    // Failed attempts do not consume the code; the right verifier still works, once.
    const first = await tokenRequest(metadata, { ...exchange, code_verifier: verifier });
    expect(first.status).toBe(200);
    const reused = await tokenRequest(metadata, { ...exchange, code_verifier: verifier });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");
    // A replayed code revokes what it had issued (RFC 6749 §4.1.2).
    expect((await mcpStatus(first.body.access_token)).status).toBe(401);
  });

  it("refuses to issue a token for another resource", async () => {
    const { challenge } = pkcePair();
    const response = await browse(
      new CookieJar(accounts.oauth.session),
      authorizeUrl(metadata, {
        clientId,
        redirectUri: REDIRECT,
        scope: SCOPE,
        challenge,
        resource: "https://other.example/mcp",
      }),
    );
    const redirect = new URL(response.headers.get("location") as string);
    expect(redirect.searchParams.get("error")).toBe("invalid_target");
  });

  it("refuses tokens for another audience, from another issuer, expired, or forged", async () => {
    const { tokens } = await connect(accounts.oauth.session);
    const claims = decodeJwt(tokens.access_token);
    const key = await importJWK(accounts.signingKey, "RS256");
    const sign = (overrides: Record<string, unknown>, kid = accounts.signingKey.kid as string) =>
      new SignJWT({ ...claims, ...overrides }).setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid }).sign(key);
    const now = Math.floor(Date.now() / 1000);
    // The genuine claims re-signed work: the refusals below are for the one thing changed.
    expect((await mcpStatus(await sign({}))).status).toBe(200);
    const cases: [string, string, RegExp][] = [
      ["another audience", await sign({ aud: "https://other.example/mcp" }), /another resource/],
      ["the REST API as audience", await sign({ aud: `${base}/v1` }), /another resource/],
      ["another issuer", await sign({ iss: "https://other.example" }), /another authorization server/],
      ["expired", await sign({ iat: now - 7200, exp: now - 3600 }), /expired/],
      ["unknown grant", await sign({ gid: "no-such-grant" }), /revoked/],
      ["tampered", `${tokens.access_token.slice(0, -4)}AAAA`, /not valid/],
    ];
    for (const [label, token, reason] of cases) {
      const answer = await mcpStatus(token);
      expect(answer.status, label).toBe(401);
      expect(answer.detail, label).toMatch(reason);
      expect(challengeParams(answer.challenge).resource_metadata, label).toBe(
        `${base}/.well-known/oauth-protected-resource/mcp`,
      );
    }
    // Signed by a key that is not ours, with our kid.
    const { generateKeyPair } = await import("jose");
    const foreign = await generateKeyPair("RS256");
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: accounts.signingKey.kid as string })
      .sign(foreign.privateKey);
    expect((await mcpStatus(forged)).status).toBe(401);
  });

  it("serves the free tools but refuses readings to a token without the scope", async () => {
    const { tokens } = await connect(accounts.oauth.session, { scope: "openid" });
    expect(String(decodeJwt(tokens.access_token).scope ?? "")).not.toContain(SCOPE);
    expect((await mcpCall(tokens.access_token, "service_markets_list", {})).isError).toBeFalsy();
    const refused = await scopeRefusal(base, tokens.access_token, "service_market_get_snapshot", SNAPSHOT);
    expect(refused).toMatchObject({ status: 403, code: "insufficient_scope", scope: SCOPE });
    expect(refused.challenge).toMatch(/error="insufficient_scope", scope="Market\.Read\.All"/);
  });

  it("refuses a decision posted from another site", async () => {
    const { challenge } = pkcePair();
    const jar = new CookieJar(accounts.oauth.session);
    const start = await browse(
      jar,
      authorizeUrl(metadata, { clientId, redirectUri: REDIRECT, scope: SCOPE, challenge }),
    );
    const interaction = new URL(start.headers.get("location") as string, base);
    const forged = await browse(jar, `${interaction.href}/decision`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "decision=allow",
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get("location")).toBeNull();
  });

  it("registers loopback-only clients as native and refuses registrations without redirect URIs", async () => {
    const native = await register(metadata, {
      client_name: "CLI",
      redirect_uris: ["http://localhost:8976/cb"],
      token_endpoint_auth_method: "none",
    });
    expect(native.status).toBe(201);
    expect(native.body.application_type).toBe("native");
    const web = await register(metadata, { client_name: "Web", redirect_uris: ["https://app.example/cb"] });
    expect(web.body.application_type).toBe("web");
    const none = await register(metadata, { client_name: "Nothing" });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe("invalid_redirect_uri");
    const junk = await fetch(metadata.registration_endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect(junk.status).toBe(400);
    expect(((await junk.json()) as { error: string }).error).toBe("invalid_client_metadata");
  });
});

describe("connecting before an organization exists", () => {
  it("completes the flow, answers organization_required, then works with the same token", async () => {
    const session = accounts.oauthNewcomer.session;
    const { tokens, consentHtml } = await connect(session);
    expect(consentHtml).toContain("An organization is needed for data");
    expect(consentHtml).toMatch(/href="\/onboarding\?returnTo=%2Foauth%2Finteraction%2F[\w-]+"/);

    const refused = await mcpCall(tokens.access_token, "service_market_get_snapshot", SNAPSHOT);
    expect(refused.isError).toBe(true);
    expect(refused._meta?.problem?.code).toBe("organization_required");
    expect(refused._meta?.problem?.createOrganizationUrl).toBe(`${base}/onboarding`);

    const created = await dashboardCall(
      base,
      session,
      "organizations.create",
      { name: "Late Org", homeCountry: "FR" },
      { mutation: true },
    );
    expect(created.status).toBe(200);
    const answer = await mcpCall(tokens.access_token, "service_market_get_delta", SNAPSHOT);
    expect(answer.isError).toBeFalsy();
    // Billed to the new organization (its starting credits), and its home country engaged.
    const summary = (await dashboardCall(base, session, "credits.summary")).data as { balance: number };
    expect(answer._meta?.credits?.remaining).toBe(summary.balance);
    expect((answer.structuredContent as { country: string }).country).toBe("FR");
  });
});

/** The MCP SDK's own OAuth client, as MCP clients embed it: only the browser step is ours. */
class SdkClientAuth implements OAuthClientProvider {
  information?: StoredOAuthClientInformation;
  saved?: StoredOAuthTokens;
  verifier = "";
  discovered?: OAuthDiscoveryState;
  authorizationUrl?: URL;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "MCP SDK client",
    redirect_uris: [REDIRECT],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: StoredOAuthClientInformation) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovered = state;
  }
  discoveryState() {
    return this.discovered;
  }
}

describe("the MCP SDK's OAuth client", () => {
  it("steps up: 403 insufficient_scope, the client re-authorizes for the scope, and the call goes through", async () => {
    // A connection authorized for `openid` only: the free tools, no readings.
    const { tokens } = await connect(accounts.oauth.session, { scope: "openid" });
    expect(String(decodeJwt(tokens.access_token).scope ?? "")).not.toContain(SCOPE);
    const auth = new SdkClientAuth();
    auth.information = { client_id: clientId, redirect_uris: [REDIRECT] } as StoredOAuthClientInformation;
    auth.saved = { ...tokens, token_type: "Bearer" } as StoredOAuthTokens;
    const url = new URL(`${base}/mcp`);
    const transport = new StreamableHTTPClientTransport(url, { authProvider: auth });
    const client = new Client({ name: "sdk-step-up", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect((await client.callTool({ name: "service_markets_list", arguments: {} })).isError).toBeFalsy();
      // The reading: 403 with the scope challenge; the SDK starts authorization for the union of scopes.
      await expect(client.callTool({ name: "service_market_get_capaindex", arguments: SNAPSHOT })).rejects.toThrow(
        UnauthorizedError,
      );
      const stepUp = auth.authorizationUrl as URL;
      expect(stepUp.searchParams.get("scope")?.split(" ")).toEqual(expect.arrayContaining([SCOPE]));
      const { redirect } = await authorizeInBrowser(base, new CookieJar(accounts.oauth.session), stepUp.href);
      await transport.finishAuth(redirect.searchParams);
      expect(String(decodeJwt(auth.saved?.access_token as string).scope)).toContain(SCOPE);
      const result = (await client.callTool({ name: "service_market_get_capaindex", arguments: SNAPSHOT })) as {
        isError?: boolean;
      };
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it("discovers, registers, authorizes and then calls tools with no help but the browser step", async () => {
    const auth = new SdkClientAuth();
    const url = new URL(`${base}/mcp`);
    const first = new StreamableHTTPClientTransport(url, { authProvider: auth });
    await expect(new Client({ name: "sdk-oauth", version: "1.0.0" }).connect(first)).rejects.toThrow(UnauthorizedError);
    const authorization = auth.authorizationUrl as URL;
    expect(authorization.origin + authorization.pathname).toBe(`${base}/oauth/authorize`);
    expect(authorization.searchParams.get("resource")).toBe(`${base}/mcp`);
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorization.searchParams.get("scope")).toContain(SCOPE);

    const { redirect } = await authorizeInBrowser(base, new CookieJar(accounts.oauth.session), authorization.href);
    expect(auth.discovered?.authorizationServerUrl).toBe(base);
    await first.finishAuth(redirect.searchParams);
    expect(decodeJwt(auth.saved?.access_token as string).aud).toBe(`${base}/mcp`);

    const client = new Client({ name: "sdk-oauth", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: auth }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(SERVED_TOOL_NAMES);
      const result = (await client.callTool({ name: "service_market_get_capaindex", arguments: SNAPSHOT })) as {
        isError?: boolean;
        _meta?: { credits?: { cost: number } };
      };
      expect(result.isError).toBeFalsy();
      expect(result._meta?.credits?.cost).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
