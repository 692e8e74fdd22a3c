/**
 * What an agent meets when it asks wrongly or runs short, through the MCP SDK's own client against
 * the running app: an argument a tool does not take is a tool error naming it and the tool that
 * takes it (REST still ignores unknown query parameters); every tool says in tools/list what scope
 * it needs, what it costs and, where it carries them, the rank odds; a narrowed product always
 * says whether it is available, and the text of a narrowed reading names its market, release and
 * country; the usage tool is free and leads with the balance and the biggest spends; the 402 says
 * where credits come from; no share between none and all prints as 0 % or 100 %. Expected facts
 * are taken from the same call's structuredContent or from REST, never from the text's wording.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callToolComingBack, postToolCall, type ToolResult } from "../helpers/mcp";

const base = inject("appUrl");
const { reader, broke, failures, tokens } = inject("accounts");
const MARKET = "foundation-model-apis";

type Problem = { code: string; detail: string; issues?: { path: string; message: string }[]; creditsUrl?: string };
// biome-ignore lint/suspicious/noExplicitAny: payloads are read field by field
type Payload = any;

const clients: Client[] = [];
async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "mps-arguments", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

let asReader: Client;
let asBroke: Client;
let asFailures: Client;
beforeAll(async () => {
  [asReader, asBroke, asFailures] = await Promise.all([
    connect(reader.token),
    connect(broke.token),
    connect(failures.token),
  ]);
});
afterAll(() => Promise.all(clients.map((client) => client.close())));

/**
 * A tools/call as a client makes it: a reading of the 1,000-product market may meet the pool's busy
 * answer on a loaded machine (nothing debited) and is asked again (tests/helpers/mcp.ts).
 */
const callTool = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await callToolComingBack(client, name, args)) as ToolResult & { structuredContent?: Payload };
const textOf = (result: ToolResult) => result.content.find((c) => c.type === "text")?.text ?? "";
const problemOf = (result: ToolResult) => JSON.parse(textOf(result)) as Problem;

