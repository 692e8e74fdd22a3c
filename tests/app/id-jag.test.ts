/**
 * Enterprise-managed authorization for MCP clients (ID-JAG, docs/enterprise-mcp.md) against an
 * app of this file's own (IDP_ALLOW_PRIVATE_HOSTS=1: one IdP here publishes its keys on
 * loopback): an identity assertion minted by a test IdP (a jose key pair) is exchanged at
 * /oauth/token for an access token that calls /mcp tools through the MCP SDK's own
 * CrossAppAccessProvider; one IdP's keys are given inline, the other's are found through its
 * discovery document. Every check that fails is refused with the RFC 6749 error that says which;
 * a removed member's assertion is refused and their tokens stop.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, CrossAppAccessProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { decodeJwt, exportJWK, generateKeyPair, type CryptoKey as JoseKey, type JWK, jwtVerify, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { linkIdentity, setIdentityProvider } from "@/server/4-identity/identity-providers";
import { idpKeys } from "@/server/8-oauth/idp-keys";
import { organization } from "../helpers/accounts";
import { dashboardCall } from "../helpers/dashboard";
import { hostileRequest } from "../helpers/hostile";
import { memberWithSession } from "../helpers/id-jag";
import { callToolWithToken, type ToolResult } from "../helpers/mcp";
import { postMcp, register } from "../helpers/oauth";
import { type OwnApp, startOwnApp } from "../helpers/own-app";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ID_JAG_TYP = "oauth-id-jag+jwt";
const SCOPE = "Market.Read.All";
const ACME_ISSUER = "https://idp.acme.example";
const SNAPSHOT = { marketId: "foundation-model-apis" };

interface Person {
  userId: string;
  session: string;
}
interface Prepared {
  acme: { id: string; token: string; owner: Person; alice: Person; carol: Person };
  beta: { id: string; bob: Person };
  gamma: { id: string };
}
interface KeyPair {
  privateKey: JoseKey;
  publicJwk: JWK;
}
interface RegisteredClient {
  id: string;
  secret: string;
}

let app: OwnApp<Prepared>;
let base: string;
let acmeKey: KeyPair;
let betaKey: KeyPair;
/** The Beta organization's IdP: its discovery document and key set on loopback, requests counted. */
let betaIdp: { server: Server; issuer: string; requests: string[] };
/** The Gamma organization's IdP: down (503 to everything), requests counted. */
let downIdp: { server: Server; issuer: string; requests: string[] };
let client: RegisteredClient;
let otherClient: RegisteredClient;

async function keyPair(kid: string): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

