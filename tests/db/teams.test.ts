/**
 * Organizations as teams on a real database (PGlite here, PostgreSQL under TEST_DATABASE_URL):
 * the roles table enforced on each dashboard procedure through tRPC callers, the last owner kept
 * (two demotions at once on PostgreSQL), invitations (mail, expiry, revoke, resend, single use,
 * the invited address only), and removal revoking the person's tokens and MCP connections.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { queryRows } from "@/db/rows";
import { ROLE_PERMISSIONS, ROLES, TEAM_AUDIT_ACTIONS } from "@/server/1-domain/roles";
import { unauthorized } from "@/server/1-errors/api-error";
import { describeError } from "@/server/1-errors/describe";
import { authenticateSecret } from "@/server/4-api-access/tokens";
import { bindConnection, connectionOrganizationOf } from "@/server/4-organizations/connections";
import { changeRole, LastOwnerError, listMembers, removeMember } from "@/server/4-organizations/members";
import { createOrganization } from "@/server/4-organizations/organizations";
import { createApiContext } from "@/server/7-procedures/context";
import { MEMBER_ACTIONS } from "@/server/7-routers/members";
import { createCaller } from "@/server/7-routers/root";
import { addPerson } from "../helpers/accounts";
import { runOps } from "../helpers/cli";
import { dashboardCallerAs, testDatabase, testDatabaseKind } from "../helpers/database";

const database = testDatabase({ seeded: true });
let other: DatabaseHandle | null = null;
beforeAll(async () => {
  if (testDatabaseKind === "postgres" && database.url)
    other = await openDatabase({ kind: "postgres", url: database.url });
});
afterAll(async () => {
  await other?.close();
});

let people = 0;
async function person(email?: string): Promise<{ id: string; email: string }> {
  people += 1;
  return addPerson(database.db, { email: email ?? `person${people}@example.com`, name: `Person ${people}` });
}

/** An organization with an owner and one person of each other role. */
async function team(name = "Team Co") {
  const owner = await person();
  const org = await createOrganization(database.db, { name, homeCountry: "DE", credits: 100, ownerUserId: owner.id });
  const others = { admin: await person(), member: await person(), billing: await person() };
  for (const role of ["admin", "member", "billing"] as const) {
    const someone = others[role];
    await queryRows(
      database.db,
      sql`insert into memberships (organization_id, user_id, role) values (${org.id}, ${someone.id}, ${role})`,
    );
    await queryRows(database.db, sql`update users set active_organization_id = ${org.id} where id = ${someone.id}`);
  }
  return { id: org.id, owner, ...others };
}

const as = (userId: string) => dashboardCallerAs(database.db, userId);

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return describeError(error);
  }
  throw new Error("the call succeeded");
}

async function lastMail(to: string) {
  const rows = await queryRows<{ subject: string; body: string; html: string | null; url: string | null }>(
    database.db,
    sql`select subject, body, html, url from mail_outbox where recipient = ${to} order by id desc limit 1`,
  );
  return rows[0];
}
const tokenOf = (url: string | null | undefined) => String(url).split("/invitations/")[1] ?? "";

