/**
 * The caller's account over the API (organization and its members, usage, ledger), over real HTTP and the MCP SDK
 * client: free with any valid token; usage adds up to the ledger to the credit, per bucket and per
 * group, checked against the ledger read page by page; errors name the parameter.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, inject, it } from "vitest";

const base = inject("appUrl");
const accounts = inject("accounts");
const { reader, tokens } = accounts;

type Json = Record<string, unknown>;
interface LedgerEntry {
  id: number;
  kind: string;
  amount: number;
  balanceAfter: number;
  operation: string | null;
  tokenId: string | null;
  createdAt: string;
}
interface Figures {
  credits: number;
  calls: number;
}
interface Usage {
  from: string;
  to: string;
  totals: Figures;
  buckets: (Figures & { start: string; groups?: (Figures & { key: string | null })[] })[];
}

async function get(path: string, token = reader.token): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(`${base}/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
}

/** Every ledger entry created in [from, to), read page by page (newest first). */
async function ledgerBetween(from: Date, to: Date): Promise<LedgerEntry[]> {
  const seen: LedgerEntry[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = await get(`/ledger?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    expect(page.status).toBe(200);
    const entries = page.body.entries as LedgerEntry[];
    seen.push(...entries.filter((e) => new Date(e.createdAt) >= from && new Date(e.createdAt) < to));
    cursor = page.body.nextCursor as string | null;
    if (!cursor || entries.some((e) => new Date(e.createdAt) < from)) return seen;
  }
}

const sum = (entries: LedgerEntry[]): Figures => ({
  credits: entries.reduce((total, e) => total - e.amount, 0),
  calls: entries.length,
});

describe("the account over the API", () => {
  it("tells the organization its balance and limits, free, with any valid token", async () => {
    const answer = await get("/organization", tokens.noScope); // a token of the reader's organization with no scope
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-credits-cost")).toBe("0");
    expect(answer.body).toMatchObject({
      organizationId: reader.id,
      rateLimit: { limit: expect.any(Number), windowSeconds: 2 },
      concurrency: { maxInFlight: expect.any(Number), maxQueued: 1000 },
    });
    const rateLimit = answer.body.rateLimit as { limit: number; remaining: number; windowSeconds: number };
    expect(rateLimit.remaining).toBeLessThan(rateLimit.limit);
    // The same figures in both generations of the IETF draft's headers.
    expect(answer.headers.get("ratelimit-policy")).toBe(`"default";q=${rateLimit.limit};w=${rateLimit.windowSeconds}`);
    expect(answer.headers.get("ratelimit")).toMatch(new RegExp(`^"default";r=${rateLimit.remaining};t=\\d+$`));
    expect(answer.headers.get("ratelimit-remaining")).toBe(String(rateLimit.remaining));
    // An organization nobody spends for: its balance is its ledger's, exactly.
    const broke = await get("/organization", accounts.broke.token);
    const ledger = (await get("/ledger?limit=100", accounts.broke.token)).body.entries as LedgerEntry[];
    expect(broke.body.organizationId).toBe(accounts.broke.id);
    expect(broke.body.balance).toBe(ledger.reduce((total, e) => total + e.amount, 0));
    expect(broke.body.balance).toBe(ledger[0]?.balanceAfter ?? 0);
  });

  it("lists the organization's members with their roles, with any valid token", async () => {
    const answer = await get("/organization", tokens.noScope);
    expect(answer.status).toBe(200);
    // The reader's organization has two people, both owners: the suite's user and the one whose session expired.
    const members = answer.body.members as { userId: string; role: string }[];
    expect(members).toContainEqual({
      userId: reader.userId,
      email: expect.stringMatching(/^fixture-[0-9a-f]+@example\.com$/),
      name: null,
      role: "owner",
      joinedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(members.map((m) => m.role)).toEqual(["owner", "owner"]);
    // Another organization's token sees its own people only.
    const broke = await get("/organization", accounts.broke.token);
    expect((broke.body.members as { userId: string }[]).map((m) => m.userId)).toEqual([accounts.broke.userId]);
  });

  it("adds usage up to the ledger to the credit: totals, each hour, and each operation and token", async () => {
    // Spend something of our own, then look at a period that ended after a pause: every debit in it
    // is committed, and our two are in it (the whole second `to` rounds down to is after them).
    for (const path of ["/markets/foundation-model-apis/capaindex", "/markets/foundation-model-apis/delta?country=FR"])
      expect((await get(path)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const to = new Date(Math.floor(Date.now() / 1000) * 1000);
    const from = new Date(Math.floor(to.getTime() / 3_600_000) * 3_600_000 - 3_600_000); // the previous hour's start
    const debits = (await ledgerBetween(from, to)).filter((e) => e.kind === "debit");
    expect(debits.length).toBeGreaterThanOrEqual(2);

    const byHour = (await get(`/usage?bucket=hour&from=${from.toISOString()}&to=${to.toISOString()}`)).body as Json &
      Usage;
    expect(byHour.from).toBe(from.toISOString());
    expect(byHour.totals).toEqual(sum(debits));
    expect(byHour.buckets.map((b) => b.start)).toEqual([
      from.toISOString(),
      new Date(from.getTime() + 3_600_000).toISOString(),
    ]);
    for (const bucket of byHour.buckets) {
      const start = new Date(bucket.start).getTime();
      const inBucket = debits.filter((e) => {
        const at = new Date(e.createdAt).getTime();
        return at >= start && at < start + 3_600_000;
      });
      expect({ credits: bucket.credits, calls: bucket.calls }).toEqual(sum(inBucket));
    }

    for (const groupBy of ["operation", "token"] as const) {
      const grouped = (
        await get(`/usage?bucket=day&groupBy=${groupBy}&from=${from.toISOString()}&to=${to.toISOString()}`)
      ).body as Json & Usage;
      expect(grouped.totals).toEqual(sum(debits));
      const fromGroups = new Map<string | null, Figures>();
      for (const bucket of grouped.buckets)
        for (const group of bucket.groups ?? []) {
          const known = fromGroups.get(group.key) ?? { credits: 0, calls: 0 };
          fromGroups.set(group.key, { credits: known.credits + group.credits, calls: known.calls + group.calls });
        }
      const keyOf = (e: LedgerEntry) => (groupBy === "operation" ? e.operation : e.tokenId);
      const fromLedger = new Map<string | null, Figures>();
      for (const key of new Set(debits.map(keyOf))) fromLedger.set(key, sum(debits.filter((e) => keyOf(e) === key)));
      expect(fromGroups, groupBy).toEqual(fromLedger);
    }
  });

  it("lists every bucket of the period, and refuses periods it cannot answer, naming the parameter", async () => {
    const days = (await get("/usage")).body as Json & Usage;
    expect(days.buckets).toHaveLength(30);
    expect(days.buckets.every((b) => b.start.endsWith("T00:00:00.000Z"))).toBe(true);
    for (const [query, parameter] of [
      ["bucket=minute", "bucket"],
      ["from=yesterday", "from"],
      ["from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z", "to"],
      ["bucket=hour&from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z", "from"],
      ["groupBy=vendor", "groupBy"],
    ] as const) {
      const answer = await get(`/usage?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.code, query).toBe("invalid_request");
      expect((answer.body.issues as { path: string }[])[0]?.path, query).toBe(parameter);
    }
  });

  it("pages the ledger newest first without overlap, and refuses a cursor it did not give", async () => {
    // Entries of its own, whatever ran before: six paid calls, six debits.
    for (let i = 0; i < 6; i++) expect((await get("/markets/foundation-model-apis/capaindex")).status).toBe(200);
    const first = await get("/ledger?limit=3");
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await get(`/ledger?limit=3&cursor=${first.body.nextCursor}`);
    const ids = [...(first.body.entries as LedgerEntry[]), ...(second.body.entries as LedgerEntry[])].map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(6);
    const bad = await get("/ledger?cursor=not-ours");
    expect(bad.status).toBe(400);
    expect((bad.body.issues as { path: string }[])[0]?.path).toBe("cursor");
  });

  it("answers the organization on MCP as on REST", async () => {
    const client = new Client({ name: "mps-account", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${reader.token}` } },
      }),
    );
    try {
      const result = (await client.callTool({ name: "service_account_get", arguments: {} })) as unknown as {
        structuredContent: Json;
        content: { text: string }[];
        _meta: { credits: { cost: number } };
      };
      const rest = (await get("/organization")).body;
      const steady = ({ rateLimit, balance, ...rest }: Json) => ({
        ...rest,
        rateLimit: { ...(rateLimit as Json), remaining: 0, resetSeconds: 0 },
      });
      expect(steady(result.structuredContent)).toEqual(steady(rest));
      expect(result._meta.credits.cost).toBe(0);
      expect(result.content[0]?.text).toMatch(/credits left; rate limit \d+ calls per 2 s/);
    } finally {
      await client.close();
    }
  });
});
