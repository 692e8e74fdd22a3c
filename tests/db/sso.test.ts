/**
 * Dashboard sign-in through an organization's own OpenID Connect IdP, through the two route
 * handlers (server/6-auth/sso.ts) against a real IdP (oidc-provider in this process,
 * tests/helpers/test-idp.ts): just-in-time membership with the default role, a next-auth database
 * session, ID tokens that openid-client must refuse (wrong nonce, issuer, audience, expiry or
 * signature), addresses outside the verified domains, another organization's IdP, a forged Host,
 * and de-provisioning when the IdP refuses the person's refresh token (or cannot be reached).
 */
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiTokens, auditEvents, authSessions, identityLinks, memberships, users } from "@/db/schema";
import { createApiToken, TOKEN_SCOPES } from "@/server/4-api-access/tokens";
import {
  claimDomain,
  identityProviderClientSecret,
  linkIdentity,
  setIdentityProvider,
  verifyDomain,
} from "@/server/4-identity/identity-providers";
import { recheckIdentityLinks, ssoRequiredFor } from "@/server/4-identity/sso";
import { createInvitation, invitationByToken } from "@/server/4-organizations/invitations";
import { ssoCallback, ssoStart, stillSignedIn } from "@/server/6-auth/sso";
import { addPerson, organization } from "../helpers/accounts";
import { runOps } from "../helpers/cli";
import { dashboardCallerAs, testDatabase } from "../helpers/database";
import { startTestIdp, type TestIdp, type TestIdpAccount } from "../helpers/test-idp";

/** The public origin of a test process without APP_URL (server/2-http/origin.ts): localhost on PORT 3000. */
const ORIGIN = "http://localhost:3000";
const REDIRECT_URI = `${ORIGIN}/api/auth/sso/callback`;

const database = testDatabase();
let acmeIdp: TestIdp;
let betaIdp: TestIdp;
let acmeId: string;
let betaId: string;
const saved = { private: process.env.IDP_ALLOW_PRIVATE_HOSTS, recheck: process.env.SSO_RECHECK_SECONDS };

async function organizationWithIdp(name: string, idp: TestIdp, domain: string) {
  const org = await organization(database.db, name, { homeCountry: "XC", credits: 0 });
  idp.addClient({ clientId: `dashboard-${name}`, clientSecret: `secret-${name}`, redirectUris: [REDIRECT_URI] });
  await setIdentityProvider(database.db, {
    organizationId: org.id,
    issuer: idp.issuer,
    clientId: `dashboard-${name}`,
    clientSecret: `secret-${name}`,
    jwks: null,
    defaultRole: "member",
    requireSso: false,
  });
  const claim = await claimDomain(database.db, org.id, domain);
  expect((await verifyDomain(database.db, org.id, domain, async () => [claim.recordValue])).verified).toBe(true);
  return org.id;
}

