/**
 * The audit trail on a real database (PGlite here, PostgreSQL under TEST_DATABASE_URL): every
 * dashboard mutation declares what it records (or is on a short, justified list of mutations that
 * change nothing of an organization); real mutations through a tRPC caller record exactly one
 * event with the actor, target, address and user agent, in their own transaction, and a failed one
 * records nothing; the CLI records the operator; the table refuses UPDATE, DELETE and TRUNCATE.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/rows";
import { AUDIT_ACTIONS, AUDIT_USER_AGENT_MAX } from "@/server/1-domain/audit";
import { CLIENT_ADDRESS_HEADER } from "@/server/2-http/client-address";
import { createApiToken } from "@/server/4-api-access/tokens";
import { auditPage } from "@/server/4-organizations/audit";
import { createOrganization } from "@/server/4-organizations/organizations";
import { sessionCaller } from "@/server/6-auth/session-caller";
import { createApiContext } from "@/server/7-procedures/context";
import { type ApiMeta, createCallerFactory, createRouter, organizationProcedure } from "@/server/7-procedures/trpc";
import { appRouter } from "@/server/7-routers/root";
import { addPerson } from "../helpers/accounts";
import { runOps } from "../helpers/cli";
import { dashboardCallerAs, testDatabase } from "../helpers/database";

/**
 * Mutations that record nothing, each with why: they change nothing of an organization's
 * membership, roles, tokens, webhooks, connections, credits or settings. A new mutation that is
 * not here and declares no `audit` fails the first test below.
 */
const RECORDS_NOTHING: Record<string, string> = {
  "billing.portal": "opens a session of Stripe's customer portal; what changes there comes back as audited events",
  "organizations.switch": "the person's own choice of which organization the dashboard shows; changes no organization",
  "following.follow": "a person's own reading list; no organization's state",
  "following.unfollow": "a person's own reading list; no organization's state",
  "following.updatePreferences": "a person's own e-mail choices",
  "notifications.markRead": "a person's own inbox",
  "notifications.markAllRead": "a person's own inbox",
  "webhooks.resend":
    "delivers an existing message again (kept in the endpoint's delivery log); changes no setting, and queues a job that must not wait on a transaction",
  "webhooks.sendTest":
    "sends a test message (kept in the endpoint's delivery log); changes no setting, and queues a job that must not wait on a transaction",
};

interface ProcedureDef {
  _def: { type: string; meta?: ApiMeta };
}

const database = testDatabase({ seeded: true });
beforeAll(async () => {
  process.env.AUTH_SECRET ??= "audit-test-secret-audit-test-secret-0123";
});

let users = 0;
/** A person owning a new organization. */
async function owner(name = "Audit Co") {
  users += 1;
  const { id, email } = await addPerson(database.db, { email: `audit${users}@example.com` });
  const org = await createOrganization(database.db, { name, homeCountry: "DE", credits: 100, ownerUserId: id });
  return { id, email, organizationId: org.id };
}

const HEADERS = { [CLIENT_ADDRESS_HEADER]: "203.0.113.7", "user-agent": "AuditTest/1.0" };

const events = async (organizationId: string) =>
  (await auditPage(database.db, organizationId, { limit: 100 })).events.reverse();

describe("every mutation records what it changes", () => {
  const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureDef>);
  const mutations = procedures.filter(([, p]) => p._def.type === "mutation");

  it("declares an audit action, or is on the list of mutations that change nothing organizational", () => {
    expect(mutations.length).toBeGreaterThan(5);
    const silent = mutations
      .filter(([path, p]) => !p._def.meta?.audit && !(path in RECORDS_NOTHING))
      .map(([path]) => path);
    expect(silent, "mutations that record nothing: declare .meta({ audit }) or justify them").toEqual([]);
    for (const [, p] of mutations) {
      const action = p._def.meta?.audit?.action;
      if (action) expect(AUDIT_ACTIONS).toContain(action);
    }
  });

  it("keeps the list of silent mutations to real mutations that declare nothing", () => {
    const byPath = new Map(mutations);
    for (const path of Object.keys(RECORDS_NOTHING)) {
      expect(byPath.has(path), `${path} is no mutation`).toBe(true);
      expect(byPath.get(path)?._def.meta?.audit, `${path} declares audit: take it off the list`).toBeUndefined();
    }
  });

  it("no query declares audit (queries change nothing, and run in no transaction)", () => {
    const audited = procedures.filter(([, p]) => p._def.type !== "mutation" && p._def.meta?.audit).map(([n]) => n);
    expect(audited).toEqual([]);
  });
});