const rest = async (token: string, path: string) => {
  const response = await fetch(`${base}/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Payload };
};
const balanceOf = async (token: string) => (await rest(token, "/organization")).body.balance as number;

describe("an argument a tool does not take", () => {
  it("is a tool error naming it and the tool that takes it, and costs nothing", async () => {
    const before = await balanceOf(failures.token);
    const result = await callTool(asFailures, "service_market_get_capaindex", { marketId: MARKET, country: "FR" });
    expect(result.isError).toBe(true);
    const problem = problemOf(result);
    expect(problem.code).toBe("invalid_request");
    expect(problem.detail).toContain(
      "country is not an argument of service_market_get_capaindex; service_market_get_servicemax takes it",
    );
    expect(problem.issues).toEqual([
      {
        path: "country",
        message: "country is not an argument of service_market_get_capaindex; service_market_get_servicemax takes it",
      },
    ]);
    // What it does take, so a misspelt name can be put right.
    expect(problem.detail).toContain("service_market_get_capaindex takes marketId, release, limit");
    expect(result._meta?.problem?.code).toBe("invalid_request");
    expect(await balanceOf(failures.token)).toBe(before);
  });

  it("names every tool that takes it when none is declared, and says so when none does", async () => {
    const weights = problemOf(
      await callTool(asFailures, "service_market_get_delta", { marketId: MARKET, weights: "innovation:1" }),
    );
    expect(weights.detail).toContain(
      "weights is not an argument of service_market_get_delta; service_market_whatif takes it",
    );
    const stray = problemOf(await callTool(asFailures, "service_markets_list", { colour: "red" }));
    expect(stray.detail).toBe(
      "colour is not an argument of service_markets_list; no tool takes it. service_markets_list takes no arguments.",
    );
    // Several at once, each its own issue, known arguments not among them.
    const two = problemOf(
      await callTool(asFailures, "service_market_get_snapshot", { marketId: MARKET, country: "FR", minSeal: 2 }),
    );
    expect(two.issues?.map((issue) => issue.path)).toEqual(["country", "minSeal"]);
    expect(two.detail).toContain(
      "country is not an argument of service_market_get_snapshot; service_market_get_delta takes it",
    );
    expect(two.detail).toMatch(
      /minSeal is not an argument of service_market_get_snapshot; service_market_get_delta, service_market_get_servicemax take it/,
    );
  });

  it("repeats a hostile name cut short and quoted, never a whole megabyte of it", async () => {
    const long = `x${"<script>".repeat(200)}`;
    const result = await callTool(asFailures, "service_markets_list", { [long]: 1, 'a"b': 2 });
    const problem = problemOf(result);
    expect(problem.code).toBe("invalid_request");
    expect(textOf(result).length).toBeLessThan(1_500);
    expect(problem.detail).toContain(JSON.stringify(`${long.slice(0, 64)}…`));
    expect(problem.detail).toContain(`${JSON.stringify('a"b')} is not an argument of service_markets_list`);
  });

  it("is the same error on a plain POST (the edge's own path) as through the SDK", async () => {
    const response = await postToolCall(base, failures.token, "service_market_get_capaindex", {
      marketId: MARKET,
      country: "FR",
    });
    const body = await response.text();
    const message = JSON.parse(body.slice(body.indexOf("{"))) as { result: ToolResult };
    expect(message.result.isError).toBe(true);
    expect(problemOf(message.result).detail).toContain("service_market_get_servicemax takes it");
  });

  it("is still ignored by REST, which may meet a tracker's query parameter", async () => {
    const answer = await rest(reader.token, `/markets/${MARKET}/capaindex?country=FR&utm_source=x`);
    expect(answer.status).toBe(200);
    expect(answer.body.products.length).toBeGreaterThan(0);
  });
});

describe("tools/list, for a token without Market.Read.All too", () => {
  it("says of each tool the scope it needs and its price, of the odds' tools the odds, and closes every input", async () => {
    const listed = await (await connect(tokens.noScope)).listTools();
    for (const tool of listed.tools) {
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.description, tool.name).toMatch(/(Free|Costs \d+ credits?)\.$/);
      const paid = !/Free\.$/.test(tool.description ?? "");
      if (paid) expect(tool.description, tool.name).toContain("Needs Market.Read.All.");
    }
    const odds = listed.tools.filter(
      (tool) => (tool.outputSchema as Payload)?.properties?.products?.items?.properties?.rankOdds,
    );
    expect(odds.map((tool) => tool.name).sort()).toEqual([
      "service_market_get_capaindex",
      "service_market_get_servicemax",
    ]);
    for (const tool of odds) expect(tool.description, tool.name).toContain("rank odds");
    expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThanOrEqual(24_000);
  });
});

describe("a narrowed reading (fields)", () => {
  it("keeps whether each product is available, and its text names the market, the release and the country", async () => {
    const result = await callTool(asReader, "service_market_get_servicemax", {
      marketId: MARKET,
      country: "FR",
      fields: "on,distance",
    });
    expect(result.isError ?? false, textOf(result).slice(0, 300)).toBe(false);
    const data = result.structuredContent;
    expect(data.fields).toEqual(["productId", "name", "available", "on", "distance"]);
    const products = data.products as { productId: string; name: string; available: boolean }[];
    for (const p of products) expect(typeof p.available, p.productId).toBe("boolean");
    const unavailable = products.filter((p) => !p.available);
    expect(unavailable.length, "the demo market has products unavailable under FR").toBeGreaterThan(0);
    const [first, ...lines] = textOf(result).split("\n");
    expect(first).toContain(data.marketId);
    expect(first).toContain(`release ${data.release}`);
    expect(first).toContain("under FR");
    for (const p of unavailable) {
      const line = lines.find((l) => l.includes(`(${p.productId})`)) ?? "";
      expect(line).toContain("unavailable");
      expect(line).toContain('"available":false');
    }
    // REST answers the same sparse products.
    const onRest = await rest(reader.token, `/markets/${MARKET}/servicemax?country=FR&fields=on,distance`);
    expect(onRest.body.products).toEqual(data.products);
  });

  it("keeps available at 1,000 products too, within the budget, and names the releases of a comparison", async () => {
    const big = await callTool(asReader, "service_market_get_delta", {
      marketId: "generated-1000",
      fields: "distance",
    });
    expect(big.isError ?? false, textOf(big).slice(0, 300)).toBe(false);
    for (const p of big.structuredContent.products) expect(p).toHaveProperty("available");
    expect(Buffer.byteLength(JSON.stringify(big)) / 4).toBeLessThan(8_000);
    const changes = await callTool(asReader, "service_market_get_changes", {
      marketId: MARKET,
      country: "DE",
      fields: "status",
    });
    expect(changes.isError ?? false, textOf(changes).slice(0, 300)).toBe(false);
    const { from, to } = changes.structuredContent;
    expect(textOf(changes).split("\n")[0]).toContain(`${MARKET}, releases ${from.release} → ${to.release}, under DE`);
  });
});

describe("service_account_get_usage", () => {
  it("is free: the balance is the same after it, even with no credits at all", async () => {
    const before = await balanceOf(failures.token);
    const result = await callTool(asFailures, "service_account_get_usage", {});
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(result._meta?.credits?.cost).toBe(0);
    expect(await balanceOf(failures.token)).toBe(before);
    expect(textOf(result).split("\n")[0]).toMatch(new RegExp(`^Balance: ${before.toLocaleString("en")} credits\\.`));
    const none = await callTool(asBroke, "service_account_get_usage", {});
    expect(none.isError ?? false, textOf(none)).toBe(false);
    expect(none.structuredContent.balance).toBe(0);
    expect(textOf(none)).toMatch(/^Balance: 0 credits\./);
  });

  it("leads with the balance and the biggest spends by operation, as REST's sums say", async () => {
    await callTool(asReader, "service_market_get_snapshot", { marketId: MARKET });
    const result = await callTool(asReader, "service_account_get_usage", {});
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const data = result.structuredContent;
    expect(data.groupBy).toBe("operation");
    const onRest = await rest(reader.token, "/usage?groupBy=operation");
    expect(onRest.body.buckets.length).toBe(data.buckets.length);
    const sums = new Map<string, number>();
    for (const bucket of data.buckets)
      for (const group of bucket.groups) sums.set(group.key, (sums.get(group.key) ?? 0) + group.credits);
    const ranked = [...sums].sort((a, b) => b[1] - a[1]);
    expect(ranked.length).toBeGreaterThan(0);
    const [first, second] = textOf(result).split("\n");
    expect(first).toContain(`Balance: ${data.balance.toLocaleString("en")} credits.`);
    expect(first).toContain(`Spent ${data.totals.credits.toLocaleString("en")} credits`);
    expect(second).toMatch(/^Biggest spends by operation: /);
    // In order, biggest first.
    const positions = ranked.map(([key]) => second?.indexOf(`${key} `) ?? -1);
    expect(positions.every((at) => at >= 0)).toBe(true);
    const [topKey, topCredits] = ranked[0] as [string, number];
    expect(second).toContain(`${topKey} ${topCredits.toLocaleString("en")} (`);
    expect(data.balance).toBe(await balanceOf(reader.token));
  });

  it("refuses, free and in words, an answer over the token budget, and an argument it does not take", async () => {
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const hours = await callTool(asFailures, "service_account_get_usage", { bucket: "hour", from });
    expect(hours.isError).toBe(true);
    expect(textOf(hours).length / 4).toBeLessThan(8_000);
    const problem = problemOf(hours);
    expect(problem.code).toBe("invalid_request");
    expect(problem.detail).toMatch(/over the 8,000 a tool result may take: ask for a shorter period/);
    const stray = problemOf(await callTool(asFailures, "service_account_get_usage", { limit: 5 }));
    expect(stray.detail).toContain("limit is not an argument of service_account_get_usage;");
  });
});

describe("a call the organization cannot pay for", () => {
  it("says where credits come from: the Credits page, on MCP and on REST alike", async () => {
    const result = await callTool(asBroke, "service_market_get_snapshot", { marketId: MARKET });
    expect(result.isError).toBe(true);
    const problem = problemOf(result);
    expect(problem.code).toBe("insufficient_credits");
    expect(problem.creditsUrl).toMatch(/^https?:\/\/[^/]+\/credits$/);
    expect(problem.detail).toContain(`on the Credits page: ${problem.creditsUrl}.`);
    const page = await fetch(problem.creditsUrl as string, { redirect: "manual" });
    expect([200, 307, 302, 303]).toContain(page.status); // the dashboard's page (sign-in first when signed out)
    const onRest = await rest(broke.token, `/markets/${MARKET}/snapshot`);
    expect(onRest.status).toBe(402);
    expect(onRest.body.detail).toBe(problem.detail);
    expect(onRest.body.creditsUrl).toBe(problem.creditsUrl);
  });
});

describe("percentages in tool texts", () => {
  it("never say 0 % or 100 % of odds strictly between none and all", async () => {
    const result = await callTool(asReader, "service_market_get_capaindex", {
      marketId: "generated-1000",
      limit: 40,
    });
    expect(result.isError ?? false, textOf(result).slice(0, 300)).toBe(false);
    const lines = textOf(result).split("\n");
    let between = 0;
    for (const p of result.structuredContent.products as { productId: string; name: string; rankOdds: Payload }[]) {
      const line = lines.find((l) => l.includes(`${p.name} (`)) ?? "";
      for (const [label, share] of [
        ["P(top 1)", p.rankOdds.top1],
        ["P(top 3)", p.rankOdds.top3],
        ["P(top 5)", p.rankOdds.top5],
      ] as const) {
        if (share <= 0 || share >= 1) continue;
        between += 1;
        expect(line, `${p.productId} ${label} ${share}`).not.toMatch(
          new RegExp(`${label.replace(/[()]/g, "\\$&")} (0|100) %`),
        );
      }
    }
    expect(between).toBeGreaterThan(0);
  });
});
