/**
 * Logs and metrics of the running app. A private instance (its own database, log and metrics, and
 * a METRICS_TOKEN) takes a known set of calls, so its counters must move by exactly those calls
 * and its log must hold exactly their lines; the suite's shared app shows /metrics hidden from
 * non-local clients when no token is set. Expected values come from the calls made and the
 * operation table (prices), never from the app's own figures.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApiToken, TOKEN_SCOPES } from "@/server/4-api-access/tokens";
import { createOrganization } from "@/server/4-organizations/organizations";
import { OPERATIONS } from "@/server/7-procedures/operations";
import { type FixtureOrganization, organization } from "../helpers/accounts";
import { type AppDatabase, prepareAppDatabase } from "../helpers/database";
import { apiCallLines, apiLineProblems, type LogLine, secretsIn } from "../helpers/logs";
import { parseExposition, type Samples, sample, total } from "../helpers/metrics";
import { type RunningApp, startApp } from "../helpers/server";

const METRICS_TOKEN = `metrics-${Math.random().toString(36).slice(2)}`;
const STARTING_CREDITS = 1000;
/** Somewhere outside this machine, as a proxy in front of the app would say. */
const FAR_AWAY = { "X-Forwarded-For": "203.0.113.7" };

let app: RunningApp;
let dataDir: string;
let database: AppDatabase<void> | undefined;
let payer: FixtureOrganization;
/** An organization allowed two calls per window. */
let limited: { id: string; token: string };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "mps-observability-"));
  database = await prepareAppDatabase(dataDir, async (db) => {
    payer = await organization(db, "Observed", { homeCountry: "FR", credits: STARTING_CREDITS });
    const org = await createOrganization(db, { name: "Limited", homeCountry: "DE", credits: 0, rateLimit: 2 });
    const { secret } = await createApiToken(db, { organizationId: org.id, name: "t", scopes: TOKEN_SCOPES });
    limited = { id: org.id, token: secret };
  });
  app = await startApp(
    {
      ...database.env,
      METRICS_TOKEN,
      REDIS_URL: "",
      LOG_LEVEL: "info",
    },
    undefined,
    path.join(dataDir, "app.log"),
  );
});