describe("the roles table", () => {
  it("gives owners everything and each other role exactly its powers", () => {
    expect(ROLES).toEqual(["owner", "admin", "member", "billing"]);
    expect(ROLE_PERMISSIONS.member).not.toContain("members.manage");
    expect(ROLE_PERMISSIONS.admin).not.toContain("ownership.transfer");
    expect(ROLE_PERMISSIONS.billing).toContain("credits.manage");
    expect(ROLE_PERMISSIONS.billing).not.toContain("tokens.own");
    expect(Object.values(MEMBER_ACTIONS).sort()).toEqual([...TEAM_AUDIT_ACTIONS].sort());
  });

  it("is enforced on every team procedure, for every role", async () => {
    const t = await team("Enforced");
    const outsider = await person();
    const expectations: [string, (api: Awaited<ReturnType<typeof as>>) => Promise<unknown>, string[]][] = [
      [
        "members.invite",
        (api) => api.members.invite({ email: `${outsider.id}@example.com`, role: "member" }),
        ["owner", "admin"],
      ],
      ["tokens.create", (api) => api.tokens.create({ name: "t", scopes: [] }), ["owner", "admin", "member"]],
      ["tokens.list", (api) => api.tokens.list(), ["owner", "admin", "member"]],
      ["webhooks.list", (api) => api.webhooks.list(), ["owner", "admin"]],
      ["credits.summary", (api) => api.credits.summary(), ["owner", "admin", "billing"]],
      [
        "credits.setLowBalanceThreshold",
        (api) => api.credits.setLowBalanceThreshold({ threshold: 50 }),
        ["owner", "billing"],
      ],
      ["members.list", (api) => api.members.list(), ["owner", "admin", "member", "billing"]],
    ];
    for (const [name, call, allowed] of expectations)
      for (const role of ROLES) {
        const who = t[role];
        const outcome = await call(await as(who.id)).then(
          () => "ok",
          (error: unknown) => describeError(error).code,
        );
        expect(`${name} as ${role}: ${outcome}`).toBe(
          `${name} as ${role}: ${allowed.includes(role) ? "ok" : "forbidden"}`,
        );
      }
  });

  it("says which permission a refusal lacks", async () => {
    const t = await team("Words");
    const problem = await failure((await as(t.member.id)).members.invite({ email: "x@example.com", role: "member" }));
    expect(problem).toMatchObject({ code: "forbidden", members: { permission: "members.manage" } });
  });

  it("lets a member see and revoke only their own tokens", async () => {
    const t = await team("Own tokens");
    const ownerToken = await (await as(t.owner.id)).tokens.create({ name: "owner's", scopes: [] });
    const member = await as(t.member.id);
    const mine = await member.tokens.create({ name: "mine", scopes: [] });
    expect((await member.tokens.list()).map((token) => token.name)).toEqual(["mine"]);
    expect((await failure(member.tokens.revoke({ tokenId: ownerToken.token.id }))).code).toBe("not_found");
    await member.tokens.revoke({ tokenId: mine.token.id });
    expect((await (await as(t.admin.id)).tokens.list()).length).toBe(2);
  });

  it("keeps owners' roles to those who may transfer ownership", async () => {
    const t = await team("Owners");
    const admin = await as(t.admin.id);
    expect((await failure(admin.members.changeRole({ userId: t.member.id, role: "owner" }))).code).toBe("forbidden");
    expect((await failure(admin.members.changeRole({ userId: t.owner.id, role: "member" }))).code).toBe("forbidden");
    expect((await failure(admin.members.remove({ userId: t.owner.id }))).code).toBe("forbidden");
    expect((await failure(admin.members.invite({ email: "o@example.com", role: "owner" }))).code).toBe("forbidden");
    await admin.members.changeRole({ userId: t.member.id, role: "billing" });
    expect((await listMembers(database.db, t.id)).find((m) => m.userId === t.member.id)?.role).toBe("billing");
  });
});