async function startIdp(key: KeyPair): Promise<{ server: Server; issuer: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const body =
      req.url === "/.well-known/openid-configuration"
        ? { issuer, jwks_uri: `${issuer}/jwks`, token_endpoint: `${issuer}/token` }
        : req.url === "/jwks"
          ? { keys: [key.publicJwk] }
          : null;
    res.writeHead(body ? 200 : 404, { "Content-Type": "application/json" }).end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

async function startDownIdp(): Promise<{ server: Server; issuer: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? "");
    res.writeHead(503, { "Content-Type": "text/plain" }).end("down");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const person = (db: Database, organizationId: string, role: "member" | "admin"): Promise<Person> =>
  memberWithSession(db, organizationId, role, "acme.example");

async function prepare(db: Database): Promise<Prepared> {
  const acme = await organization(db, "Acme", { credits: 10_000 });
  const beta = await organization(db, "Beta", { credits: 10_000 });
  const alice = await person(db, acme.id, "member");
  const carol = await person(db, acme.id, "member");
  const bob = await person(db, beta.id, "member");
  const gamma = await organization(db, "Gamma", { credits: 10_000 });
  const idp = { clientId: null, clientSecret: null, defaultRole: "member" as const, requireSso: false };
  await setIdentityProvider(db, {
    ...idp,
    organizationId: acme.id,
    issuer: ACME_ISSUER,
    jwks: { keys: [acmeKey.publicJwk] },
  });
  await setIdentityProvider(db, { ...idp, organizationId: beta.id, issuer: betaIdp.issuer, jwks: null });
  await setIdentityProvider(db, { ...idp, organizationId: gamma.id, issuer: downIdp.issuer, jwks: null });
  for (const [organizationId, subject, userId] of [
    [acme.id, "owner-sub", acme.userId],
    [acme.id, "alice-sub", alice.userId],
    [acme.id, "carol-sub", carol.userId],
    [beta.id, "bob-sub", bob.userId],
  ] as const)
    await linkIdentity(db, { organizationId, subject, userId, refreshToken: null });
  return {
    acme: { id: acme.id, token: acme.token, owner: { userId: acme.userId, session: acme.session }, alice, carol },
    beta: { id: beta.id, bob },
    gamma: { id: gamma.id },
  };
}

interface Assertion {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  client_id?: string;
  resource?: string | null;
  scope?: string | null;
  jti?: string;
  iat?: number;
  exp?: number;
  typ?: string;
  key?: KeyPair;
  kid?: string;
  /** Other claims (an IdP may add `email`, …). */
  extra?: Record<string, unknown>;
}

/** An ID-JAG as an IdP would mint it: for Acme's Alice, this client, this server, unless told otherwise. */
function mint(claims: Assertion = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const key = claims.key ?? acmeKey;
  const payload: Record<string, unknown> = {
    ...claims.extra,
    client_id: claims.client_id ?? client.id,
    jti: claims.jti ?? randomUUID(),
  };
  if (claims.resource !== null) payload.resource = claims.resource ?? `${base}/mcp`;
  if (claims.scope !== null) payload.scope = claims.scope ?? SCOPE;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "RS256", typ: claims.typ ?? ID_JAG_TYP, kid: claims.kid ?? key.publicJwk.kid })
    .setIssuer(claims.iss ?? ACME_ISSUER)
    .setSubject(claims.sub ?? "alice-sub")
    .setAudience(claims.aud ?? base)
    .setIssuedAt(claims.iat ?? now)
    .setExpirationTime(claims.exp ?? now + 300)
    .sign(key.privateKey);
}

const basic = (c: RegisteredClient) =>
  `Basic ${Buffer.from(`${encodeURIComponent(c.id)}:${encodeURIComponent(c.secret)}`).toString("base64")}`;

/** The token request a client makes with an assertion (client_secret_basic). */
async function exchange(assertion: string, options: { as?: RegisteredClient; form?: Record<string, string> } = {}) {
  const response = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(options.as ?? client) },
    body: new URLSearchParams({ grant_type: JWT_BEARER, assertion, ...options.form }).toString(),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, string | number | undefined> & { access_token: string },
  };
}

async function registerClient(metadata: Record<string, unknown>): Promise<RegisteredClient> {
  const { status, body } = await register({ registration_endpoint: `${base}/oauth/register` } as never, {
    client_name: "Enterprise MCP client",
    grant_types: [JWT_BEARER],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: "client_secret_basic",
    ...metadata,
  });
  if (status !== 201) throw new Error(`registration answered ${status}: ${JSON.stringify(body)}`);
  return { id: body.client_id, secret: String(body.client_secret) };
}

beforeAll(async () => {
  acmeKey = await keyPair("acme-1");
  betaKey = await keyPair("beta-1");
  betaIdp = await startIdp(betaKey);
  downIdp = await startDownIdp();
  app = await startOwnApp({ IDP_ALLOW_PRIVATE_HOSTS: "1" }, prepare);
  base = app.url;
  client = await registerClient({});
  otherClient = await registerClient({ client_name: "Another MCP client" });
});

afterAll(async () => {
  await app?.close();
  betaIdp?.server.close();
  downIdp?.server.close();
});

describe("the authorization server's metadata", () => {
  it("lists the jwt-bearer grant and the ID-JAG profile in both documents", async () => {
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const metadata = (await (await fetch(`${base}${path}`)).json()) as Record<string, unknown>;
      expect(metadata.issuer).toBe(base);
      expect(metadata.grant_types_supported).toContain(JWT_BEARER);
      expect(metadata.grant_types_supported).toContain("authorization_code");
      expect(metadata.authorization_grant_profiles_supported).toEqual(["urn:ietf:params:oauth:grant-profile:id-jag"]);
      expect(metadata.token_endpoint_auth_methods_supported).toContain("client_secret_basic");
    }
  });
});