describe("recorded once, with who, when, from where and what", () => {
  it("token.create: the person, the address and user agent, the token, never the secret", async () => {
    const person = await owner();
    const caller = await dashboardCallerAs(database.db, person.id, HEADERS);
    const before = Date.now();
    const { token, secret } = await caller.tokens.create({ name: "ci", scopes: ["Market.Read.All"] });
    const recorded = await events(person.organizationId);
    expect(recorded).toHaveLength(1);
    const [event] = recorded;
    expect(event).toMatchObject({
      action: "token.create",
      actorKind: "user",
      actorUserId: person.id,
      actorTokenId: null,
      actorLabel: person.email,
      clientAddress: "203.0.113.7",
      userAgent: "AuditTest/1.0",
      targetType: "token",
      targetId: token.id,
      details: { name: "ci", scopes: ["Market.Read.All"], expiresAt: null },
    });
    expect(event?.occurredAt.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    expect(JSON.stringify(event)).not.toContain(secret);
  });

  it("token.revoke: one event when it revokes, none when it fails", async () => {
    const person = await owner();
    const caller = await dashboardCallerAs(database.db, person.id, HEADERS);
    const { token } = await caller.tokens.create({ name: "old", scopes: [] });
    await expect(caller.tokens.revoke({ tokenId: "tok_nope" })).rejects.toThrow();
    expect((await events(person.organizationId)).map((e) => e.action)).toEqual(["token.create"]);
    await caller.tokens.revoke({ tokenId: token.id });
    await expect(caller.tokens.revoke({ tokenId: token.id })).rejects.toThrow(); // already revoked
    const recorded = await events(person.organizationId);
    expect(recorded.map((e) => [e.action, e.targetId])).toEqual([
      ["token.create", token.id],
      ["token.revoke", token.id],
    ]);
  });

  it("organization.create is recorded in the organization it created", async () => {
    const person = await owner();
    const caller = await dashboardCallerAs(database.db, person.id, HEADERS);
    const created = await caller.organizations.create({ name: "Second =HYPERLINK(1)", homeCountry: "FR" });
    const recorded = await events(created.id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      action: "organization.create",
      actorUserId: person.id,
      targetType: "organization",
      targetId: created.id,
      details: { name: "Second =HYPERLINK(1)", homeCountry: "FR" },
    });
    // The first organization's trail is its own.
    expect(await events(person.organizationId)).toEqual([]);
  });

  it("organization.settings_change: the low-balance threshold; a member who is not an owner records nothing", async () => {
    const person = await owner();
    const caller = await dashboardCallerAs(database.db, person.id, HEADERS);
    await caller.credits.setLowBalanceThreshold({ threshold: 250 });
    users += 1;
    const { id: memberId } = await addPerson(database.db, {
      organizationId: person.organizationId,
      role: "member",
      active: true,
      email: `m${users}@example.com`,
    });
    const member = await dashboardCallerAs(database.db, memberId, HEADERS);
    await expect(member.credits.setLowBalanceThreshold({ threshold: 5 })).rejects.toThrow();
    const recorded = await events(person.organizationId);
    expect(recorded.map((e) => [e.action, e.details])).toEqual([
      ["organization.settings_change", { lowBalanceThreshold: 250 }],
    ]);
  });

  it("webhooks: create, update, rotate and delete, one event each, no secret and no URL query", async () => {
    const person = await owner();
    const caller = await dashboardCallerAs(database.db, person.id, HEADERS);
    const { endpoint, secret } = await caller.webhooks.create({
      url: "https://hooks.example.com/in?token=sekret",
      events: ["release.published"],
    } as never);
    await caller.webhooks.update({ endpointId: endpoint.id, enabled: false, description: "paused" });
    const rotated = await caller.webhooks.rotateSecret({ endpointId: endpoint.id });
    await caller.webhooks.remove({ endpointId: endpoint.id });
    await expect(caller.webhooks.remove({ endpointId: endpoint.id })).rejects.toThrow();
    const recorded = await events(person.organizationId);
    expect(recorded.map((e) => [e.action, e.targetType, e.targetId])).toEqual([
      ["webhook.create", "webhook_endpoint", endpoint.id],
      ["webhook.update", "webhook_endpoint", endpoint.id],
      ["webhook.rotate_secret", "webhook_endpoint", endpoint.id],
      ["webhook.delete", "webhook_endpoint", endpoint.id],
    ]);
    expect(recorded[0]?.details.url).toBe("https://hooks.example.com/in?…");
    expect(recorded[1]?.details).toEqual({ description: "paused", enabled: false });
    expect(recorded[0]?.details).toMatchObject({ events: ["release.published"], marketIds: [], countries: [] });
    const text = JSON.stringify(recorded);
    for (const hidden of [secret, rotated.secret, "sekret"]) expect(text).not.toContain(hidden);
  });

  it("team changes: invite, accept, role change, ownership, removal and leaving, one event each, in the right organization", async () => {
    const boss = await owner("Team Co");
    const [a, b] = [await owner("A's own"), await owner("B's own")];
    const api = await dashboardCallerAs(database.db, boss.id, HEADERS);
    const invited = await api.members.invite({ email: a.email, role: "member" });
    await api.members.resendInvitation({ invitationId: invited.invitationId });
    const url = (
      await queryRows<{ url: string }>(
        database.db,
        sql`select url from mail_outbox where recipient = ${a.email} order by id desc limit 1`,
      )
    )[0]?.url;
    const token = String(url).split("/invitations/")[1] ?? "";
    // A accepts while their own organization is active: the event belongs to the one joined.
    await (await dashboardCallerAs(database.db, a.id, HEADERS)).members.accept({ token });
    expect((await events(a.organizationId)).map((e) => e.action)).not.toContain("invitation.accept");
    await api.members.changeRole({ userId: a.id, role: "admin" });
    const second = await api.members.invite({ email: b.email, role: "billing" });
    await api.members.revokeInvitation({ invitationId: second.invitationId });
    await api.members.transferOwnership({ userId: a.id });
    const asA = await dashboardCallerAs(database.db, a.id, HEADERS);
    await asA.members.remove({ userId: boss.id }).catch(() => undefined); // refused while boss is still an owner
    await (await dashboardCallerAs(database.db, boss.id, HEADERS)).members.leave().catch(() => undefined);
    const trail = await events(boss.organizationId);
    expect(trail.map((e) => e.action)).toEqual([
      "member.invite",
      "invitation.resend",
      "invitation.accept",
      "member.role_change",
      "member.invite",
      "invitation.revoke",
      "ownership.transfer",
      expect.stringMatching(/^member\.(remove|leave)$/),
    ]);
    expect(trail[0]).toMatchObject({
      actorUserId: boss.id,
      targetType: "invitation",
      details: { email: a.email, role: "member" },
    });
    expect(trail[2]).toMatchObject({ actorUserId: a.id, details: { role: "member" } });
    expect(trail[3]).toMatchObject({ targetType: "user", targetId: a.id, details: { from: "member", to: "admin" } });
    expect(trail[6]).toMatchObject({ targetType: "user", targetId: a.id });
    expect(JSON.stringify(trail)).not.toContain(token);
  });

  it("connection.revoke of no such connection records nothing", async () => {
    const person = await owner();
    const caller = await dashboardCallerAs(database.db, person.id, HEADERS);
    await expect(caller.connections.revoke({ grantId: "nope" })).rejects.toThrow();
    expect(await events(person.organizationId)).toEqual([]);
  });

  it("trusts no forged forwarding header, and cuts a long user agent", async () => {
    const person = await owner();
    const caller = await dashboardCallerAs(database.db, person.id, {
      "x-forwarded-for": "198.51.100.66",
      "user-agent": `Evil\u0001\u007f${"x".repeat(5_000)}`,
    });
    await caller.tokens.create({ name: "forged", scopes: [] });
    const [event] = await events(person.organizationId);
    expect(event?.clientAddress).toBeNull(); // no door of ours saw it, and TRUST_PROXY is not set
    expect(event?.userAgent?.length).toBe(AUDIT_USER_AGENT_MAX);
    expect(event?.userAgent).toMatch(/^Evil {2}x/);
  });
});

