/**
 * OWASP API3:2023 Broken Object Property Level Authorization, tried against the running app:
 * what an answer may hold (never a token's hash or secret, a webhook's signing secret, another
 * organization's figures) and what a request may set (no balance, rate limit or id slipped into a
 * mutation's input; no field `fields` does not know).
 */
import { describe, expect, inject, it } from "vitest";
import { dashboardCall } from "../../helpers/dashboard";

const base = inject("appUrl");
const { hostile, people } = inject("accounts");

const as = (session: string, procedure: string, input?: unknown, mutation = false) =>
  dashboardCall(base, session, procedure, input, { mutation });

/** Every key anywhere in a JSON value. */
const keysOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(keysOf)
    : value && typeof value === "object"
      ? Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])
      : [];

describe("API3: what answers never hold", () => {
  it("lists tokens without their secret or its hash, and shows a new secret once", async () => {
    const created = await as(hostile.session, "tokens.create", { name: "api3", scopes: ["Market.Read.All"] }, true);
    const { secret } = created.data as { secret: string };
    expect(secret).toMatch(/^mps_/);
    const listed = await as(hostile.session, "tokens.list");
    const text = JSON.stringify(listed.data);
    expect(text).not.toContain(secret);
    expect(keysOf(listed.data).map((k) => k.toLowerCase())).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/hash|secret/)]),
    );
  });

  it("lists webhook endpoints without their signing secrets", async () => {
    const created = await as(
      hostile.session,
      "webhooks.create",
      { url: "https://hooks.api3.example/x", events: ["market.archived"] },
      true,
    );
    const { secret, endpoint } = created.data as { secret: string; endpoint: { id: string } };
    for (const answer of [
      await as(hostile.session, "webhooks.list"),
      await as(hostile.session, "webhooks.deliveries", { endpointId: endpoint.id }),
    ]) {
      expect(JSON.stringify(answer.data)).not.toContain(secret);
      expect(JSON.stringify(answer.data)).not.toContain("whsec_");
    }
    await as(hostile.session, "webhooks.remove", { endpointId: endpoint.id }, true);
  });

  it("answers the token's own organization only, over REST and MCP", async () => {
    const rest = (await (
      await fetch(`${base}/v1/organization`, { headers: { Authorization: `Bearer ${hostile.token}` } })
    ).json()) as {
      organizationId: string;
    };
    expect(rest.organizationId).toBe(hostile.id);
  });

  it("refuses a product field that does not exist, rather than answering it", async () => {
    const response = await fetch(`${base}/v1/markets/foundation-model-apis/snapshot?fields=secretHash`, {
      headers: { Authorization: `Bearer ${hostile.token}` },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe("invalid_request");
  });
});

describe("API3: what requests may not set", () => {
  it("creates an organization from its name and country alone: balance, rate limit and id slipped in are ignored", async () => {
    const created = await as(
      people.assigner,
      "organizations.create",
      {
        name: "Mass assignment",
        homeCountry: "DE",
        creditBalance: 1_000_000_000,
        credits: 1_000_000_000,
        rateLimit: 1_000_000_000,
        id: "org_demo",
      },
      true,
    );
    expect(created.status).toBe(200);
    const organization = created.data as { id: string; creditBalance: number };
    expect(organization.id).not.toBe("org_demo");
    expect(organization.creditBalance).toBe(1000);
    const listed = (await as(people.assigner, "organizations.list")).data as {
      organizations: { id: string; rateLimit: number | null; creditBalance: number }[];
    };
    const mine = listed.organizations.find((o) => o.id === organization.id);
    expect(mine).toMatchObject({ rateLimit: null, creditBalance: 1000 });
  });

  it("never grants a scope a token may not have", async () => {
    const answer = await as(hostile.session, "tokens.create", { name: "admin", scopes: ["Admin.All"] }, true);
    expect(answer.status).toBe(400);
    expect(answer.problem?.code).toBe("invalid_request");
  });

  it("ignores a prototype-polluting input", async () => {
    const answer = await fetch(`${base}/api/trpc/tokens.create`, {
      method: "POST",
      headers: { Cookie: `authjs.session-token=${hostile.session}`, Origin: base, "Content-Type": "application/json" },
      body: '{"name":"proto","scopes":[],"__proto__":{"scopes":["Admin.All"]},"constructor":{"prototype":{"admin":true}}}',
    });
    expect(answer.status).toBe(200);
    const listed = (await as(hostile.session, "tokens.list")).data as { name: string; scopes: string[] }[];
    expect(listed.find((t) => t.name === "proto")?.scopes).toEqual([]);
    expect(({} as { admin?: boolean }).admin).toBeUndefined();
  });
});