describe("an ID-JAG exchanged for an access token", () => {
  it("lets the SDK's CrossAppAccessProvider call /mcp tools as the member, for the IdP's organization", async () => {
    const seen: { authorizationServerUrl: string; resourceUrl: string; scope?: string }[] = [];
    const provider = new CrossAppAccessProvider({
      clientId: client.id,
      clientSecret: client.secret,
      expectedIssuer: base,
      assertion: async (context) => {
        const { authorizationServerUrl, resourceUrl, scope } = context;
        seen.push({ authorizationServerUrl, resourceUrl, scope });
        return mint({ aud: context.authorizationServerUrl, resource: context.resourceUrl, scope: context.scope });
      },
    });
    const mcp = new Client({ name: "id-jag-tests", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
    let result: ToolResult;
    try {
      result = (await mcp.callTool({ name: "service_market_get_snapshot", arguments: SNAPSHOT })) as ToolResult;
    } finally {
      await mcp.close();
    }
    expect(seen).toEqual([{ authorizationServerUrl: base, resourceUrl: `${base}/mcp`, scope: SCOPE }]);
    expect(result.isError).toBeFalsy();
    expect(result._meta?.credits?.cost).toBe(5);
    const rest = await fetch(`${base}/v1/markets/foundation-model-apis/snapshot`, {
      headers: { Authorization: `Bearer ${app.prepared.acme.token}` },
    });
    expect(result.structuredContent).toEqual(await rest.json());

    const tokens = provider.tokens();
    expect(tokens?.refresh_token).toBeUndefined();
    expect(tokens?.token_type).toBe("Bearer");
    const claims = decodeJwt(tokens?.access_token as string);
    expect(claims).toMatchObject({
      iss: base,
      aud: `${base}/mcp`,
      sub: app.prepared.acme.alice.userId,
      client_id: client.id,
      scope: SCOPE,
    });
    expect(typeof claims.gid).toBe("string");

    // The connection is the organization's: its managers see it on /connect and its trail has it.
    const list = (await dashboardCall(base, app.prepared.acme.owner.session, "connections.organizationList")).data as {
      grantId: string;
      clientId: string;
      userId: string;
      organizationId: string;
      scopes: string[];
    }[];
    expect(list).toContainEqual(
      expect.objectContaining({
        grantId: claims.gid,
        clientId: client.id,
        userId: app.prepared.acme.alice.userId,
        organizationId: app.prepared.acme.id,
        scopes: [SCOPE],
      }),
    );
    // …and the member sees it among their own.
    const own = (await dashboardCall(base, app.prepared.acme.alice.session, "connections.list")).data as {
      grantId: string;
    }[];
    expect(own.map((c) => c.grantId)).toContain(claims.gid);
    const trail = (await (
      await fetch(`${base}/v1/audit-events?limit=50`, {
        headers: { Authorization: `Bearer ${app.prepared.acme.token}` },
      })
    ).json()) as {
      events: {
        action: string;
        target?: { id: string };
        details: Record<string, unknown>;
        actor: Record<string, unknown>;
      }[];
    };
    const created = trail.events.filter((e) => e.action === "connection.create" && e.target?.id === claims.gid);
    expect(created).toHaveLength(1);
    expect(created[0]?.details).toMatchObject({
      via: "id-jag",
      issuer: ACME_ISSUER,
      clientId: client.id,
      scopes: [SCOPE],
    });

    // A new assertion later (each is single use) gets a token of the same connection, not another one.
    const again = await exchange(await mint());
    expect(again.status).toBe(200);
    expect(decodeJwt(again.body.access_token).gid).toBe(claims.gid);
    expect(again.body.refresh_token).toBeUndefined();
    expect(again.body).toMatchObject({ token_type: "Bearer", scope: SCOPE });
    expect(again.body.expires_in).toBeGreaterThan(0);
  });

  it("makes one connection of twenty exchanges at once, each with its own assertion", async () => {
    // A client this person has no connection with yet: every exchange races to make the first.
    const racer = await registerClient({ client_name: "Racing MCP client" });
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => exchange(await mint({ client_id: racer.id }), { as: racer })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const grants = new Set(answers.map((a) => decodeJwt(a.body.access_token).gid));
    expect(grants.size).toBe(1);
    const list = (await dashboardCall(base, app.prepared.acme.owner.session, "connections.organizationList")).data as {
      grantId: string;
      clientId: string;
    }[];
    expect(list.filter((c) => c.clientId === racer.id).map((c) => c.grantId)).toEqual([...grants]);
    // Every token answers: none belongs to a connection that lost the race.
    for (const answer of answers.slice(0, 3)) expect((await postMcp(base, answer.body.access_token)).status).toBe(200);
  });

  it("finds the keys of an IdP given none inline through its discovery document", async () => {
    const before = betaIdp.requests.length;
    const answer = await exchange(await mint({ iss: betaIdp.issuer, sub: "bob-sub", key: betaKey }));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(betaIdp.requests.slice(before)).toEqual(["/.well-known/openid-configuration", "/jwks"]);
    expect(decodeJwt(answer.body.access_token).sub).toBe(app.prepared.beta.bob.userId);
    const result = await callToolWithToken(base, answer.body.access_token, "service_markets_list", {});
    expect(result.isError).toBeFalsy();
    // Kept for a while: the next assertion fetches nothing.
    expect((await exchange(await mint({ iss: betaIdp.issuer, sub: "bob-sub", key: betaKey }))).status).toBe(200);
    expect(betaIdp.requests.length).toBe(before + 2);
  });

  it("narrows the token to the scopes both the assertion and the request name", async () => {
    const none = await exchange(await mint({ scope: "openid other.scope" }));
    expect(none.status).toBe(200);
    expect(none.body.scope).toBeUndefined();
    expect(decodeJwt(none.body.access_token).scope).toBeUndefined();
    const asked = await exchange(await mint({ scope: null }), { form: { scope: SCOPE } });
    expect(asked.body.scope).toBe(SCOPE);
    const narrowed = await exchange(await mint(), { form: { scope: "openid" } });
    expect(narrowed.body.scope).toBeUndefined();
  });
});

describe("what is refused, and why", () => {
  const refusedWith = async (
    answer: Promise<{ status: number; body: Record<string, unknown> }>,
    status: number,
    error: string,
    description: RegExp,
  ) => {
    const { status: got, body } = await answer;
    expect({ status: got, error: body.error }).toEqual({ status, error });
    expect(String(body.error_description)).toMatch(description);
    expect(body.access_token).toBeUndefined();
  };
  const now = () => Math.floor(Date.now() / 1000);

  it("an expired assertion, one issued in the future, and one that lives too long", async () => {
    await refusedWith(exchange(await mint({ iat: now() - 400, exp: now() - 100 })), 400, "invalid_grant", /expired/);
    await refusedWith(
      exchange(await mint({ iat: now() + 600, exp: now() + 900 })),
      400,
      "invalid_grant",
      /issued in the future/,
    );
    await refusedWith(exchange(await mint({ exp: now() + 3600 })), 400, "invalid_grant", /lives longer than 600 s/);
  });

  it("an assertion used twice (the same jti)", async () => {
    const assertion = await mint();
    expect((await exchange(assertion)).status).toBe(200);
    await refusedWith(exchange(assertion), 400, "invalid_grant", /already used/);
    // Another assertion with a seen jti is a replay too.
    const jti = randomUUID();
    expect((await exchange(await mint({ jti }))).status).toBe(200);
    await refusedWith(exchange(await mint({ jti })), 400, "invalid_grant", /already used/);
  });

  it("an assertion used twice after its exp, within the clock skew the check forgives", async () => {
    // Expired 5 s ago: still accepted once (30 s of skew), so its jti must be kept past exp too.
    const now = Math.floor(Date.now() / 1000);
    const late = { jti: randomUUID(), iat: now - 60, exp: now - 5 };
    expect((await exchange(await mint(late))).status).toBe(200);
    await refusedWith(exchange(await mint(late)), 400, "invalid_grant", /already used/);
  });

  it("an assertion for another authorization server, whatever Host the request names", async () => {
    await refusedWith(
      exchange(await mint({ aud: "https://as.other.example" })),
      400,
      "invalid_grant",
      /audience is not this authorization server/,
    );
    await refusedWith(exchange(await mint({ aud: `${base}/` })), 400, "invalid_grant", /audience/);
    // This server among others: an assertion meant for several is meant for none of them here.
    await refusedWith(
      exchange(await mint({ aud: [base, "https://as.other.example"] })),
      400,
      "invalid_grant",
      /audience must be this authorization server .* alone/,
    );
    // A forged Host cannot make the server expect the forger's audience.
    const forged = await hostileRequest(base, "/oauth/token", {
      method: "POST",
      headers: {
        Host: "evil.example",
        "X-Forwarded-Host": "evil.example",
        "Content-Type": "application/x-www-form-urlencoded",
        Authorization: basic(client),
      },
      body: new URLSearchParams({
        grant_type: JWT_BEARER,
        assertion: await mint({ aud: "http://evil.example" }),
      }).toString(),
    });
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body)).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringMatching(/audience/),
    });
    expect(forged.body).not.toContain("evil.example");
  });

  it("an unknown issuer, a wrong typ, a foreign key, and what is no JWT", async () => {
    await refusedWith(
      exchange(await mint({ iss: "https://idp.unknown.example" })),
      400,
      "invalid_grant",
      /issuer https:\/\/idp\.unknown\.example is not the identity provider of any organization/,
    );
    await refusedWith(
      exchange(await mint({ typ: "JWT" })),
      400,
      "invalid_grant",
      /typ header is "JWT", not oauth-id-jag\+jwt/,
    );
    await refusedWith(
      exchange(await mint({ key: betaKey, kid: "acme-1" })),
      400,
      "invalid_grant",
      /signature does not verify/,
    );
    await refusedWith(
      exchange(await mint({ key: betaKey })),
      400,
      "invalid_grant",
      /no key of the identity provider matches/,
    );
    await refusedWith(exchange("not-a-jwt"), 400, "invalid_grant", /not a signed JWT/);
    await refusedWith(exchange(""), 400, "invalid_request", /assertion/);
  });

  it("assertions naming an IdP that is down: refused, and its host asked once however many arrive", async () => {
    // Anyone may send assertions that name an organization's issuer; none may make us hammer its host.
    const assertion = () => mint({ iss: downIdp.issuer, sub: "anyone", key: betaKey });
    const together = await Promise.all(Array.from({ length: 30 }, async () => exchange(await assertion())));
    const inTurn = [];
    for (let i = 0; i < 10; i++) inTurn.push(await exchange(await assertion()));
    for (const answer of [...together, ...inTurn]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        error: "invalid_grant",
        error_description: expect.stringMatching(/discovery document at .* answered HTTP 503/),
      });
    }
    expect(downIdp.requests).toEqual(["/.well-known/openid-configuration"]);
  });

  it("an unknown subject, and a subject of another organization's IdP", async () => {
    await refusedWith(
      exchange(await mint({ sub: "nobody" })),
      400,
      "invalid_grant",
      /subject is not linked to a member of the organization/,
    );
    // Bob is Beta's; Alice is Acme's: Beta's IdP cannot vouch for Acme's people.
    await refusedWith(
      exchange(await mint({ iss: betaIdp.issuer, key: betaKey, sub: "alice-sub" })),
      400,
      "invalid_grant",
      /subject is not linked/,
    );
    await refusedWith(exchange(await mint({ sub: "bob-sub" })), 400, "invalid_grant", /subject is not linked/);
    // A member's e-mail address finds no one: only the subject's link does (docs/enterprise-mcp.md).
    const [alice] = (
      (await dashboardCall(base, app.prepared.acme.owner.session, "members.list")).data as {
        members: { userId: string; email: string }[];
      }
    ).members.filter((m) => m.userId === app.prepared.acme.alice.userId);
    expect(alice?.email).toMatch(/@acme\.example$/);
    await refusedWith(
      exchange(await mint({ sub: "alice-new-sub", extra: { email: alice?.email } })),
      400,
      "invalid_grant",
      /subject is not linked.*alice-new-sub/,
    );
  });

  it("an assertion issued to another client, or for another resource", async () => {
    await refusedWith(
      exchange(await mint({ client_id: otherClient.id })),
      400,
      "invalid_grant",
      /issued to client .* not to the client presenting it/,
    );
    await refusedWith(exchange(await mint(), { as: otherClient }), 400, "invalid_grant", /issued to client/);
    await refusedWith(
      exchange(await mint({ resource: "https://mcp.other.example/mcp" })),
      400,
      "invalid_grant",
      /for the resource https:\/\/mcp\.other\.example\/mcp/,
    );
    await refusedWith(
      exchange(await mint(), { form: { resource: "https://mcp.other.example/mcp" } }),
      400,
      "invalid_target",
      /only resource/,
    );
    // No resource claim: the only resource here.
    const bare = await exchange(await mint({ resource: null }));
    expect(bare.status).toBe(200);
    expect(decodeJwt(bare.body.access_token).aud).toBe(`${base}/mcp`);
  });

  it("clients that may not use the grant: unregistered for it, public, or with a wrong secret", async () => {
    const codeOnly = await registerClient({
      grant_types: ["authorization_code"],
      response_types: ["code"],
      redirect_uris: ["http://127.0.0.1:33418/callback"],
    });
    await refusedWith(
      exchange(await mint({ client_id: codeOnly.id }), { as: codeOnly }),
      400,
      "unauthorized_client",
      /not registered for the grant type urn:ietf:params:oauth:grant-type:jwt-bearer/,
    );
    const publicClient = await registerClient({ token_endpoint_auth_method: "none" });
    const response = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: JWT_BEARER,
        client_id: publicClient.id,
        assertion: await mint({ client_id: publicClient.id }),
      }).toString(),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "invalid_client",
      error_description: expect.stringMatching(/needs an authenticated client/),
    });
    await refusedWith(
      exchange(await mint(), { as: { id: client.id, secret: "wrong" } }),
      401,
      "invalid_client",
      /client authentication failed/,
    );
  });

  it("a removed member: their assertions are refused and the tokens they had stop", async () => {
    const { acme } = app.prepared;
    const before = await exchange(await mint({ sub: "carol-sub" }));
    expect(before.status).toBe(200);
    expect((await postMcp(base, before.body.access_token)).status).toBe(200);
    const removed = await dashboardCall(
      base,
      acme.owner.session,
      "members.remove",
      { userId: acme.carol.userId },
      { mutation: true },
    );
    expect(removed.status, JSON.stringify(removed)).toBe(200);
    expect(removed.data).toMatchObject({ revokedConnections: 1 });
    const after = await postMcp(base, before.body.access_token);
    expect(after.status).toBe(401);
    await refusedWith(
      exchange(await mint({ sub: "carol-sub" })),
      400,
      "invalid_grant",
      /no longer a member of the organization/,
    );
  });

  it("a revoked connection: its tokens stop; a new assertion makes a new one", async () => {
    const first = await exchange(await mint({ client_id: otherClient.id }), { as: otherClient });
    expect(first.status).toBe(200);
    const gid = String(decodeJwt(first.body.access_token).gid);
    const revoked = await dashboardCall(
      base,
      app.prepared.acme.owner.session,
      "connections.revokeInOrganization",
      { grantId: gid },
      { mutation: true },
    );
    expect(revoked.status).toBe(200);
    expect((await postMcp(base, first.body.access_token)).status).toBe(401);
    const next = await exchange(await mint({ client_id: otherClient.id }), { as: otherClient });
    expect(next.status).toBe(200);
    expect(decodeJwt(next.body.access_token).gid).not.toBe(gid);
  });
});