afterAll(async () => {
  await app?.stop();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function scrape(headers: Record<string, string> = {}): Promise<Samples> {
  const response = await fetch(`${app.url}/metrics`, { headers });
  expect(response.status).toBe(200);
  return parseExposition(await response.text());
}

/** How much each series moved between two scrapes (series absent before count from 0). */
const moved = (before: Samples, after: Samples, name: string, labels: Record<string, string> = {}) =>
  (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);

async function get(apiPath: string, token: string | null, headers: Record<string, string> = {}) {
  const response = await fetch(`${app.url}/v1${apiPath}`, {
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
  });
  await response.arrayBuffer();
  return response;
}

/** The log lines of /v1 and /mcp calls that match, once there is one (the log comes through a pipe). */
async function loggedLines(match: (line: LogLine) => boolean): Promise<LogLine[]> {
  let lines: LogLine[] = [];
  await expect
    .poll(() => {
      lines = apiCallLines(app.output()).filter(match);
      return lines.length;
    })
    .toBeGreaterThan(0);
  return lines;
}

/** The one line that matches: a call is said once. */
async function theLine(match: (line: LogLine) => boolean): Promise<LogLine> {
  const lines = await loggedLines(match);
  expect(lines).toHaveLength(1);
  return lines[0] as LogLine;
}

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "observability-tests", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

describe("metrics", () => {
  it("move by exactly the calls made: requests, latencies, credits, refusals, token lookups", async () => {
    const before = await scrape();
    const SNAPSHOT = "/markets/foundation-model-apis/snapshot";
    const first = await get(SNAPSHOT, payer.token);
    expect(first.status).toBe(200);
    expect((await get(SNAPSHOT, payer.token)).status).toBe(200);
    const etag = first.headers.get("etag") ?? "";
    expect((await get(SNAPSHOT, payer.token, { "If-None-Match": etag })).status).toBe(304);
    expect((await get("/markets/foundation-model-apis/capaindex", payer.token)).status).toBe(200);
    expect((await get("/markets/foundation-model-apis/delta?country=FR", payer.token)).status).toBe(200);
    expect((await get("/markets", payer.token)).status).toBe(200);
    expect((await get(SNAPSHOT, null)).status).toBe(401);
    expect((await get("/no/such/path", payer.token)).status).toBe(404);
    const limitedCalls = [await get("/markets", limited.token), await get("/markets", limited.token)];
    const refused = await get("/markets", limited.token);
    expect(limitedCalls.map((r) => r.status)).toEqual([200, 200]);
    expect(refused.status).toBe(429);
    const after = await scrape();

    const requests = (operation: string, status: number) =>
      moved(before, after, "mps_api_requests_total", { surface: "rest", operation, status: String(status) });
    expect(requests(OPERATIONS.snapshot.name, 200)).toBe(2);
    expect(requests(OPERATIONS.snapshot.name, 304)).toBe(1);
    expect(requests(OPERATIONS.snapshot.name, 401)).toBe(1);
    expect(requests(OPERATIONS.capaindex.name, 200)).toBe(1);
    expect(requests(OPERATIONS.delta.name, 200)).toBe(1);
    expect(requests(OPERATIONS.marketsList.name, 200)).toBe(3);
    expect(requests(OPERATIONS.marketsList.name, 429)).toBe(1);
    expect(requests("unknown", 404)).toBe(1);
    const restCalls = (samples: Samples) => total(samples, "mps_api_requests_total", { surface: "rest" });
    expect(restCalls(after) - restCalls(before)).toBe(11);
    // Every call is timed once, under the same labels.
    expect(
      moved(before, after, "mps_api_request_duration_seconds_count", {
        surface: "rest",
        operation: OPERATIONS.snapshot.name,
        status: "200",
      }),
    ).toBe(2);

    const debited = (operation: { name: string }) =>
      moved(before, after, "mps_credits_debited_total", { operation: operation.name });
    const prices = 2 * OPERATIONS.snapshot.credits + OPERATIONS.capaindex.credits + OPERATIONS.delta.credits;
    expect(debited(OPERATIONS.snapshot)).toBe(2 * OPERATIONS.snapshot.credits);
    expect(debited(OPERATIONS.capaindex)).toBe(OPERATIONS.capaindex.credits);
    expect(debited(OPERATIONS.delta)).toBe(OPERATIONS.delta.credits);
    expect(total(after, "mps_credits_debited_total") - total(before, "mps_credits_debited_total")).toBe(prices);
    // The same sum the organization was charged.
    const balance = Number((await get("/markets", payer.token)).headers.get("x-credits-remaining") ?? "NaN");
    expect(STARTING_CREDITS - balance).toBe(prices);

    expect(moved(before, after, "mps_rate_limit_refusals_total", { operation: OPERATIONS.marketsList.name })).toBe(1);
    expect(total(after, "mps_rate_limit_refusals_total") - total(before, "mps_rate_limit_refusals_total")).toBe(1);
    // One token lookup per call that reached a procedure with a token: 9 (the 401 had none, the 404 no procedure).
    const lookups = (name: string) =>
      total(after, name, { cache: "tokens" }) - total(before, name, { cache: "tokens" });
    expect(lookups("mps_cache_hits_total") + lookups("mps_cache_misses_total")).toBe(9);
  });

  it("count MCP tool calls under their operation, with their credits and outcome", async () => {
    const client = await connect(payer.token);
    try {
      const before = await scrape();
      const ok = await client.callTool({
        name: "service_market_get_servicemax",
        arguments: { marketId: "foundation-model-apis", country: "FR" },
      });
      expect(ok.isError).toBeFalsy();
      const failed = await client.callTool({ name: "service_market_get_snapshot", arguments: { marketId: "no-such" } });
      expect(failed.isError).toBe(true);
      const after = await scrape();
      const calls = (operation: string) =>
        moved(before, after, "mps_api_requests_total", { surface: "mcp", operation, status: "200" });
      expect(calls(OPERATIONS.servicemax.name)).toBe(1);
      expect(calls(OPERATIONS.snapshot.name)).toBe(1);
      const outcome = (operation: string, result: string) =>
        moved(before, after, "mps_mcp_tool_calls_total", { operation, outcome: result });
      expect(outcome(OPERATIONS.servicemax.name, "ok")).toBe(1);
      expect(outcome(OPERATIONS.snapshot.name, "not_found")).toBe(1);
      expect(total(after, "mps_credits_debited_total") - total(before, "mps_credits_debited_total")).toBe(
        OPERATIONS.servicemax.credits,
      );
    } finally {
      await client.close();
    }
  });

  it("report the database pool and Node's event-loop lag", async () => {
    const samples = await scrape();
    const kind = database?.url ? "postgres" : "pglite";
    expect(sample(samples, "mps_db_pool_connections", { database: kind, state: "open" })).toBeGreaterThanOrEqual(1);
    expect(sample(samples, "mps_db_pool_max_connections", { database: kind })).toBeGreaterThanOrEqual(1);
    if (kind === "postgres")
      expect(sample(samples, "mps_db_pool_connections", { database: kind, state: "in_use" })).toBeGreaterThanOrEqual(0);
    expect(sample(samples, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
  });
});

describe("who may read /metrics", () => {
  it("serves this machine without credentials", async () => {
    const response = await fetch(`${app.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await response.text()).toMatch(/^# TYPE mps_api_requests_total counter$/m);
  });

  it("refuses a client that is not local without the right token, and serves it with it", async () => {
    const refusedHeaders: Record<string, string>[] = [
      FAR_AWAY,
      { ...FAR_AWAY, Authorization: `Bearer ${METRICS_TOKEN}x` },
      { ...FAR_AWAY, Authorization: `Bearer ${payer.token}` },
      { ...FAR_AWAY, Authorization: METRICS_TOKEN },
      // Claiming to be local in the header the app sets itself changes nothing.
      { ...FAR_AWAY, "X-Mps-Peer": "loopback" },
      { Forwarded: "for=203.0.113.7", "X-Mps-Peer": "loopback" },
    ];
    for (const headers of refusedHeaders) {
      const response = await fetch(`${app.url}/metrics`, { headers });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
      const body = await response.json();
      expect(body).toMatchObject({ status: 401, code: "unauthorized" });
      expect(JSON.stringify(body)).not.toContain("mps_api_requests_total");
    }
    const served = await fetch(`${app.url}/metrics`, {
      headers: { ...FAR_AWAY, Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(served.status).toBe(200);
    expect(await served.text()).toContain("mps_api_requests_total");
  });

  it("does not exist for clients that are not local when no METRICS_TOKEN is set", async () => {
    const shared = inject("appUrl"); // the suite's app runs without a METRICS_TOKEN
    const hidden = await fetch(`${shared}/metrics`, {
      headers: { ...FAR_AWAY, Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toMatchObject({ status: 404, code: "not_found" });
    expect((await fetch(`${shared}/metrics`)).status).toBe(200);
  });
});

describe("log lines", () => {
  it("say each /v1 call once: its id, operation, organization, status, duration and credits", async () => {
    const paid = await get("/markets/object-storage/capaindex", payer.token);
    const refused = await get("/markets/object-storage/capaindex", null);
    const unknown = await get("/markets/object-storage/nothing", payer.token);
    const byId = (response: Response) => theLine((line) => line.requestId === response.headers.get("x-request-id"));
    const paidLine = await byId(paid);
    expect(paidLine).toMatchObject({
      level: "info",
      surface: "rest",
      method: "GET",
      path: "/v1/markets/object-storage/capaindex",
      operation: OPERATIONS.capaindex.name,
      organizationId: payer.id,
      status: 200,
      problem: null,
      credits: {
        cost: OPERATIONS.capaindex.credits,
        balance: Number(paid.headers.get("x-credits-remaining")),
      },
    });
    expect(paidLine.durationMs).toBeGreaterThan(0);
    expect(await byId(refused)).toMatchObject({
      operation: OPERATIONS.capaindex.name,
      organizationId: null,
      status: 401,
      problem: "unauthorized",
      credits: null,
    });
    expect(await byId(unknown)).toMatchObject({ operation: "unknown", status: 404, problem: "not_found" });
  });

  it("say each /mcp request once, with the tool's operation, whether it failed and its problem", async () => {
    const client = await connect(payer.token);
    try {
      const ok = await client.callTool({
        name: "service_market_get_capaindex",
        arguments: { marketId: "object-storage" },
      });
      const failed = await client.callTool({ name: "service_market_get_delta", arguments: { marketId: "no-such" } });
      const meta = (result: typeof ok) =>
        result._meta as { requestId: string; credits?: { cost: number; remaining: number } };
      const byToolCall = (result: typeof ok) => theLine((line) => line.toolRequestId === meta(result).requestId);
      expect(await byToolCall(ok)).toMatchObject({
        surface: "mcp",
        method: "POST",
        path: "/mcp",
        rpcMethod: "tools/call",
        tool: "service_market_get_capaindex",
        operation: OPERATIONS.capaindex.name,
        organizationId: payer.id,
        status: 200,
        toolError: false,
        problem: null,
        credits: { cost: OPERATIONS.capaindex.credits, balance: meta(ok).credits?.remaining },
      });
      expect(await byToolCall(failed)).toMatchObject({
        operation: OPERATIONS.delta.name,
        status: 200,
        toolError: true,
        problem: "not_found",
        credits: null,
      });
      // The handshake is logged under its JSON-RPC methods.
      const handshake = await loggedLines((line) => line.surface === "mcp" && line.rpcMethod === "initialize");
      for (const line of handshake)
        expect(line).toMatchObject({ operation: "initialize", organizationId: payer.id, status: 200, toolError: null });
    } finally {
      await client.close();
    }
  });

  it("hold every field on every /v1 and /mcp line, and no secret", async () => {
    const log = readFileSync(path.join(dataDir, "app.log"), "utf8");
    const lines = apiCallLines(log);
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.flatMap(apiLineProblems)).toEqual([]);
    expect(secretsIn(log, [payer.token, limited.token, METRICS_TOKEN, payer.token.slice(4, 24)])).toEqual([]);
  });
});