describe("the last owner", () => {
  it("cannot leave, be demoted or be removed; can once another owner exists", async () => {
    const t = await team("Last");
    const owner = await as(t.owner.id);
    expect((await failure(owner.members.leave())).code).toBe("conflict");
    expect((await failure(owner.members.changeRole({ userId: t.owner.id, role: "admin" }))).code).toBe("conflict");
    await owner.members.transferOwnership({ userId: t.admin.id });
    const roles = Object.fromEntries((await listMembers(database.db, t.id)).map((m) => [m.userId, m.role]));
    expect([roles[t.owner.id], roles[t.admin.id]]).toEqual(["admin", "owner"]);
    expect((await failure((await as(t.owner.id)).members.transferOwnership({ userId: t.owner.id }))).code).toBe(
      "forbidden",
    );
    await (await as(t.owner.id)).members.leave();
    expect((await listMembers(database.db, t.id)).some((m) => m.userId === t.owner.id)).toBe(false);
  });

  it("survives two owners demoting each other at once", async () => {
    for (let round = 0; round < 5; round++) {
      const t = await team(`Race ${round}`);
      await queryRows(database.db, sql`update memberships set role = 'owner' where user_id = ${t.admin.id}`);
      // Two connection pools on PostgreSQL: two instances; PGlite has one connection and serialises.
      const second = other?.db ?? database.db;
      const outcomes = await Promise.allSettled([
        changeRole(database.db, { organizationId: t.id, userId: t.owner.id, role: "admin" }),
        changeRole(second, { organizationId: t.id, userId: t.admin.id, role: "member" }),
      ]);
      const owners = (await listMembers(database.db, t.id)).filter((m) => m.role === "owner");
      expect(owners.length).toBe(1);
      expect(outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason)).toEqual([
        expect.any(LastOwnerError),
      ]);
    }
  });

  it("survives two owners removing each other at once", async () => {
    for (let round = 0; round < 5; round++) {
      const t = await team(`Race removal ${round}`);
      await queryRows(database.db, sql`update memberships set role = 'owner' where user_id = ${t.admin.id}`);
      const second = other?.db ?? database.db;
      await Promise.allSettled([
        removeMember(database.db, { organizationId: t.id, userId: t.owner.id }),
        removeMember(second, { organizationId: t.id, userId: t.admin.id }),
      ]);
      expect((await listMembers(database.db, t.id)).filter((m) => m.role === "owner").length).toBe(1);
    }
  });
});