beforeAll(async () => {
  process.env.IDP_ALLOW_PRIVATE_HOSTS = "1";
  const geographies = path.resolve(import.meta.dirname, "../fixtures/geographies.yaml");
  expect((await runOps(database, ["catalog", "publish", geographies])).code).toBe(0);
  acmeIdp = await startTestIdp();
  betaIdp = await startTestIdp();
  acmeId = await organizationWithIdp("Acme", acmeIdp, "acme.example");
  betaId = await organizationWithIdp("Beta", betaIdp, "beta.example");
});
afterAll(async () => {
  for (const [name, value] of [
    ["IDP_ALLOW_PRIVATE_HOSTS", saved.private],
    ["SSO_RECHECK_SECONDS", saved.recheck],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  await acmeIdp?.close();
  await betaIdp?.close();
});
beforeEach(() => {
  acmeIdp.tamperIdTokens(null);
  delete process.env.SSO_RECHECK_SECONDS;
});

const firstCookie = (response: Response) => response.headers.getSetCookie()[0]?.split(";")[0] ?? "";

/** The sign-in page's form, posted. */
function start(email: string, headers: Record<string, string> = {}) {
  return ssoStart(
    new Request(`${ORIGIN}/api/auth/sso/start`, {
      method: "POST",
      headers: { origin: ORIGIN, ...headers },
      body: new URLSearchParams({ email, callbackUrl: "/members" }),
    }),
    database.db,
  );
}

/** A person's whole round trip: the form, the IdP (signing in `account`), the callback. */
async function signIn(email: string, idp: TestIdp, account: TestIdpAccount | null) {
  const started = await start(email);
  expect(started.status).toBe(303);
  const authorization = new URL(started.headers.get("location") ?? "");
  expect(authorization.origin).toBe(idp.issuer);
  idp.signInAs(account);
  const back = await idp.authorize(authorization);
  const answer = await ssoCallback(new Request(back, { headers: { cookie: firstCookie(started) } }), database.db);
  expect(answer.status).toBe(303);
  const location = new URL(answer.headers.get("location") ?? "");
  const session = answer.headers
    .getSetCookie()
    .find((c) => c.startsWith("authjs.session-token="))
    ?.split(";")[0]
    ?.split("=")[1];
  return { location, session, cookies: answer.headers.getSetCookie(), authorization };
}

const userByEmail = async (email: string) => (await database.db.select().from(users).where(eq(users.email, email)))[0];
const membership = async (organizationId: string, userId: string) =>
  (
    await database.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
  )[0];
const sessionsOf = (userId: string) => database.db.select().from(authSessions).where(eq(authSessions.userId, userId));
const actions = async (organizationId: string, action: string) =>
  database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.action, action)));

