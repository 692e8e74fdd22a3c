/**
 * OWASP API2:2023 Broken Authentication, tried against the running app. The headline attack: ask
 * for someone else's sign-in link while naming your own host (Host, X-Forwarded-Host, Forwarded),
 * so the mailed link — a one-time token — would reach your server when they click it. Every link,
 * issuer and problem URL must name the operator's origin, whatever the request says. Then the
 * credentials themselves: malformed, revoked, expired and other-audience tokens are refused alike.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database } from "@/db/client";
import { authSessions } from "@/db/schema";
import { appSecret } from "@/server/3-keys/app-secret";
import { claimDomain, setIdentityProvider, verifyDomain } from "@/server/4-identity/identity-providers";
import { addPerson, organization } from "../../helpers/accounts";
import { dashboardCall } from "../../helpers/dashboard";
import { askForSignInLink, hostileRequest } from "../../helpers/hostile";
import { outboxLinks } from "../../helpers/logs";
import { browse, CookieJar, postDecision, startAuthorization } from "../../helpers/oauth";
import { type OwnApp, startOwnApp } from "../../helpers/own-app";
import { startTestIdp, type TestIdp, type TestIdpAccount } from "../../helpers/test-idp";

const base = inject("appUrl");
const accounts = inject("accounts");
const port = new URL(base).port;
/** What a link may name: the app's own loopback origin, as the quick start serves it. */
const OWN = new RegExp(`^http://(localhost|127\\.0\\.0\\.1):${port}(/|$)`);

