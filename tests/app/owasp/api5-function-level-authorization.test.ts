/**
 * OWASP API5:2023 Broken Function Level Authorization, tried against the running app: readings
 * need the Market.Read.All scope on every surface; the dashboard's changes need a session of the
 * dashboard's own origin; an operator's functions (grants, publishing) are on no HTTP surface; the
 * dev outbox and the metrics answer this machine only.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { organization } from "../../helpers/accounts";
import { dashboardCall } from "../../helpers/dashboard";
import {
  exchangeAssertion,
  type InlineIdp,
  inlineIdp,
  type JwtBearerClient,
  jwtBearerClient,
  memberWithSession,
  type SessionPerson,
} from "../../helpers/id-jag";
import { callToolWithToken, scopeRefusal } from "../../helpers/mcp";
import { browse, CookieJar, postDecision, startAuthorization } from "../../helpers/oauth";
import { type OwnApp, startOwnApp } from "../../helpers/own-app";
import { nonLoopbackUrl } from "../../helpers/server";
import { SERVED_TOOL_NAMES } from "../../helpers/spec";

const base = inject("appUrl");
const accounts = inject("accounts");

interface OpenApi {
  paths: Record<
    string,
    { get: { "x-credits"?: number; parameters?: { name: string; in: string; required?: boolean }[] } }
  >;
}

describe("API5: a token without the scope", () => {
  it("is refused every metered operation over REST with 403 insufficient_scope, uncharged", async () => {
    const document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as OpenApi;
    const metered = Object.entries(document.paths).filter(([, item]) => (item.get["x-credits"] ?? 0) > 0);
    expect(metered.length).toBeGreaterThan(8);
    for (const [path] of metered) {
      const url = path
        .replace("{marketId}", "foundation-model-apis")
        .replace("{productId}", "quillmere-atlas")
        .replace("{file}", "snapshot.csv");
      const query = path.endsWith("/whatif") ? "?weights=reasoning-benchmark:2" : "";
      const response = await fetch(`${base}/v1${url}${query}`, {
        headers: { Authorization: `Bearer ${accounts.tokens.noScope}` },
      });
      expect(response.status, path).toBe(403);
      expect(((await response.json()) as { code: string }).code, path).toBe("insufficient_scope");
      expect(response.headers.get("x-credits-cost"), path).toBeNull();
    }
  });

  it("is refused the metered tools over MCP with insufficient_scope", async () => {
    for (const tool of ["service_market_get_snapshot", "service_market_get_delta", "service_market_whatif"]) {
      const refused = await scopeRefusal(base, accounts.tokens.noScope, tool, {
        marketId: "foundation-model-apis",
        weights: "reasoning-benchmark:2",
      });
      expect(refused, tool).toMatchObject({ status: 403, code: "insufficient_scope" });
      expect(refused.challenge, tool).toMatch(/error="insufficient_scope"/);
    }
    expect(SERVED_TOOL_NAMES).toContain("service_market_get_snapshot");
    // A free tool is served to the same token.
    expect((await callToolWithToken(base, accounts.tokens.noScope, "service_markets_list", {})).isError).toBeFalsy();
  });
});

describe("API5: the dashboard's functions", () => {
  it("need a session", async () => {
    const answer = await dashboardCall(base, null, "tokens.create", { name: "x", scopes: [] }, { mutation: true });
    expect(answer.status).toBe(401);
  });

  it("refuse a change from another site, or with no Origin at all", async () => {
    for (const origin of ["https://evil.example", null]) {
      const answer = await dashboardCall(
        base,
        accounts.hostile.session,
        "tokens.create",
        { name: "csrf", scopes: [] },
        { mutation: true, origin },
      );
      expect(answer.status).toBe(403);
      expect(answer.problem?.code).toBe("forbidden_origin");
    }
  });

  it("need an organization for the organization's functions", async () => {
    const answer = await dashboardCall(base, accounts.people.orgless, "tokens.list");
    expect(answer.status).toBe(403);
    expect(answer.problem?.code).toBe("organization_required");
  });

  it("hold no operator function: grants and publishing are the CLI's alone", async () => {
    for (const procedure of [
      "credits.grant",
      "credits.adjust",
      "catalog.publish",
      "organizations.grant",
      "admin.users",
    ]) {
      const answer = await dashboardCall(
        base,
        accounts.hostile.session,
        procedure,
        { amount: 1_000_000 },
        { mutation: true },
      );
      expect(answer.status, procedure).toBe(404);
    }
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const response = await fetch(`${base}/v1/ledger`, {
        method,
        headers: { Authorization: `Bearer ${accounts.hostile.token}` },
      });
      expect(response.status, method).toBe(405);
    }
  });
});

describe("API5: this machine's pages", () => {
  it("answer the dev outbox and the metrics to loopback clients only", async () => {
    const remote = nonLoopbackUrl(base);
    expect(remote, "the machine has a non-loopback address to test from").toBeDefined();
    expect((await fetch(`${remote}/dev/outbox`)).status).toBe(404);
    expect([401, 403, 404]).toContain((await fetch(`${remote}/metrics`)).status);
    expect((await fetch(`${base}/dev/outbox`)).status).toBe(200);
  });
});

/**
 * Connecting an MCP client is `connections.own` (docs/accounts.md, "Roles"), which the billing
 * role does not hold: neither the consent page and its decision nor an identity assertion from the
 * organization's IdP (ID-JAG) may connect a billing member, and no connection is made. A member
 * of the same organization connects both ways. An app of its own, the IdP's keys given inline.
 */