describe("sign-in through the organization's IdP", () => {
  it("sends the person to their IdP with PKCE S256, state, nonce and the redirect URI on the public origin", async () => {
    const started = await start("ada@acme.example");
    const url = new URL(started.headers.get("location") ?? "");
    expect(url.origin).toBe(acmeIdp.issuer);
    expect(url.searchParams.get("redirect_uri")).toBe(REDIRECT_URI);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(url.searchParams.get("scope")).toBe("openid email offline_access");
    const cookie = started.headers.getSetCookie()[0] ?? "";
    expect(cookie).toMatch(/^mps\.sso=v1\./);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Path=/api/auth/sso/callback");
    // Sealed: neither the verifier nor the state can be read from it.
    expect(cookie).not.toContain(url.searchParams.get("state"));
  });

  it("a forged Host or X-Forwarded-Host does not change the redirect URI", async () => {
    const forged: Record<string, string>[] = [
      { host: "evil.example" },
      { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    ];
    for (const headers of forged) {
      const started = await start("ada@acme.example", headers);
      const url = new URL(started.headers.get("location") ?? "");
      expect(url.searchParams.get("redirect_uri")).toBe(REDIRECT_URI);
    }
  });

  it("refuses a start posted from another site", async () => {
    const started = await start("ada@acme.example", { origin: "https://evil.example" });
    expect(started.headers.get("location")).toBe(`${ORIGIN}/signin?sso_error=expired`);
  });

  it("every request to the IdP goes through the outbound guard: a loopback IdP is refused outside tests", async () => {
    process.env.IDP_ALLOW_PRIVATE_HOSTS = "0";
    try {
      const started = await start("ada@acme.example");
      expect(started.headers.get("location")).toBe(`${ORIGIN}/signin?sso_error=unavailable`);
    } finally {
      process.env.IDP_ALLOW_PRIVATE_HOSTS = "1";
    }
  });

  it("an address of no verified domain is not sent anywhere", async () => {
    const started = await start("ada@unclaimed.example");
    expect(started.headers.get("location")).toBe(`${ORIGIN}/signin?sso_error=not_configured`);
  });

  it("joins a new person with the default role, links them, and gives a next-auth session", async () => {
    const { location, session } = await signIn("ada@acme.example", acmeIdp, { id: "ada-1", email: "ada@acme.example" });
    expect(location.href).toBe(`${ORIGIN}/members`);
    expect(session).toMatch(/^[0-9a-f]{64}$/);
    const ada = await userByEmail("ada@acme.example");
    expect(ada?.activeOrganizationId).toBe(acmeId);
    expect(ada?.emailVerified).toBeInstanceOf(Date);
    expect((await membership(acmeId, ada?.id ?? ""))?.role).toBe("member");
    const [row] = await sessionsOf(ada?.id ?? "");
    expect(row?.sessionToken).toBe(session);
    const [link] = await database.db
      .select()
      .from(identityLinks)
      .where(eq(identityLinks.userId, ada?.id ?? ""));
    expect(link?.subject).toBe("ada-1");
    expect(link?.refreshTokenSealed).toMatch(/^v1\./);
    const joins = await actions(acmeId, "member.sso_join");
    expect(joins.map((e) => [e.targetId, e.details])).toEqual([[ada?.id, { role: "member", issuer: acmeIdp.issuer }]]);
    // Again: the same member, no second join.
    await signIn("ada@acme.example", acmeIdp, { id: "ada-1", email: "ada@acme.example" });
    expect(await actions(acmeId, "member.sso_join")).toHaveLength(1);
    expect(await sessionsOf(ada?.id ?? "")).toHaveLength(2);
  });

  const tampered: [string, Parameters<TestIdp["tamperIdTokens"]>[0], boolean][] = [
    ["a nonce of another sign-in", (c) => ({ ...c, nonce: "not-the-nonce" }), false],
    ["another issuer", (c) => ({ ...c, iss: "https://other-idp.example" }), false],
    ["another audience", (c) => ({ ...c, aud: "someone-else" }), false],
    ["an expired token", (c) => ({ ...c, iat: 1_000_000, exp: 1_000_600 }), false],
    ["a signature by a key the IdP never published", (c) => c, true],
  ];
  for (const [what, change, foreignKey] of tampered)
    it(`refuses an ID token with ${what}`, async () => {
      acmeIdp.tamperIdTokens(change, { foreignKey });
      const email = `tamper-${Math.random().toString(36).slice(2, 8)}@acme.example`;
      const { location, session } = await signIn(email, acmeIdp, { id: email, email });
      expect(location.href).toBe(`${ORIGIN}/signin?sso_error=invalid`);
      expect(session).toBeUndefined();
      expect(await userByEmail(email)).toBeUndefined();
    });

  it("the same ID token untampered but re-signed by the IdP's own key is accepted (the tampering is what is refused)", async () => {
    acmeIdp.tamperIdTokens((c) => c);
    const { location } = await signIn("resigned@acme.example", acmeIdp, { id: "re-1", email: "resigned@acme.example" });
    expect(location.href).toBe(`${ORIGIN}/members`);
  });

  it("refuses an IdP account whose address is outside the verified domains, or unverified", async () => {
    const outside = await signIn("bob@acme.example", acmeIdp, { id: "bob-1", email: "bob@elsewhere.example" });
    expect(outside.location.href).toBe(`${ORIGIN}/signin?sso_error=domain`);
    expect(await userByEmail("bob@elsewhere.example")).toBeUndefined();
    const unverified = await signIn("bob@acme.example", acmeIdp, {
      id: "bob-1",
      email: "bob@acme.example",
      emailVerified: false,
    });
    expect(unverified.location.href).toBe(`${ORIGIN}/signin?sso_error=no_email`);
    expect(await userByEmail("bob@acme.example")).toBeUndefined();
  });

  it("another organization's IdP cannot sign anyone into this organization", async () => {
    // Beta's IdP vouches for an Acme address: Acme's domain is not Beta's, so nobody is signed in.
    const { location } = await signIn("carol@beta.example", betaIdp, { id: "carol-1", email: "ada@acme.example" });
    expect(location.href).toBe(`${ORIGIN}/signin?sso_error=domain`);
    // Beta's own people land in Beta, never in Acme.
    const own = await signIn("dan@beta.example", betaIdp, { id: "dan-1", email: "dan@beta.example" });
    expect(own.location.href).toBe(`${ORIGIN}/members`);
    const dan = await userByEmail("dan@beta.example");
    expect((await membership(betaId, dan?.id ?? ""))?.role).toBe("member");
    expect(await membership(acmeId, dan?.id ?? "")).toBeUndefined();
  });

  it("a return without the sealed cookie, or with a state of another sign-in, is refused", async () => {
    const started = await start("ada@acme.example");
    acmeIdp.signInAs({ id: "ada-1", email: "ada@acme.example" });
    const back = await acmeIdp.authorize(started.headers.get("location") ?? "");
    const bare = await ssoCallback(new Request(back), database.db);
    expect(bare.headers.get("location")).toBe(`${ORIGIN}/signin?sso_error=expired`);
    const other = await start("ada@acme.example");
    const crossed = await ssoCallback(new Request(back, { headers: { cookie: firstCookie(other) } }), database.db);
    expect(crossed.headers.get("location")).toBe(`${ORIGIN}/signin?sso_error=invalid`);
  });

  it("a second IdP account for an address linked to another one is refused", async () => {
    await signIn("erin@acme.example", acmeIdp, { id: "erin-1", email: "erin@acme.example" });
    const { location } = await signIn("erin@acme.example", acmeIdp, { id: "erin-2", email: "erin@acme.example" });
    expect(location.href).toBe(`${ORIGIN}/signin?sso_error=subject`);
    const erin = await userByEmail("erin@acme.example");
    const [link] = await database.db
      .select()
      .from(identityLinks)
      .where(eq(identityLinks.userId, erin?.id ?? ""));
    expect(link?.subject).toBe("erin-1");
  });

  it("a linked person whose address the IdP changed stays the same person here", async () => {
    await signIn("jo@acme.example", acmeIdp, { id: "jo-1", email: "jo@acme.example" });
    const jo = await userByEmail("jo@acme.example");
    const { location } = await signIn("joanna@acme.example", acmeIdp, { id: "jo-1", email: "joanna@acme.example" });
    expect(location.href).toBe(`${ORIGIN}/members`);
    expect(await userByEmail("joanna@acme.example")).toBeUndefined();
    expect((await sessionsOf(jo?.id ?? "")).length).toBe(2);
    expect((await actions(acmeId, "member.sso_join")).filter((e) => e.targetId === jo?.id)).toHaveLength(1);
  });

  it("required SSO applies to the verified domains only", async () => {
    expect(await ssoRequiredFor(database.db, "ada@acme.example")).toBe(false);
    await setIdentityProvider(database.db, {
      organizationId: acmeId,
      issuer: acmeIdp.issuer,
      clientId: "dashboard-Acme",
      clientSecret: "secret-Acme",
      jwks: null,
      defaultRole: "member",
      requireSso: true,
    });
    expect(await ssoRequiredFor(database.db, "Ada@ACME.example")).toBe(true);
    expect(await ssoRequiredFor(database.db, "ada@beta.example")).toBe(false);
    expect(await ssoRequiredFor(database.db, "ada@unclaimed.example")).toBe(false);
  });
});

describe("de-provisioning at the token refresh", () => {
  it("the IdP refusing the refresh token removes the member, revokes their tokens and ends their session", async () => {
    await signIn("fay@acme.example", acmeIdp, { id: "fay-1", email: "fay@acme.example" });
    const fay = await userByEmail("fay@acme.example");
    const userId = fay?.id ?? "";
    const { token } = await createApiToken(database.db, {
      organizationId: acmeId,
      name: "fay's",
      scopes: TOKEN_SCOPES,
      createdByUserId: userId,
    });
    // Not due yet: nothing is asked.
    expect(await stillSignedIn(userId, database.db)).toBe(true);
    process.env.SSO_RECHECK_SECONDS = "0";
    // Due, and the IdP still knows her: confirmed, still a member.
    expect(await stillSignedIn(userId, database.db)).toBe(true);
    expect(await membership(acmeId, userId)).toBeDefined();
    await acmeIdp.revoke("fay-1");
    expect(await stillSignedIn(userId, database.db)).toBe(false);
    expect(await membership(acmeId, userId)).toBeUndefined();
    expect(await sessionsOf(userId)).toEqual([]);
    const [revoked] = await database.db.select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
    const [event] = await actions(acmeId, "member.sso_deprovision");
    expect(event?.actorKind).toBe("system");
    expect(event?.targetId).toBe(userId);
    expect(event?.details).toMatchObject({ role: "member", revokedTokens: 1, issuer: acmeIdp.issuer });
  });

  it("a due link is asked about once, however many requests arrive together", async () => {
    await signIn("ivy@acme.example", acmeIdp, { id: "ivy-1", email: "ivy@acme.example" });
    const ivy = await userByEmail("ivy@acme.example");
    // Due under the default interval: last asked an hour ago. (An interval of 0 would make every
    // later request due again, so it cannot tell "asked once" from "asked in turn".)
    delete process.env.SSO_RECHECK_SECONDS;
    await database.db
      .update(identityLinks)
      .set({ checkedAt: new Date(Date.now() - 3_600_000) })
      .where(eq(identityLinks.userId, ivy?.id ?? ""));
    const results = await Promise.all(
      Array.from({ length: 8 }, () => recheckIdentityLinks(database.db, ivy?.id ?? "")),
    );
    expect(results.flatMap((r) => r.outcomes)).toEqual(["confirmed"]);
    // Just confirmed: nothing is due.
    expect((await recheckIdentityLinks(database.db, ivy?.id ?? "")).outcomes).toEqual([]);
  });

  it("an IdP that cannot be reached removes nobody", async () => {
    await signIn("gus@acme.example", acmeIdp, { id: "gus-1", email: "gus@acme.example" });
    const gus = await userByEmail("gus@acme.example");
    process.env.SSO_RECHECK_SECONDS = "0";
    await acmeIdp.pause();
    try {
      expect(await stillSignedIn(gus?.id ?? "", database.db)).toBe(true);
    } finally {
      await acmeIdp.resume();
    }
    expect(await membership(acmeId, gus?.id ?? "")).toBeDefined();
    expect(await sessionsOf(gus?.id ?? "")).toHaveLength(1);
    expect(await actions(acmeId, "member.sso_deprovision")).toHaveLength(1); // fay's only
  });

  it("access_denied at sign-in for a linked person asks the IdP if their link is due; gone there, they are removed", async () => {
    await signIn("hal@acme.example", acmeIdp, { id: "hal-1", email: "hal@acme.example" });
    const hal = await userByEmail("hal@acme.example");
    await acmeIdp.revoke("hal-1");
    // Just checked: a denial asks nothing (anyone can bring one back for any address).
    expect((await signIn("hal@acme.example", acmeIdp, null)).location.href).toBe(`${ORIGIN}/signin?sso_error=denied`);
    expect(await membership(acmeId, hal?.id ?? "")).toBeDefined();
    // Due: the denial asks the IdP, which no longer knows them.
    await database.db
      .update(identityLinks)
      .set({ checkedAt: new Date(Date.now() - 3_600_000) })
      .where(eq(identityLinks.userId, hal?.id ?? ""));
    const { location } = await signIn("hal@acme.example", acmeIdp, null);
    expect(location.href).toBe(`${ORIGIN}/signin?sso_error=denied`);
    expect(await membership(acmeId, hal?.id ?? "")).toBeUndefined();
    expect(await sessionsOf(hal?.id ?? "")).toEqual([]);
  });

  it("denials forged for someone else's address, many at once, spend their refresh token at most once a period", async () => {
    await signIn("ida@acme.example", acmeIdp, { id: "ida-1", email: "ida@acme.example" });
    const ida = await userByEmail("ida@acme.example");
    const linkOf = async () =>
      (
        await database.db
          .select()
          .from(identityLinks)
          .where(eq(identityLinks.userId, ida?.id ?? ""))
      )[0];
    const before = await linkOf();
    // An outsider starts sign-ins for her address and brings back access_denied for each.
    const forge = async () => {
      const started = await start("ida@acme.example");
      const state = new URL(started.headers.get("location") ?? "").searchParams.get("state");
      const back = new URL(REDIRECT_URI);
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("state", state ?? "");
      back.searchParams.set("iss", acmeIdp.issuer);
      const answer = await ssoCallback(new Request(back, { headers: { cookie: firstCookie(started) } }), database.db);
      return answer.headers.get("location");
    };
    const answers = await Promise.all(Array.from({ length: 6 }, forge));
    expect(answers).toEqual(Array(6).fill(`${ORIGIN}/signin?sso_error=denied`));
    // Not due: her link was not asked about (its refresh token unspent), and she is still a member.
    const after = await linkOf();
    expect(after?.checkedAt).toEqual(before?.checkedAt);
    expect(after?.refreshTokenSealed).toBe(before?.refreshTokenSealed);
    expect(await membership(acmeId, ida?.id ?? "")).toBeDefined();
    expect(await sessionsOf(ida?.id ?? "")).toHaveLength(1);
  });
});

describe("the owner's identity provider page (tRPC)", () => {
  it("an owner sets the IdP and its domains, sees the TXT records and redirect URI, never the secret; verifies; removes", async () => {
    const org = await organization(database.db, "Gamma", { homeCountry: "XC", credits: 0 });
    const owner = await dashboardCallerAs(database.db, org.userId);
    expect((await owner.identityProvider.show()).provider).toBeNull();
    const saved = await owner.identityProvider.set({
      issuer: "https://login.gamma.example/",
      clientId: "dash",
      clientSecret: "gamma-secret-value",
      domains: ["Gamma.Example", "gamma.example"],
      defaultRole: "billing",
      requireSso: true,
    });
    expect(saved).toMatchObject({ issuer: "https://login.gamma.example/", domains: ["gamma.example"] });
    const shown = await owner.identityProvider.show();
    expect(shown.redirectUri).toBe("http://dashboard.test/api/auth/sso/callback");
    expect(shown.provider).toMatchObject({
      clientId: "dash",
      hasClientSecret: true,
      defaultRole: "billing",
      requireSso: true,
    });
    expect(JSON.stringify(shown)).not.toContain("gamma-secret-value");
    const [claim] = shown.provider?.domains ?? [];
    expect(claim?.recordName).toBe("_market-positioning.gamma.example");
    expect(claim?.verifiedAt).toBeNull();
    // Saved again without a secret: the stored one is kept (same IdP, same client).
    await owner.identityProvider.set({
      issuer: "https://login.gamma.example/",
      clientId: "dash",
      clientSecret: null,
      domains: ["gamma.example"],
      defaultRole: "member",
      requireSso: false,
    });
    expect((await owner.identityProvider.show()).provider?.hasClientSecret).toBe(true);
    // Another issuer, no secret given: the stored one is never sent to it; it must be given again.
    await expect(
      owner.identityProvider.set({
        issuer: "https://login.elsewhere.example",
        clientId: "dash",
        clientSecret: null,
        domains: ["gamma.example"],
        defaultRole: "member",
        requireSso: false,
      }),
    ).rejects.toThrow(/client id and its secret together/);
    expect((await owner.identityProvider.show()).provider?.issuer).toBe("https://login.gamma.example/");
    // No TXT record anywhere (no resolver answers for it): not verified, nothing audited.
    process.env.DNS_SERVERS = "127.0.0.1:9";
    try {
      await expect(owner.identityProvider.verify({ domain: "gamma.example" })).rejects.toThrow(/Not verified/);
    } finally {
      delete process.env.DNS_SERVERS;
    }
    expect(await actions(org.id, "domain.verify")).toHaveLength(0);
    expect(await actions(org.id, "identity_provider.set")).toHaveLength(2);
    await owner.identityProvider.remove();
    expect((await owner.identityProvider.show()).provider).toBeNull();
    expect(await actions(org.id, "identity_provider.remove")).toHaveLength(1);
  });

  it("shows what the IdP needs for ID-JAGs and who is linked; sets inline keys, refusing private or broken ones", async () => {
    const org = await organization(database.db, "Epsilon <b>", { homeCountry: "XC", credits: 0 });
    const owner = await dashboardCallerAs(database.db, org.userId);
    await expect(owner.identityProvider.setKeys({ jwks: null })).rejects.toThrow(/no identity provider/);
    await owner.identityProvider.set({
      issuer: "https://login.epsilon.example",
      clientId: "dash",
      clientSecret: "epsilon-secret",
      domains: ["epsilon.example"],
      defaultRole: "member",
      requireSso: false,
    });
    const shown = await owner.identityProvider.show();
    expect(shown.mcp).toEqual({
      audience: "http://dashboard.test",
      tokenEndpoint: "http://dashboard.test/oauth/token",
      resource: "http://dashboard.test/mcp",
      grantType: "urn:ietf:params:oauth:grant-type:jwt-bearer",
    });
    expect(shown.links).toEqual([]);
    await linkIdentity(database.db, {
      organizationId: org.id,
      subject: "eps|owner",
      userId: org.userId,
      refreshToken: null,
    });
    expect((await owner.identityProvider.show()).links).toMatchObject([{ userId: org.userId, subject: "eps|owner" }]);

    const key = {
      kty: "EC",
      crv: "P-256",
      x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
      y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
    };
    await expect(
      owner.identityProvider.setKeys({ jwks: JSON.stringify({ keys: [{ ...key, d: "private" }] }) }),
    ).rejects.toThrow(/private key/);
    await expect(owner.identityProvider.setKeys({ jwks: "{not json" })).rejects.toThrow(/not JSON/);
    expect(await owner.identityProvider.setKeys({ jwks: JSON.stringify({ keys: [key] }) })).toMatchObject({
      inlineKeys: 1,
    });
    const withKeys = (await owner.identityProvider.show()).provider;
    expect(withKeys?.jwks?.keys).toHaveLength(1);
    // The other settings, the secret included, are kept.
    expect(withKeys).toMatchObject({
      clientId: "dash",
      hasClientSecret: true,
      issuer: "https://login.epsilon.example",
    });
    expect(await identityProviderClientSecret(database.db, org.id)).toBe("epsilon-secret");
    await owner.identityProvider.setKeys({ jwks: null });
    expect((await owner.identityProvider.show()).provider?.jwks).toBeNull();
    expect(await actions(org.id, "identity_provider.set")).toHaveLength(3);
  });

  it("is for owners only: an admin is refused (sso.manage)", async () => {
    const org = await organization(database.db, "Delta", { homeCountry: "XC", credits: 0 });
    const { id: adminId } = await addPerson(database.db, {
      organizationId: org.id,
      role: "admin",
      active: true,
      email: "admin@delta.example",
      verified: false,
    });
    const admin = await dashboardCallerAs(database.db, adminId);
    await expect(admin.identityProvider.show()).rejects.toThrow(/sso.manage/);
    await expect(
      admin.identityProvider.set({
        issuer: "https://login.delta.example",
        clientId: null,
        clientSecret: null,
        domains: ["delta.example"],
        defaultRole: "member",
        requireSso: false,
      }),
    ).rejects.toThrow(/sso.manage/);
  });
});

describe("what an IdP, an outsider or a departing member cannot do", () => {
  /** Someone of Acme who signed in without the IdP (an e-mail link), with a session. */
  async function unlinkedPerson(email: string, role: "owner" | "member") {
    const { id: userId } = await addPerson(database.db, { organizationId: acmeId, role, email });
    await database.db
      .insert(authSessions)
      .values({ sessionToken: `s-${userId}`, userId, expires: new Date(Date.now() + 86_400_000) });
    return userId;
  }

  it("required SSO ends a session made without it at its next request, and keeps those made through it", async () => {
    expect(await ssoRequiredFor(database.db, "old@acme.example")).toBe(true); // required since above
    const old = await unlinkedPerson("old@acme.example", "member");
    expect(await stillSignedIn(old, database.db)).toBe(false);
    expect(await sessionsOf(old)).toEqual([]);
    await signIn("pat@acme.example", acmeIdp, { id: "pat-1", email: "pat@acme.example" });
    const pat = await userByEmail("pat@acme.example");
    expect(await stillSignedIn(pat?.id ?? "", database.db)).toBe(true);
  });

  it("an owner cannot require SSO from the page before signing in through it", async () => {
    const owner = await unlinkedPerson("olga@acme.example", "owner");
    const page = await dashboardCallerAs(database.db, owner);
    const settings = {
      issuer: acmeIdp.issuer,
      clientId: "dashboard-Acme",
      clientSecret: null,
      domains: ["acme.example"],
      defaultRole: "member" as const,
      requireSso: true,
    };
    await expect(page.identityProvider.set(settings)).rejects.toThrow(/Sign in through your identity provider once/);
    await signIn("olga@acme.example", acmeIdp, { id: "olga-1", email: "olga@acme.example" });
    await expect(page.identityProvider.set(settings)).resolves.toMatchObject({ requireSso: true });
  });

  it("a subject linked to someone outside the proved domains is not signed in by the IdP", async () => {
    const [bob] = await database.db.insert(users).values({ email: "bob@other.example" }).returning();
    await database.db.insert(memberships).values({ organizationId: acmeId, userId: bob?.id ?? "", role: "member" });
    // Linked by the operator for ID-JAGs; the IdP then names that subject with an address of Acme's.
    await linkIdentity(database.db, {
      organizationId: acmeId,
      subject: "bob-sub",
      userId: bob?.id ?? "",
      refreshToken: null,
    });
    const { location } = await signIn("whoever@acme.example", acmeIdp, {
      id: "bob-sub",
      email: "whoever@acme.example",
    });
    expect(location.href).toBe(`${ORIGIN}/signin?sso_error=domain`);
    expect(await sessionsOf(bob?.id ?? "")).toEqual([]);
  });

  it("an address the IdP does not say is verified (boolean true), or that carries control characters, is refused", async () => {
    for (const [change, who] of [
      [(claims: Record<string, unknown>) => ({ ...claims, email_verified: "false" }), "quin"],
      // Only the boolean true is a verification: not "False", 0, "true" as text, nor no claim at all.
      [(claims: Record<string, unknown>) => ({ ...claims, email_verified: "False" }), "quincy"],
      [(claims: Record<string, unknown>) => ({ ...claims, email_verified: 0 }), "quentin"],
      [(claims: Record<string, unknown>) => ({ ...claims, email_verified: "true" }), "quinn"],
      [({ email_verified: _, ...claims }: Record<string, unknown>) => claims, "quill"],
      [(claims: Record<string, unknown>) => ({ ...claims, email: "rex\r\nbcc@acme.example" }), "rex"],
      [(claims: Record<string, unknown>) => ({ ...claims, email: `${"s".repeat(250)}@acme.example` }), "sam"],
    ] as const) {
      acmeIdp.tamperIdTokens(change);
      const { location } = await signIn(`${who}@acme.example`, acmeIdp, {
        id: `${who}-1`,
        email: `${who}@acme.example`,
      });
      expect(location.href, who).toBe(`${ORIGIN}/signin?sso_error=no_email`);
      expect(await userByEmail(`${who}@acme.example`)).toBeUndefined();
    }
  });

  it("a member the IdP removes takes the invitations they still had open with them", async () => {
    await signIn("una@acme.example", acmeIdp, { id: "una-1", email: "una@acme.example" });
    const una = await userByEmail("una@acme.example");
    await database.db
      .update(memberships)
      .set({ role: "admin" })
      .where(and(eq(memberships.organizationId, acmeId), eq(memberships.userId, una?.id ?? "")));
    // On her way out she invites her own address elsewhere, as an admin.
    const { token } = await createInvitation(database.db, {
      organizationId: acmeId,
      email: "una.private@mail.example",
      role: "admin",
      invitedByUserId: una?.id ?? null,
    });
    await acmeIdp.revoke("una-1");
    process.env.SSO_RECHECK_SECONDS = "0";
    expect(await stillSignedIn(una?.id ?? "", database.db)).toBe(false);
    expect(await invitationByToken(database.db, token)).toBeNull(); // no longer usable
    const [event] = (await actions(acmeId, "member.sso_deprovision")).filter((e) => e.targetId === una?.id);
    expect(event?.details).toMatchObject({ revokedInvitations: 1 });
  });
});
