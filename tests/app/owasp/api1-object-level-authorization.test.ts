/**
 * OWASP API1:2023 Broken Object Level Authorization, tried against the running app: one
 * organization's signed-in person and token name another organization's objects by their ids —
 * webhook endpoints and their messages, API tokens, ledger cursors, MCP reading links — and must
 * learn nothing of them and change nothing ("not found", as for an id that does not exist).
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { dashboardCall } from "../../helpers/dashboard";
import { callToolComingBack } from "../../helpers/mcp";

const base = inject("appUrl");
const { hostile, victim } = inject("accounts");

const as = (who: { session: string }, procedure: string, input?: unknown, mutation = false) =>
  dashboardCall(base, who.session, procedure, input, { mutation });

let endpointId: string;
let messageId: string;
let victimTokenId: string;

beforeAll(async () => {
  const created = await as(
    victim,
    "webhooks.create",
    { url: "https://hooks.victim.example/mps", events: ["release.published"] },
    true,
  );
  expect(created.status).toBe(200);
  endpointId = (created.data as { endpoint: { id: string } }).endpoint.id;
  const test = await as(victim, "webhooks.sendTest", { endpointId }, true);
  messageId = (test.data as { messageId: string }).messageId;
  const tokens = (await as(victim, "tokens.list")).data as { id: string; name: string }[];
  victimTokenId = (tokens[0] as { id: string }).id;
});

describe("API1: another organization's webhook endpoint", () => {
  it.each([
    ["webhooks.update", () => ({ endpointId, url: "https://attacker.example/steal" }), true],
    ["webhooks.rotateSecret", () => ({ endpointId }), true],
    ["webhooks.sendTest", () => ({ endpointId }), true],
    ["webhooks.deliveries", () => ({ endpointId }), false],
    ["webhooks.resend", () => ({ messageId }), true],
    ["webhooks.remove", () => ({ endpointId }), true],
  ] as const)("%s by its id is not found, and changes nothing", async (procedure, input, mutation) => {
    const answer = await as(hostile, procedure, input(), mutation);
    expect(answer.status).toBe(404);
    expect(answer.problem?.code).toBe("not_found");
    expect(JSON.stringify(answer)).not.toContain("hooks.victim.example");
  });

  it("is still the victim's, as it was", async () => {
    const listed = (await as(victim, "webhooks.list")).data as { endpoints: { id: string; url: string }[] };
    expect(listed.endpoints.find((e) => e.id === endpointId)?.url).toBe("https://hooks.victim.example/mps");
    const mine = (await as(hostile, "webhooks.list")).data as { endpoints: { id: string }[] };
    expect(mine.endpoints.map((e) => e.id)).not.toContain(endpointId);
  });

  it("does not take another endpoint's message as a page cursor", async () => {
    const own = await as(
      hostile,
      "webhooks.create",
      { url: "https://hooks.hostile.example/x", events: ["release.published"] },
      true,
    );
    const ownId = (own.data as { endpoint: { id: string } }).endpoint.id;
    const answer = await as(hostile, "webhooks.deliveries", { endpointId: ownId, cursor: messageId });
    expect(answer.status).toBe(400);
    expect(answer.problem?.code).toBe("invalid_request");
    await as(hostile, "webhooks.remove", { endpointId: ownId }, true);
  });
});

describe("API1: another organization's API token", () => {
  it("cannot be revoked by its id, and keeps working", async () => {
    const answer = await as(hostile, "tokens.revoke", { tokenId: victimTokenId }, true);
    expect(answer.status).toBe(404);
    const still = await fetch(`${base}/v1/markets`, { headers: { Authorization: `Bearer ${victim.token}` } });
    expect(still.status).toBe(200);
  });

  it("is never listed", async () => {
    const listed = (await as(hostile, "tokens.list")).data as { id: string }[];
    expect(listed.map((t) => t.id)).not.toContain(victimTokenId);
  });
});

describe("API1: another organization's ledger", () => {
  it("is not reached through a cursor: a page after one of its entries holds only the caller's", async () => {
    await fetch(`${base}/v1/markets/foundation-model-apis/capaindex`, {
      headers: { Authorization: `Bearer ${victim.token}` },
    });
    const theirs = (await (
      await fetch(`${base}/v1/ledger?limit=1`, { headers: { Authorization: `Bearer ${victim.token}` } })
    ).json()) as { entries: { id: number }[]; nextCursor: string | null };
    const theirId = theirs.entries[0]?.id as number;
    const ours = await fetch(`${base}/v1/ledger?limit=100`, { headers: { Authorization: `Bearer ${hostile.token}` } });
    const ownIds = ((await ours.json()) as { entries: { id: number }[] }).entries.map((e) => e.id);
    expect(ownIds).not.toContain(theirId);
    // Its cursor, handed to the other organization, pages the caller's own ledger or is refused.
    if (theirs.nextCursor) {
      const moved = await fetch(`${base}/v1/ledger?cursor=${encodeURIComponent(theirs.nextCursor)}`, {
        headers: { Authorization: `Bearer ${hostile.token}` },
      });
      expect([200, 400]).toContain(moved.status);
      if (moved.status === 200) {
        const entries = ((await moved.json()) as { entries: { id: number }[] }).entries.map((e) => e.id);
        for (const id of entries) expect(ownIds).toContain(id);
      }
    }
  });

  it("is not the one the dashboard shows the caller", async () => {
    const page = (await as(hostile, "credits.ledger", { limit: 100 })).data as { entries: { id: number }[] };
    const victimPage = (await as(victim, "credits.ledger", { limit: 100 })).data as { entries: { id: number }[] };
    const shared = page.entries.filter((e) => victimPage.entries.some((v) => v.id === e.id));
    expect(shared).toEqual([]);
  });
});

describe("API1: another organization's MCP reading link", () => {
  it("is refused: the receipt binds the link to the organization that paid", async () => {
    const connect = async (token: string) => {
      const client = new Client({ name: "mps-owasp", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    };
    const theirs = await connect(victim.token);
    const ours = await connect(hostile.token);
    try {
      const result = (await callToolComingBack(theirs, "service_market_get_servicemax", {
        marketId: "generated-1000",
        country: "FR",
      })) as { content: { type: string; uri?: string }[] };
      const link = result.content.find((c) => c.type === "resource_link")?.uri as string;
      expect(link).toContain("receipt=");
      await expect(ours.readResource({ uri: link })).rejects.toThrow(/not this organization's/);
    } finally {
      await theirs.close();
      await ours.close();
    }
  });
});