describe("atomic", () => {
  it("a change whose event cannot be written is rolled back: neither happened", async () => {
    const person = await owner();
    const router = createRouter({
      make: organizationProcedure
        .meta({
          audit: {
            action: "token.create",
            details: () => {
              throw new Error("the event could not be written");
            },
          },
        })
        .mutation(({ ctx }) =>
          createApiToken(ctx.db, { organizationId: ctx.organization.id, name: "ghost", scopes: [] }),
        ),
    });
    const caller = createCallerFactory(router)(
      createApiContext({
        db: database.db,
        headers: new Headers(HEADERS),
        requestId: "atomic",
        origin: "http://dashboard.test",
        authenticate: async () => sessionCaller(database.db, person.id),
      }),
    );
    await expect(caller.make()).rejects.toThrow(/could not be written/);
    const tokens = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from api_tokens where organization_id = ${person.organizationId} and name = 'ghost'`,
    );
    expect(tokens[0]?.n).toBe(0);
    expect(await events(person.organizationId)).toEqual([]);
  });
});

describe("the operator CLI", () => {
  it("records the operator as the actor of org create, token create and credits grant/adjust", async () => {
    const created = await runOps(database, ["org", "create", "--name", "Ops Co", "--country", "DE", "--credits", "10"]);
    expect(created.code).toBe(0);
    const org = created.out.at(-1) as string;
    expect((await runOps(database, ["token", "create", "--org", org, "--name", "ops"])).code).toBe(0);
    expect((await runOps(database, ["credits", "grant", "--org", org, "--amount", "5"])).code).toBe(0);
    expect((await runOps(database, ["credits", "adjust", "--org", org, "--amount", "-3", "--note", "oops"])).code).toBe(
      0,
    );
    // Refused (below zero): nothing written, nothing recorded.
    expect((await runOps(database, ["credits", "adjust", "--org", org, "--amount", "-999", "--note", "no"])).code).toBe(
      1,
    );
    const recorded = await events(org);
    expect(recorded.map((e) => e.action)).toEqual([
      "organization.create",
      "token.create",
      "credits.grant",
      "credits.adjust",
    ]);
    for (const e of recorded) {
      expect(e.actorKind).toBe("operator");
      expect(e.actorLabel).toMatch(/^operator/);
    }
    expect(recorded[3]?.details).toEqual({ amount: -3, note: "oops", balanceAfter: 12 });
    expect(JSON.stringify(recorded)).not.toMatch(/mps_/);

    const listed = await runOps(database, ["org", "audit", "--org", org]);
    expect(listed.code).toBe(0);
    expect(listed.out).toHaveLength(4);
    expect(listed.out[0]).toContain("credits.adjust");
    const csv = await runOps(database, ["org", "audit", "--org", org, "--csv", "--limit", "2"]);
    expect(csv.stdout.split("\r\n")).toHaveLength(3);
    expect((await runOps(database, ["org", "audit", "--org", "org_none"])).code).toBe(1);
  });

  it("records the operator's member add, role change and removal; a refused one records nothing", async () => {
    const created = await runOps(database, ["org", "create", "--name", "Ops Team", "--country", "DE"]);
    const org = created.out.at(-1) as string;
    const member = ["--org", org, "--email", "Ops.Member@Example.com"];
    const added = await runOps(database, ["org", "member", "add", ...member, "--role", "admin"]);
    expect(added.code).toBe(0);
    const userId = added.out.at(-1) as string;
    expect((await runOps(database, ["org", "member", "role", ...member, "--role", "owner"])).code).toBe(0);
    expect((await runOps(database, ["org", "member", "role", ...member, "--role", "member"])).code).toBe(1); // the last owner
    expect((await runOps(database, ["org", "member", "remove", ...member])).code).toBe(1); // the last owner still
    expect(
      (await runOps(database, ["org", "member", "add", "--org", org, "--email", "b@example.com", "--role", "owner"]))
        .code,
    ).toBe(0);
    expect((await runOps(database, ["org", "member", "remove", ...member])).code).toBe(0);
    const recorded = (await events(org)).filter((e) => e.targetId === userId);
    expect(recorded.map((e) => [e.action, e.actorKind, e.targetType])).toEqual([
      ["member.add", "operator", "user"],
      ["member.role_change", "operator", "user"],
      ["member.remove", "operator", "user"],
    ]);
    expect(recorded[0]?.details).toEqual({ email: "ops.member@example.com", role: "admin" });
    expect(recorded[1]?.details).toEqual({ from: "admin", to: "owner", revokedInvitations: 0 });
    expect(recorded[2]?.details).toMatchObject({ role: "owner", revokedTokens: 0, revokedConnections: 0 });
  });
});

describe("paging and filters", () => {
  it("pages newest first by id, and filters by action, actor and period", async () => {
    const person = await owner();
    const caller = await dashboardCallerAs(database.db, person.id, HEADERS);
    for (let i = 0; i < 5; i++) await caller.tokens.create({ name: `t${i}`, scopes: [] });
    const first = await auditPage(database.db, person.organizationId, { limit: 2 });
    expect(first.events.map((e) => e.details.name)).toEqual(["t4", "t3"]);
    const second = await auditPage(database.db, person.organizationId, { limit: 2, before: first.nextBefore ?? 0 });
    expect(second.events.map((e) => e.details.name)).toEqual(["t2", "t1"]);
    const last = await auditPage(database.db, person.organizationId, { limit: 2, before: second.nextBefore ?? 0 });
    expect(last.events.map((e) => e.details.name)).toEqual(["t0"]);
    expect(last.nextBefore).toBeNull();
    const page = (filter: object) => auditPage(database.db, person.organizationId, { limit: 50, ...filter });
    expect((await page({ action: "token.revoke" })).events).toEqual([]);
    expect((await page({ actor: person.id })).events).toHaveLength(5);
    expect((await page({ actor: "usr_other" })).events).toHaveLength(0);
    expect((await page({ from: new Date(Date.now() + 60_000) })).events).toHaveLength(0);
    expect((await page({ to: new Date(Date.now() + 60_000) })).events).toHaveLength(5);
  });
});

describe("the dashboard's reading", () => {
  it("audit.list answers owners, filtered and paged; a member who is not an owner gets not_found", async () => {
    const person = await owner();
    const caller = await dashboardCallerAs(database.db, person.id, HEADERS);
    for (let i = 0; i < 3; i++) await caller.tokens.create({ name: `p${i}`, scopes: [] });
    await caller.credits.setLowBalanceThreshold({ threshold: 10 });
    const first = await caller.audit.list({ limit: 2 });
    expect(first.events.map((e) => e.action)).toEqual(["organization.settings_change", "token.create"]);
    expect(first.nextCursor).not.toBeNull();
    const rest = await caller.audit.list({ limit: 2, cursor: first.nextCursor ?? undefined });
    expect(rest.events.map((e) => e.details.name)).toEqual(["p1", "p0"]);
    const tokensOnly = await caller.audit.list({ action: "token.create" });
    expect(tokensOnly.events).toHaveLength(3);
    const today = new Date().toISOString().slice(0, 10);
    expect((await caller.audit.list({ from: today, to: today })).events).toHaveLength(4);
    expect((await caller.audit.list({ to: "2000-01-01" })).events).toHaveLength(0);

    users += 1;
    const { id: memberId } = await addPerson(database.db, {
      organizationId: person.organizationId,
      role: "member",
      active: true,
      email: `r${users}@example.com`,
    });
    const member = await dashboardCallerAs(database.db, memberId, HEADERS);
    await expect(member.audit.list({})).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("append-only", () => {
  it("refuses UPDATE, DELETE and TRUNCATE at the database", async () => {
    const person = await owner();
    const caller = await dashboardCallerAs(database.db, person.id, HEADERS);
    await caller.tokens.create({ name: "kept", scopes: [] });
    const attempts = [
      sql`update audit_events set action = 'token.revoke' where organization_id = ${person.organizationId}`,
      sql`delete from audit_events where organization_id = ${person.organizationId}`,
      sql`truncate audit_events`,
    ];
    for (const attempt of attempts) {
      const refusal = await queryRows(database.db, attempt).then(
        () => null,
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
      expect(refusal).toMatch(/append-only/);
    }
    expect((await events(person.organizationId)).map((e) => e.action)).toEqual(["token.create"]);
  });
});