describe("an IdP's key set at a private address", () => {
  it("is not fetched unless IDP_ALLOW_PRIVATE_HOSTS allows it", async () => {
    const before = betaIdp.requests.length;
    const assertion = await mint({ iss: betaIdp.issuer, sub: "bob-sub", key: betaKey });
    // The IdP as configured (http on loopback), and as it would be over https: neither is asked.
    const plain = idpKeys({ issuer: betaIdp.issuer, jwks: null }, { allowPrivate: false });
    await expect(jwtVerify(assertion, plain)).rejects.toThrow(/discovery document .* could not be fetched: .*https/);
    const secure = idpKeys({ issuer: betaIdp.issuer.replace("http:", "https:"), jwks: null }, { allowPrivate: false });
    await expect(jwtVerify(assertion, secure)).rejects.toThrow(
      /could not be fetched: .*private, loopback or link-local address/,
    );
    expect(betaIdp.requests.length).toBe(before);
    // Allowed (as the app of this file is), the same IdP is asked.
    const allowed = idpKeys({ issuer: betaIdp.issuer, jwks: null }, { allowPrivate: true });
    expect((await jwtVerify(assertion, allowed)).payload.sub).toBe("bob-sub");
    expect(betaIdp.requests.length).toBe(before + 2);
  });
});
