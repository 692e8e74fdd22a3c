/**
 * The audit trail over real HTTP: changes made in the dashboard (`/api/trpc`, by session cookie)
 * recorded with the address the server saw, read back with `GET /v1/audit-events` page by page
 * with the cursor and filtered; bad parameters answered as problem+json `invalid_request`; another
 * organization's token never sees these events; the dashboard's CSV download.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { SESSION_COOKIE } from "../helpers/accounts";
import { dashboardCall } from "../helpers/dashboard";

const base = inject("appUrl");
const { audit, auditOther } = inject("accounts");

type Json = Record<string, unknown>;
interface AuditEvent {
  id: number;
  occurredAt: string;
  actor: { kind: string; userId: string | null; tokenId: string | null; label: string | null };
  clientAddress: string | null;
  userAgent: string | null;
  action: string;
  target: { type: string; id: string | null } | null;
  details: Json;
}

async function get(path: string, token = audit.token) {
  const response = await fetch(`${base}/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get("content-type"), body: (await response.json()) as Json };
}

const created: string[] = [];
beforeAll(async () => {
  for (const name of ["first", "=SUM(1,2)", "third"]) {
    const answer = await dashboardCall(base, audit.session, "tokens.create", { name, scopes: [] }, { mutation: true });
    expect(answer.status).toBe(200);
    created.push((answer.data as { token: { id: string } }).token.id);
  }
  const revoked = await dashboardCall(
    base,
    audit.session,
    "tokens.revoke",
    { tokenId: created[0] },
    { mutation: true },
  );
  expect(revoked.status).toBe(200);
  // Refused (no such token): records nothing.
  const refused = await dashboardCall(
    base,
    audit.session,
    "tokens.revoke",
    { tokenId: "tok_nope" },
    { mutation: true },
  );
  expect(refused.status).toBe(404);
});

describe("GET /v1/audit-events", () => {
  it("lists the changes newest first, with who, from where and what, and pages with the cursor", async () => {
    const seen: AuditEvent[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await get(`/audit-events?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.status).toBe(200);
      const events = page.body.events as AuditEvent[];
      expect(events.length).toBeLessThanOrEqual(2);
      seen.push(...events);
      cursor = page.body.nextCursor as string | null;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen.map((e) => [e.action, e.target?.id])).toEqual([
      ["token.revoke", created[0]],
      ["token.create", created[2]],
      ["token.create", created[1]],
      ["token.create", created[0]],
    ]);
    expect(pages).toBe(2);
    const ids = seen.map((e) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    for (const event of seen) {
      expect(event.actor).toMatchObject({ kind: "user", userId: audit.userId, tokenId: null });
      expect(event.actor.label).toMatch(/@example\.com$/);
      // The address our server saw at its door: the test runs on this machine.
      expect(event.clientAddress).toMatch(/127\.0\.0\.1|::1/);
      expect(event.userAgent).toBeTruthy();
    }
    expect(seen[2]?.details).toMatchObject({ name: "=SUM(1,2)", scopes: [] });
    expect(JSON.stringify(seen)).not.toContain("mps_");
  });

  it("filters by action, actor and period", async () => {
    const byAction = await get("/audit-events?action=token.revoke");
    expect((byAction.body.events as AuditEvent[]).map((e) => e.target?.id)).toEqual([created[0]]);
    const byActor = await get(`/audit-events?actor=${audit.userId}`);
    expect(byActor.body.events).toHaveLength(4);
    expect((await get("/audit-events?actor=usr_nobody")).body.events).toEqual([]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await get(`/audit-events?from=${future}`)).body.events).toEqual([]);
    expect((await get(`/audit-events?to=${future}&action=token.create`)).body.events).toHaveLength(3);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=201", "limit"],
    ["limit=ten", "limit"],
    ["cursor=bm9wZQ", "cursor"],
    ["action=token.explode", "action"],
    ["from=yesterday", "from"],
    ["from=0000-01-01T00:00:00Z", "from"],
    ["to=9999-12-31T23:59:59-14:00", "to"],
    ["actor=usr%00x", "actor"],
    ["actor=%27%20or%201%3D1", "actor"],
  ])("answers %s with problem+json invalid_request naming %s", async (query, parameter) => {
    const answer = await get(`/audit-events?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.type).toMatch(/^application\/problem\+json/);
    expect(answer.body.code).toBe("invalid_request");
    expect(JSON.stringify(answer.body.issues)).toContain(parameter);
  });

  it("never shows another organization's events, whatever it passes", async () => {
    const own = await get("/audit-events", auditOther.token);
    expect(own.status).toBe(200);
    expect(own.body.events).toEqual([]);
    const mine = await get("/audit-events?limit=1");
    const cursor = mine.body.nextCursor as string;
    const borrowed = await get(`/audit-events?cursor=${encodeURIComponent(cursor)}`, auditOther.token);
    expect(borrowed.body.events).toEqual([]);
    const byActor = await get(`/audit-events?actor=${audit.userId}`, auditOther.token);
    expect(byActor.body.events).toEqual([]);
  });

  it("is free and needs a token", async () => {
    const answer = await fetch(`${base}/v1/audit-events`);
    expect(answer.status).toBe(401);
  });
});

describe("the dashboard's CSV", () => {
  it("downloads the trail as CSV with formula cells neutralised, for the owner only", async () => {
    const response = await fetch(`${base}/audit/export.csv?action=token.create`, {
      headers: { Cookie: `${SESSION_COOKIE}=${audit.session}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="audit-org_[A-Za-z0-9_-]+-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = await response.text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^id,occurred_at,actor_kind/);
    // The details cell is JSON (starts with `{`); the token's name lives inside it, escaped.
    expect(text).toContain('""name"":""=SUM(1,2)""');
    const refused = await fetch(`${base}/audit/export.csv?action=nonsense`, {
      headers: { Cookie: `${SESSION_COOKIE}=${audit.session}` },
    });
    expect(refused.status).toBe(400);
    const anonymous = await fetch(`${base}/audit/export.csv`, { redirect: "manual" });
    expect(anonymous.status).toBe(303);
  });
});