describe("API5: connecting an MCP client needs connections.own", () => {
  let app: OwnApp<{ id: string; owner: SessionPerson; billing: SessionPerson; member: SessionPerson }>;
  let own: string;
  let idp: InlineIdp;
  let client: JwtBearerClient;

  beforeAll(async () => {
    idp = await inlineIdp("https://idp.billing-test.example", "billing-1");
    app = await startOwnApp({}, async (db) => {
      const org = await organization(db, "Billing test", { credits: 1000 });
      await idp.setFor(db, org.id);
      const billing = await memberWithSession(db, org.id, "billing");
      const member = await memberWithSession(db, org.id, "member");
      await idp.link(db, org.id, "billing-sub", billing.userId);
      await idp.link(db, org.id, "member-sub", member.userId);
      return { id: org.id, owner: { userId: org.userId, session: org.session }, billing, member };
    });
    own = app.url;
    client = await jwtBearerClient(own, "Enterprise client");
  });
  afterAll(async () => {
    await app?.close();
  });

  const organizationConnections = async () =>
    (await dashboardCall(own, app.prepared.owner.session, "connections.organizationList")).data as {
      userId: string;
    }[];
  const exchange = (subject: string) => exchangeAssertion(own, idp, client, subject);

  /** Authorization through the consent page, as `session`: the page and the decision's answers. */
  async function consent(session: string) {
    const jar = new CookieJar(session);
    const { interaction } = await startAuthorization(own, jar, "Market.Read.All");
    const page = await browse(jar, interaction.href);
    const decided = await postDecision(own, jar, interaction);
    return { page: { status: page.status, html: await page.text() }, decided };
  }

  it("refuses a billing member's identity assertion, and makes no connection", async () => {
    const refused = await exchange("billing-sub");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringMatching(/billing.*connections\.own/),
    });
    expect(refused.body.access_token).toBeUndefined();
    expect((await organizationConnections()).map((c) => c.userId)).not.toContain(app.prepared.billing.userId);
    // A member of the same organization connects.
    expect((await exchange("member-sub")).status).toBe(200);
    expect((await organizationConnections()).map((c) => c.userId)).toContain(app.prepared.member.userId);
  });

  it("offers a billing member no consent form and refuses their decision, making no connection", async () => {
    const { page, decided } = await consent(app.prepared.billing.session);
    // The page says why, and offers nothing to allow.
    expect(page.status).toBe(200);
    expect(page.html).toContain("connections.own");
    expect(page.html).not.toContain('value="allow"');
    expect(decided.status).toBe(403);
    expect(await decided.json()).toMatchObject({
      error: "access_denied",
      error_description: expect.stringMatching(/connections\.own/),
    });
    expect((await organizationConnections()).map((c) => c.userId)).not.toContain(app.prepared.billing.userId);
    // The member's consent makes their connection.
    const allowed = await consent(app.prepared.member.session);
    expect(allowed.page.status).toBe(200);
    expect(allowed.decided.status).toBe(303);
  });
});