describe("invitations", () => {
  it("mails a link at the app's origin, with hostile names as plain text and escaped", async () => {
    const owner = await person();
    await queryRows(database.db, sql`update users set name = ${"<img src=x onerror=alert(1)>"} where id = ${owner.id}`);
    const org = await createOrganization(database.db, {
      name: "<script>alert('org')</script>",
      homeCountry: "DE",
      ownerUserId: owner.id,
    });
    const invitee = await person("Invitee.Case@Example.com");
    await (await as(owner.id)).members.invite({ email: invitee.email, role: "admin" });
    const mail = await lastMail("invitee.case@example.com");
    expect(mail?.url).toMatch(/^http:\/\/dashboard\.test\/invitations\/[\w-]{43}$/);
    expect(mail?.subject).not.toContain("<");
    expect(mail?.body).toContain(`"<script>alert('org')</script>"`);
    expect(mail?.html).not.toContain("<script>");
    expect(mail?.html).not.toContain("<img");
    expect(mail?.html).toContain("&lt;script&gt;");
    const token = tokenOf(mail?.url);
    // The token itself is never stored: only its hash.
    expect(await queryRows(database.db, sql`select 1 from invitations where token_hash = ${token}`)).toEqual([]);
    // Accepting with the address in another case works, joins with the role and switches to it.
    const accepted = await (await as(invitee.id)).members.accept({ token });
    expect(accepted).toMatchObject({ organizationId: org.id, role: "admin", action: "invitation.accept" });
    const [row] = await queryRows<{ active: string }>(
      database.db,
      sql`select active_organization_id as active from users where id = ${invitee.id}`,
    );
    expect(row?.active).toBe(org.id);
    // Single use.
    const again = await person();
    expect((await failure((await as(again.id)).members.accept({ token }))).code).toBe("not_found");
  });

  it("shows a link's invitation to whoever holds it, signed out too; a link that is not valid, nothing", async () => {
    const t = await team("Signed Out <b>Readers</b>");
    const invitee = await person("Signed.Out@Example.com");
    await (await as(t.owner.id)).members.invite({ email: invitee.email, role: "billing" });
    const token = tokenOf((await lastMail("signed.out@example.com"))?.url);
    // Nobody signed in: the session authenticator's refusal, as the dashboard's caller meets it.
    const signedOut = createCaller(
      createApiContext({
        db: database.db,
        headers: new Headers(),
        requestId: "test",
        origin: "http://dashboard.test",
        authenticate: async () => {
          throw unauthorized("Sign in to use the dashboard.");
        },
      }),
    );
    expect(await signedOut.members.invitation({ token })).toMatchObject({
      organizationName: "Signed Out <b>Readers</b>",
      email: "signed.out@example.com",
      role: "billing",
    });
    for (const forged of ["forged", `${token}x`, token.slice(0, -1)])
      expect((await failure(signedOut.members.invitation({ token: forged }))).code).toBe("not_found");
    // Used: the same answer as a forged link, signed out or in.
    await (await as(invitee.id)).members.accept({ token });
    const used = await failure(signedOut.members.invitation({ token }));
    expect(used.code).toBe("not_found");
    expect(JSON.stringify(used)).not.toContain("Readers");
    // Accepting still needs a session.
    expect((await failure(signedOut.members.accept({ token }))).code).toBe("unauthorized");
  });

  it("refuses another address, and the link still works for the invited one", async () => {
    const t = await team("Mismatch");
    const invitee = await person();
    const stranger = await person();
    await (await as(t.admin.id)).members.invite({ email: invitee.email, role: "member" });
    const token = tokenOf((await lastMail(invitee.email))?.url);
    expect((await failure((await as(stranger.id)).members.accept({ token }))).code).toBe("forbidden");
    await (await as(invitee.id)).members.accept({ token });
    expect((await listMembers(database.db, t.id)).find((m) => m.userId === invitee.id)?.role).toBe("member");
  });

  it("expires, is revoked, and a resend invalidates the old link", async () => {
    const t = await team("Lifecycle");
    const owner = await as(t.owner.id);
    const a = await person();
    const b = await person();
    const c = await person();
    const invitedA = await owner.members.invite({ email: a.email, role: "member" });
    const first = tokenOf((await lastMail(a.email))?.url);
    await owner.members.resendInvitation({ invitationId: invitedA.invitationId });
    const second = tokenOf((await lastMail(a.email))?.url);
    expect(second).not.toBe(first);
    expect((await failure((await as(a.id)).members.accept({ token: first }))).code).toBe("not_found");

    const invitedB = await owner.members.invite({ email: b.email, role: "member" });
    const bToken = tokenOf((await lastMail(b.email))?.url);
    expect((await owner.members.list()).invitations.map((i) => i.email)).toEqual([a.email, b.email]);
    await owner.members.revokeInvitation({ invitationId: invitedB.invitationId });
    expect((await failure((await as(b.id)).members.accept({ token: bToken }))).code).toBe("not_found");

    await owner.members.invite({ email: c.email, role: "billing" });
    const cToken = tokenOf((await lastMail(c.email))?.url);
    await queryRows(
      database.db,
      sql`update invitations set expires_at = now() - interval '1 second' where email = ${c.email}`,
    );
    expect((await failure((await as(c.id)).members.accept({ token: cToken }))).code).toBe("not_found");
    expect((await owner.members.list()).invitations.map((i) => i.email)).toEqual([a.email]);

    await (await as(a.id)).members.accept({ token: second });
    // Inviting someone who already belongs is a conflict.
    expect((await failure(owner.members.invite({ email: a.email, role: "member" }))).code).toBe("conflict");
  });

  it("hides pending invitations from those who may not manage members", async () => {
    const t = await team("Read-only");
    await (await as(t.owner.id)).members.invite({ email: "pending@example.com", role: "member" });
    const seen = await (await as(t.member.id)).members.list();
    expect(seen.invitations).toEqual([]);
    expect(seen.members.length).toBe(4);
    expect(seen.me.permissions).not.toContain("members.manage");
  });

  it("throttles invitations to one address", async () => {
    const t = await team("Throttle");
    const owner = await as(t.owner.id);
    const target = "flooded@example.com";
    const codes: string[] = [];
    for (let i = 0; i < 7; i++)
      codes.push(
        await owner.members.invite({ email: target, role: "member" }).then(
          () => "ok",
          (error: unknown) => describeError(error).code,
        ),
      );
    expect(codes.slice(0, 5)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    expect(codes.slice(5)).toEqual(["rate_limited", "rate_limited"]);
    // A refused invitation changed nothing: the last link sent still works.
    const flooded = await person(target);
    const token = tokenOf((await lastMail(target))?.url);
    expect(await (await as(flooded.id)).members.accept({ token })).toMatchObject({ organizationId: t.id });
  });
});

/**
 * An MCP connection as consent leaves it: a Grant row (and an access token under it) bound to the
 * organization the person has active (bindConnection, as the consent page calls it).
 */
async function grant(id: string, userId: string, organizationId: string, accessTokenId?: string) {
  await queryRows(database.db, sql`update users set active_organization_id = ${organizationId} where id = ${userId}`);
  await queryRows(
    database.db,
    sql`insert into oauth_records (model, id, payload, grant_id) values
      ('Grant', ${id}, ${JSON.stringify({ accountId: userId, clientId: "c", iat: 1_800_000_000 })}::jsonb, null)`,
  );
  if (accessTokenId)
    await queryRows(
      database.db,
      sql`insert into oauth_records (model, id, payload, grant_id) values ('AccessToken', ${accessTokenId}, '{}'::jsonb, ${id})`,
    );
  await bindConnection(
    database.db,
    userId,
    { grantId: id, clientId: "c", scopes: [] },
    { clientAddress: null, userAgent: null },
  );
}

describe("a role change and the invitations the person sent", () => {
  const eventOf = async (organizationId: string, action: string) =>
    (
      await queryRows<{ details: Record<string, unknown> }>(
        database.db,
        sql`select details from audit_events where organization_id = ${organizationId} and action = ${action} order by id desc limit 1`,
      )
    )[0]?.details;

  it("revokes an admin's open admin invitation when they are made a member, and audits it", async () => {
    const t = await team("Demoted inviter");
    const invitee = await person();
    await (await as(t.admin.id)).members.invite({ email: invitee.email, role: "admin" });
    const token = tokenOf((await lastMail(invitee.email))?.url);
    const changed = await (await as(t.owner.id)).members.changeRole({ userId: t.admin.id, role: "member" });
    // The link no longer makes anyone an admin, nor anything else.
    expect((await failure((await as(invitee.id)).members.accept({ token }))).code).toBe("not_found");
    expect((await listMembers(database.db, t.id)).some((m) => m.userId === invitee.id)).toBe(false);
    expect(changed).toMatchObject({ from: "admin", to: "member", revokedInvitations: 1 });
    expect(await eventOf(t.id, "member.role_change")).toEqual({ from: "admin", to: "member", revokedInvitations: 1 });
  });

  it("keeps the invitations the new role may still send, and ends an old owner's owner invitations", async () => {
    const t = await team("Kept invitations");
    const member = await person();
    const owner = await person();
    await (await as(t.owner.id)).members.invite({ email: member.email, role: "member" });
    await (await as(t.owner.id)).members.invite({ email: owner.email, role: "owner" });
    const memberToken = tokenOf((await lastMail(member.email))?.url);
    const ownerToken = tokenOf((await lastMail(owner.email))?.url);
    // Ownership handed over: the old owner is an admin, who may invite members but not owners.
    const transferred = await (await as(t.owner.id)).members.transferOwnership({ userId: t.admin.id });
    expect((await failure((await as(owner.id)).members.accept({ token: ownerToken }))).code).toBe("not_found");
    expect(transferred).toMatchObject({ revokedInvitations: 1 });
    expect(await eventOf(t.id, "ownership.transfer")).toEqual({ revokedInvitations: 1 });
    expect(await (await as(member.id)).members.accept({ token: memberToken })).toMatchObject({ role: "member" });
  });
});

describe("tokens and webhooks belong to the organization", () => {
  it("name the person who made them; admins see everyone's tokens, members their own", async () => {
    const t = await team("Owned Co");
    const mine = await (await as(t.member.id)).tokens.create({ name: "member's", scopes: [] });
    const admins = await (await as(t.admin.id)).tokens.create({ name: "admin's", scopes: [] });
    const seenByAdmin = await (await as(t.admin.id)).tokens.list();
    expect(seenByAdmin.map((token) => [token.id, token.createdBy]).sort()).toEqual(
      [
        [mine.token.id, t.member.email],
        [admins.token.id, t.admin.email],
      ].sort(),
    );
    expect((await (await as(t.member.id)).tokens.list()).map((token) => token.id)).toEqual([mine.token.id]);
    const { endpoint } = await (await as(t.admin.id)).webhooks.create({
      url: "https://hooks.example.com/owned",
      events: ["release.published"],
      marketIds: [],
      countries: [],
    });
    const listed = (await (await as(t.owner.id)).webhooks.list()).endpoints;
    expect(listed.map((e) => [e.id, e.createdBy])).toEqual([[endpoint.id, t.admin.email]]);
  });
});

describe("MCP connections belong to the organization", () => {
  it("each acts for the organization active at consent; admins see and revoke anyone's, members only their own", async () => {
    const t = await team("Connections");
    const other = await team("Other connections");
    await grant("g_conn_member", t.member.id, t.id);
    await grant("g_conn_owner", t.owner.id, t.id);
    await grant("g_conn_other", other.member.id, other.id);
    // Switching the active organization later does not move a connection.
    await queryRows(database.db, sql`update users set active_organization_id = null where id = ${t.member.id}`);
    expect(await connectionOrganizationOf(database.db, "g_conn_member")).toBe(t.id);

    const listed = await (await as(t.admin.id)).connections.organizationList();
    expect(listed.map((c) => [c.grantId, c.userEmail, c.organizationId]).sort()).toEqual(
      [
        ["g_conn_member", t.member.email, t.id],
        ["g_conn_owner", t.owner.email, t.id],
      ].sort(),
    );
    const mine = await (await as(t.member.id)).connections.list();
    expect(mine.map((c) => [c.grantId, c.organizationName])).toEqual([["g_conn_member", "Connections"]]);

    // A member manages only their own; another organization's connection is not found.
    expect((await failure((await as(t.member.id)).connections.organizationList())).code).toBe("forbidden");
    expect(
      (await failure((await as(t.member.id)).connections.revokeInOrganization({ grantId: "g_conn_owner" }))).code,
    ).toBe("forbidden");
    expect(
      (await failure((await as(t.admin.id)).connections.revokeInOrganization({ grantId: "g_conn_other" }))).code,
    ).toBe("not_found");
    expect((await failure((await as(t.member.id)).connections.revoke({ grantId: "g_conn_owner" }))).code).toBe(
      "not_found",
    );

    await (await as(t.admin.id)).connections.revokeInOrganization({ grantId: "g_conn_member" });
    expect(await connectionOrganizationOf(database.db, "g_conn_member")).toBeNull();
    expect((await (await as(t.admin.id)).connections.organizationList()).map((c) => c.grantId)).toEqual([
      "g_conn_owner",
    ]);
    expect((await (await as(other.admin.id)).connections.organizationList()).map((c) => c.grantId)).toEqual([
      "g_conn_other",
    ]);
  });
});

describe("the organization's settings and deletion", () => {
  it("lets owners and admins rename it and change its home country, recorded as they were and are", async () => {
    const t = await team("Settings Co");
    const changed = await (await as(t.admin.id)).organizations.updateSettings({
      name: "Renamed Co",
      homeCountry: "fr",
    });
    expect(changed).toMatchObject({
      before: { name: "Settings Co", homeCountry: "DE" },
      after: { name: "Renamed Co", homeCountry: "FR" },
    });
    for (const who of [t.member, t.billing])
      expect((await failure((await as(who.id)).organizations.updateSettings({ name: "Mine now" }))).code).toBe(
        "forbidden",
      );
    expect((await failure((await as(t.owner.id)).organizations.updateSettings({ homeCountry: "QQ" }))).code).toBe(
      "invalid_request",
    );
    const [row] = await queryRows<{ name: string; home_country: string }>(
      database.db,
      sql`select name, home_country from organizations where id = ${t.id}`,
    );
    expect(row).toEqual({ name: "Renamed Co", home_country: "FR" });
    const events = await queryRows<{ action: string; details: unknown }>(
      database.db,
      sql`select action, details from audit_events where organization_id = ${t.id} and action = 'organization.settings_change'`,
    );
    expect(events).toEqual([
      {
        action: "organization.settings_change",
        details: { name: { from: "Settings Co", to: "Renamed Co" }, homeCountry: { from: "DE", to: "FR" } },
      },
    ]);
  });

  it("lets only an owner delete it, once its name is typed again, taking its tokens and connections with it", async () => {
    const t = await team("Doomed Co");
    const token = await (await as(t.member.id)).tokens.create({ name: "member's", scopes: ["Market.Read.All"] });
    await grant("g_doomed", t.member.id, t.id);
    expect((await failure((await as(t.admin.id)).organizations.delete({ confirmName: "Doomed Co" }))).code).toBe(
      "forbidden",
    );
    expect((await failure((await as(t.owner.id)).organizations.delete({ confirmName: "doomed co" }))).code).toBe(
      "invalid_request",
    );
    expect((await authenticateSecret(database.db, token.secret)).ok).toBe(true);

    const deleted = await (await as(t.owner.id)).organizations.delete({ confirmName: "Doomed Co" });
    expect(deleted).toMatchObject({ id: t.id, name: "Doomed Co", balance: 100, connections: 1 });
    expect(await queryRows(database.db, sql`select id from organizations where id = ${t.id}`)).toEqual([]);
    expect((await authenticateSecret(database.db, token.secret)).ok).toBe(false);
    expect(await queryRows(database.db, sql`select id from oauth_records where id = 'g_doomed'`)).toEqual([]);
    // The trail outlives it, naming who deleted it and what was lost.
    const [event] = await queryRows<{ actor_user_id: string; details: unknown }>(
      database.db,
      sql`select actor_user_id, details from audit_events where organization_id = ${t.id} and action = 'organization.delete'`,
    );
    expect(event).toEqual({
      actor_user_id: t.owner.id,
      details: { name: "Doomed Co", creditsLost: 100, connectionsDeleted: 1 },
    });
  });
});

describe("removal", () => {
  it("revokes the person's tokens and MCP connections in the organization, at once", async () => {
    const t = await team("Removal");
    const member = await as(t.member.id);
    const token = await member.tokens.create({ name: "member's", scopes: ["Market.Read.All"] });
    const ownerToken = await (await as(t.owner.id)).tokens.create({ name: "owner's", scopes: [] });
    expect((await authenticateSecret(database.db, token.secret)).ok).toBe(true);
    // The member's connection made here, one they made for an organization of their own, and the owner's.
    const elsewhere = await createOrganization(database.db, {
      name: "Member's own",
      homeCountry: "DE",
      credits: 0,
      ownerUserId: t.member.id,
    });
    await grant(`grant_${t.member.id}`, t.member.id, t.id, `at_${t.member.id}`);
    await grant(`grant_${t.member.id}_own`, t.member.id, elsewhere.id);
    await grant(`grant_${t.owner.id}`, t.owner.id, t.id);
    const removed = await (await as(t.admin.id)).members.remove({ userId: t.member.id });
    expect(removed).toMatchObject({ action: "member.remove", revokedTokens: 1, revokedConnections: 1 });
    expect(await authenticateSecret(database.db, token.secret)).toMatchObject({ ok: false });
    expect((await authenticateSecret(database.db, ownerToken.secret)).ok).toBe(true);
    const records = await queryRows<{ id: string }>(
      database.db,
      sql`select id from oauth_records where id like ${"%" + t.member.id + "%"} or id like ${"%" + t.owner.id + "%"} order by id`,
    );
    expect(records.map((r) => r.id).sort()).toEqual([`grant_${t.member.id}_own`, `grant_${t.owner.id}`].sort());
    expect(await connectionOrganizationOf(database.db, `grant_${t.member.id}_own`)).toBe(elsewhere.id);
    expect(await connectionOrganizationOf(database.db, `grant_${t.member.id}`)).toBeNull();
    // Their session no longer acts for the organization (the caller is rebuilt from the
    // membership): it falls back to the one they still belong to.
    const after = await (await as(t.member.id)).organizations.list();
    expect(after.activeId).toBe(elsewhere.id);
    expect(after.organizations.map((o) => o.id)).toEqual([elsewhere.id]);
  });
});

describe("the operator CLI", () => {
  it("adds (creating the person), changes roles, removes, and keeps the last owner", async () => {
    const org = await createOrganization(database.db, { name: "CLI Co", homeCountry: "DE", credits: 0 });
    const added = await runOps(database, [
      "org",
      "member",
      "add",
      "--org",
      org.id,
      "--email",
      "New.Person@Example.com",
      "--role",
      "owner",
    ]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("created and added new.person@example.com");
    const userId = added.out.at(-1) ?? "";
    expect((await listMembers(database.db, org.id)).map((m) => [m.userId, m.role])).toEqual([[userId, "owner"]]);

    const again = await runOps(database, [
      "org",
      "member",
      "add",
      "--org",
      org.id,
      "--email",
      "new.person@example.com",
      "--role",
      "member",
    ]);
    expect(again.code).toBe(1);

    const demote = await runOps(database, [
      "org",
      "member",
      "role",
      "--org",
      org.id,
      "--email",
      "new.person@example.com",
      "--role",
      "admin",
    ]);
    expect([demote.code, demote.stderr]).toEqual([1, expect.stringContaining("at least one owner")]);
    const remove = await runOps(database, [
      "org",
      "member",
      "remove",
      "--org",
      org.id,
      "--email",
      "new.person@example.com",
    ]);
    expect(remove.code).toBe(1);

    const second = await runOps(database, [
      "org",
      "member",
      "add",
      "--org",
      org.id,
      "--email",
      "second@example.com",
      "--role",
      "owner",
    ]);
    expect(second.code).toBe(0);
    expect(
      (
        await runOps(database, [
          "org",
          "member",
          "role",
          "--org",
          org.id,
          "--email",
          "NEW.PERSON@example.com",
          "--role",
          "billing",
        ])
      ).code,
    ).toBe(0);
    const removed = await runOps(database, [
      "org",
      "member",
      "remove",
      "--org",
      org.id,
      "--email",
      "new.person@example.com",
    ]);
    expect(removed.code).toBe(0);
    expect((await listMembers(database.db, org.id)).map((m) => m.role)).toEqual(["owner"]);

    expect(
      (await runOps(database, ["org", "member", "add", "--org", org.id, "--email", "x@example.com", "--role", "king"]))
        .code,
    ).toBe(2);
    expect(
      (
        await runOps(database, [
          "org",
          "member",
          "add",
          "--org",
          "org_nope",
          "--email",
          "x@example.com",
          "--role",
          "member",
        ])
      ).code,
    ).toBe(1);
    expect(
      (await runOps(database, ["org", "member", "remove", "--org", org.id, "--email", "nobody@example.com"])).code,
    ).toBe(1);
  });
});