const FORGERIES: [string, Record<string, string>][] = [
  ["a forged Host", { Host: "evil.example" }],
  ["X-Forwarded-Host", { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" }],
  ["Forwarded", { Forwarded: "host=evil.example;proto=https" }],
  ["a loopback name on another port", { Host: "localhost:6666" }],
];

const askForLink = (email: string, forged: Record<string, string>) => askForSignInLink(base, email, forged);

describe("API2 Broken Authentication: a sign-in link never follows the request's host", () => {
  it.each(FORGERIES)("mails the victim a link to the real service despite %s", async (_what, forged) => {
    const victim = `victim-${Math.random().toString(36).slice(2)}@example.com`;
    const sent = await askForLink(victim, forged);
    expect(sent.status).toBe(302);
    expect(String(sent.headers.location)).not.toContain("evil.example");
    const links = await outboxLinks(base, victim);
    expect(links).toHaveLength(1);
    const [link] = links as [string];
    expect(link).toMatch(OWN);
    expect(link).not.toContain("evil.example");
    expect(new URL(link).pathname).toBe("/api/auth/callback/email");
  });

  it.each(FORGERIES)("names the real issuer and resource in OAuth metadata despite %s", async (_what, forged) => {
    for (const path of [
      "/.well-known/oauth-authorization-server",
      "/.well-known/openid-configuration",
      "/.well-known/oauth-protected-resource/mcp",
    ]) {
      const answer = await hostileRequest(base, path, { headers: forged });
      expect(answer.status, path).toBe(200);
      expect(answer.body, path).not.toContain("evil.example");
      expect(answer.body, path).not.toContain(":6666");
      const metadata = JSON.parse(answer.body) as { issuer?: string; resource?: string };
      expect(metadata.issuer ?? metadata.resource, path).toMatch(OWN);
    }
  });

  it.each(FORGERIES)(
    "writes problem links and the OpenAPI servers on the real origin despite %s",
    async (_w, forged) => {
      const problem = await hostileRequest(base, "/v1/markets/no-such-market", {
        headers: { ...forged, Authorization: `Bearer ${accounts.reader.token}` },
      });
      expect(problem.status).toBe(404);
      expect(JSON.parse(problem.body).type).toMatch(OWN);
      const challenge = await hostileRequest(base, "/mcp", { method: "POST", headers: forged, body: "{}" });
      expect(challenge.status).toBe(401);
      expect(String(challenge.headers["www-authenticate"])).not.toContain("evil.example");
      const document = await hostileRequest(base, "/v1/openapi.json", { headers: forged });
      expect(JSON.parse(document.body).servers[0].url).toMatch(OWN);
    },
  );
});

describe("API2 Broken Authentication: credentials", () => {
  it.each([
    ["no token", undefined],
    ["a revoked token", `Bearer ${accounts.tokens.revoked}`],
    ["an expired token", `Bearer ${accounts.tokens.expired}`],
    ["a token one character short", `Bearer ${accounts.reader.token.slice(0, -1)}`],
    ["a token in the wrong scheme", `Basic ${accounts.reader.token}`],
    ["a session cookie as a bearer token", `Bearer ${accounts.reader.session}`],
  ])("refuses %s with 401 and a Bearer challenge, on /v1 and /mcp", async (_what, authorization) => {
    const headers: Record<string, string> = authorization ? { Authorization: authorization } : {};
    const rest = await fetch(`${base}/v1/markets`, { headers });
    expect(rest.status).toBe(401);
    expect(rest.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect((await rest.json()).code).toBe("unauthorized");
    const mcp = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get("www-authenticate")).toMatch(/^Bearer .*resource_metadata=/);
  });

  it("does not tell a known address from an unknown one when asked for a link", async () => {
    const known = await askForLink("demo@example.com", {});
    const unknown = await askForLink(`nobody-${Date.now()}@example.com`, {});
    expect(known.status).toBe(unknown.status);
    expect(String(known.headers.location)).toBe(String(unknown.headers.location));
  });
});

/**
 * The consent decision trusts the session cookie as every dashboard page does: a session that
 * Require SSO ended (made by e-mail link before SSO was required) and the session of a person
 * their IdP has just refused (de-provisioned) are both signed out at the decision, which then
 * makes no MCP connection. An app of its own, with an IdP on loopback and every link due for a
 * recheck at each request (SSO_RECHECK_SECONDS=0).
 */
describe("API2 Broken Authentication: the consent decision checks the session as the dashboard does", () => {
  const SSO_CLIENT = { clientId: "dashboard-client", clientSecret: "dashboard-secret" };
  interface Prepared {
    strict: { id: string; ownerSession: string; early: { session: string } };
    dept: { id: string; ownerSession: string };
  }
  /** Each organization's own IdP (an issuer belongs to one organization). */
  let strictIdp: TestIdp;
  let deptIdp: TestIdp;
  let app: OwnApp<Prepared>;
  let ownBase: string;

  async function orgWithIdp(db: Database, name: string, idp: TestIdp, domain: string, requireSso: boolean) {
    const org = await organization(db, name, { credits: 100 });
    await setIdentityProvider(db, {
      organizationId: org.id,
      issuer: idp.issuer,
      ...SSO_CLIENT,
      jwks: null,
      defaultRole: "member",
      requireSso,
    });
    const claim = await claimDomain(db, org.id, domain);
    await verifyDomain(db, org.id, domain, async () => [claim.recordValue]);
    return org;
  }

  beforeAll(async () => {
    strictIdp = await startTestIdp();
    deptIdp = await startTestIdp();
    // The IdP's client secret is sealed here, before the app starts: the app must open it.
    const env = { IDP_ALLOW_PRIVATE_HOSTS: "1", SSO_RECHECK_SECONDS: "0", AUTH_SECRET: appSecret() };
    app = await startOwnApp(env, async (db) => {
      const strict = await orgWithIdp(db, "Strict", strictIdp, "strict.example", true);
      // Signed in by e-mail link before Strict required SSO: never through the IdP, no link.
      const early = await addPerson(db, {
        organizationId: strict.id,
        role: "member",
        active: true,
        email: "early@strict.example",
        verified: false,
      });
      const session = randomBytes(32).toString("hex");
      await db
        .insert(authSessions)
        .values({ sessionToken: session, userId: early.id, expires: new Date(Date.now() + 86_400_000) });
      const dept = await orgWithIdp(db, "Dept", deptIdp, "dept.example", false);
      return {
        strict: { id: strict.id, ownerSession: strict.session, early: { session } },
        dept: { id: dept.id, ownerSession: dept.session },
      };
    });
    ownBase = app.url;
    const port = new URL(ownBase).port;
    for (const idp of [strictIdp, deptIdp])
      idp.addClient({
        ...SSO_CLIENT,
        redirectUris: [`${ownBase}/api/auth/sso/callback`, `http://localhost:${port}/api/auth/sso/callback`],
      });
  });
  afterAll(async () => {
    await app?.close();
    await strictIdp?.close();
    await deptIdp?.close();
  });

  /** A dashboard session made the way a person makes one: through the organization's IdP. */
  async function signInThroughIdp(idp: TestIdp, account: TestIdpAccount): Promise<CookieJar> {
    const jar = new CookieJar();
    const start = await browse(jar, `${ownBase}/api/auth/sso/start`, {
      method: "POST",
      headers: { Origin: ownBase, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: account.email, callbackUrl: "/" }).toString(),
    });
    expect(start.status).toBe(303);
    idp.signInAs(account);
    const callback = await idp.authorize(start.headers.get("location") as string);
    const back = await browse(jar, `${ownBase}${callback.pathname}${callback.search}`);
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).not.toContain("sso_error");
    return jar;
  }

  /** An MCP client's authorization up to the consent decision; the decision's answer. */
  async function decide(jar: CookieJar, options: { viewConsent: boolean; beforeDecision?: () => Promise<void> }) {
    const { interaction, clientId } = await startAuthorization(ownBase, jar);
    if (options.viewConsent) expect((await browse(jar, interaction.href)).status).toBe(200);
    await options.beforeDecision?.();
    return { decided: await postDecision(ownBase, jar, interaction), clientId };
  }

  const connectionsOfClient = async (ownerSession: string, clientId: string) => {
    const list = await dashboardCall(ownBase, ownerSession, "connections.organizationList");
    expect(list.status).toBe(200);
    return (list.data as { clientId: string }[]).filter((c) => c.clientId === clientId);
  };

  it("refuses a session Require SSO ended, and makes no connection", async () => {
    const jar = new CookieJar(app.prepared.strict.early.session);
    // Straight to the decision: the consent page would have ended the session first.
    const { decided, clientId } = await decide(jar, { viewConsent: false });
    expect(decided.status).toBe(303);
    expect(decided.headers.get("location")).toContain("/signin");
    expect(await connectionsOfClient(app.prepared.strict.ownerSession, clientId)).toEqual([]);
    expect((await dashboardCall(ownBase, app.prepared.strict.early.session, "connections.list")).status).toBe(401);
  });

  it("refuses the session of a person their IdP has just refused, and makes no connection", async () => {
    const account = { id: "dee-sub", email: "dee@dept.example" };
    const jar = await signInThroughIdp(deptIdp, account);
    const { decided, clientId } = await decide(jar, {
      viewConsent: true,
      // Between the consent page and the decision, the IdP de-provisions them.
      beforeDecision: () => deptIdp.revoke(account.id),
    });
    expect(decided.status).toBe(303);
    expect(decided.headers.get("location")).toContain("/signin");
    expect(await connectionsOfClient(app.prepared.dept.ownerSession, clientId)).toEqual([]);
  });
});
