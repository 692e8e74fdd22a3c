/**
 * Logs, metrics and the /metrics access rule, in memory: what each recording adds to the
 * exposition /metrics serves, what a log line holds (and never holds), and who may read /metrics.
 */
import { describe, expect, it } from "vitest";
import { PEER_HEADER } from "@/server/2-http/peer";
import { ReadingsCache } from "@/server/2-readings/cache";
import type { ReleaseData } from "@/server/2-readings/release";
import { cameFromLoopback, metricsAccess, sameSecret } from "@/server/3-observability/access";
import { type ApiCall, recordApiCall } from "@/server/3-observability/calls";
import { createLogger, logLevel, writeInfoLine } from "@/server/3-observability/logger";
import { type PoolUse, ServiceMetrics, serviceMetrics } from "@/server/3-observability/metrics";
import { parseExposition, sample, total } from "../helpers/metrics";

const fresh = (options: { poolTimeoutMs?: number } = {}) => new ServiceMetrics({ defaultMetrics: false, ...options });
const scrape = async (metrics: ServiceMetrics) => parseExposition(await metrics.text());

/** A pino destination in memory: each write is one line. */
function memoryLog(level = "info") {
  const lines: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("metrics", () => {
  it("counts each call under its surface, operation and status, and times it in seconds", async () => {
    const metrics = fresh();
    metrics.request("rest", "readings.snapshot", 200, 0.004);
    metrics.request("rest", "readings.snapshot", 200, 0.003);
    metrics.request("rest", "readings.snapshot", 402, 0.001);
    metrics.request("mcp", "readings.snapshot", 200, 0.3);
    const samples = await scrape(metrics);
    const labels = (surface: string, status: string) => ({ surface, operation: "readings.snapshot", status });
    expect(sample(samples, "mps_api_requests_total", labels("rest", "200"))).toBe(2);
    expect(sample(samples, "mps_api_requests_total", labels("rest", "402"))).toBe(1);
    expect(sample(samples, "mps_api_requests_total", labels("mcp", "200"))).toBe(1);
    expect(sample(samples, "mps_api_requests_total", labels("mcp", "402"))).toBeUndefined();
    expect(sample(samples, "mps_api_request_duration_seconds_count", labels("rest", "200"))).toBe(2);
    expect(sample(samples, "mps_api_request_duration_seconds_sum", labels("rest", "200"))).toBeCloseTo(0.007, 9);
    const bucket = (le: string, surface = "rest") => ({ ...labels(surface, "200"), le });
    expect(sample(samples, "mps_api_request_duration_seconds_bucket", bucket("0.002"))).toBe(0);
    expect(sample(samples, "mps_api_request_duration_seconds_bucket", bucket("0.005"))).toBe(2);
    expect(sample(samples, "mps_api_request_duration_seconds_bucket", bucket("0.25", "mcp"))).toBe(0);
    expect(sample(samples, "mps_api_request_duration_seconds_bucket", bucket("0.5", "mcp"))).toBe(1);
    expect(sample(samples, "mps_api_request_duration_seconds_bucket", bucket("+Inf", "mcp"))).toBe(1);
  });

  it("adds the credits of each debit to its operation; a free call adds nothing", async () => {
    const metrics = fresh();
    for (const cost of [5, 5, 5]) metrics.debited("readings.snapshot", cost);
    metrics.debited("readings.delta", 3);
    metrics.debited("readings.delta", 0);
    metrics.debited("markets.list", 0);
    const samples = await scrape(metrics);
    expect(sample(samples, "mps_credits_debited_total", { operation: "readings.snapshot" })).toBe(15);
    expect(sample(samples, "mps_credits_debited_total", { operation: "readings.delta" })).toBe(3);
    expect(sample(samples, "mps_credits_debited_total", { operation: "markets.list" })).toBeUndefined();
    expect(total(samples, "mps_credits_debited_total")).toBe(18);
  });

  it("counts rate-limit refusals, tool outcomes, and each cache's hits and misses apart", async () => {
    const metrics = fresh();
    metrics.rateLimited("readings.delta");
    metrics.rateLimited("readings.delta");
    metrics.rateLimited("markets.list");
    metrics.toolCall("readings.snapshot", "ok");
    metrics.toolCall("readings.snapshot", "not_found");
    metrics.toolCall("readings.snapshot", "ok");
    for (const hit of [true, true, false]) metrics.cacheLookup("tokens", hit);
    metrics.cacheLookup("releases", false);
    const samples = await scrape(metrics);
    expect(sample(samples, "mps_rate_limit_refusals_total", { operation: "readings.delta" })).toBe(2);
    expect(sample(samples, "mps_rate_limit_refusals_total", { operation: "markets.list" })).toBe(1);
    expect(sample(samples, "mps_mcp_tool_calls_total", { operation: "readings.snapshot", outcome: "ok" })).toBe(2);
    expect(sample(samples, "mps_mcp_tool_calls_total", { operation: "readings.snapshot", outcome: "not_found" })).toBe(
      1,
    );
    expect(sample(samples, "mps_cache_hits_total", { cache: "tokens" })).toBe(2);
    expect(sample(samples, "mps_cache_misses_total", { cache: "tokens" })).toBe(1);
    expect(sample(samples, "mps_cache_hits_total", { cache: "releases" })).toBeUndefined();
    expect(sample(samples, "mps_cache_misses_total", { cache: "releases" })).toBe(1);
    // Counted in memory and told at each scrape: totals keep growing, never counted twice.
    for (const hit of [true, false, false]) metrics.cacheLookup("tokens", hit);
    const again = await scrape(metrics);
    expect(sample(again, "mps_cache_hits_total", { cache: "tokens" })).toBe(3);
    expect(sample(again, "mps_cache_misses_total", { cache: "tokens" })).toBe(3);
    expect(sample(again, "mps_cache_misses_total", { cache: "releases" })).toBe(1);
    const unchanged = await scrape(metrics);
    expect(sample(unchanged, "mps_cache_hits_total", { cache: "tokens" })).toBe(3);
  });

  it("reports the pool as its source says, read once per scrape", async () => {
    const metrics = fresh();
    expect(total(await scrape(metrics), "mps_db_pool_connections")).toBe(0);
    let reads = 0;
    let use: PoolUse = { database: "postgres", max: 10, open: 4, inUse: 3 };
    metrics.watchPool(async () => {
      reads++;
      return use;
    });
    let samples = await scrape(metrics);
    expect(sample(samples, "mps_db_pool_connections", { database: "postgres", state: "open" })).toBe(4);
    expect(sample(samples, "mps_db_pool_connections", { database: "postgres", state: "in_use" })).toBe(3);
    expect(sample(samples, "mps_db_pool_max_connections", { database: "postgres" })).toBe(10);
    expect(reads).toBe(1);
    use = { database: "pglite", max: 1, open: 1, inUse: null };
    samples = await scrape(metrics);
    expect(reads).toBe(2);
    expect(sample(samples, "mps_db_pool_connections", { database: "pglite", state: "open" })).toBe(1);
    expect(sample(samples, "mps_db_pool_connections", { database: "pglite", state: "in_use" })).toBeUndefined();
    expect(sample(samples, "mps_db_pool_connections", { database: "postgres", state: "open" })).toBeUndefined();
  });

  it("leaves the pool out, and still answers, when its source fails or hangs", async () => {
    const failing = fresh();
    failing.watchPool(async () => {
      throw new Error("connection refused");
    });
    expect(total(await scrape(failing), "mps_db_pool_connections")).toBe(0);
    const hanging = fresh({ poolTimeoutMs: 20 });
    hanging.watchPool(() => new Promise<PoolUse>(() => {}));
    const started = performance.now();
    const samples = await scrape(hanging);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(total(samples, "mps_db_pool_max_connections")).toBe(0);
  });

  it("includes Node's default metrics, event-loop lag among them, unless told not to", async () => {
    expect(await new ServiceMetrics().text()).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(await fresh().text()).not.toContain("nodejs_eventloop_lag_seconds");
  });

  it("keeps one registry per process on globalThis, whichever bundle asks", () => {
    const first = serviceMetrics();
    expect(serviceMetrics()).toBe(first);
    expect((globalThis as { __mpsMetrics?: unknown }).__mpsMetrics).toBe(first);
  });

  it("counts the readings cache's lookups of releases and of readings", async () => {
    const seen: string[] = [];
    const cache = new ReadingsCache<object>(16, (name, hit) => seen.push(`${name}:${hit ? "hit" : "miss"}`));
    const store = {};
    const load = async () => ({ release: 1 }) as unknown as ReleaseData;
    const first = await cache.release(store, 1, load);
    first.reading("delta:FR", () => 1);
    first.reading("delta:FR", () => 2);
    (await cache.release(store, 1, load)).reading("delta:DE", () => 3);
    expect(seen).toEqual(["releases:miss", "readings:miss", "readings:hit", "releases:hit", "readings:miss"]);
  });
});

const CALL: ApiCall = {
  surface: "rest",
  requestId: "00000000-0000-4000-8000-000000000001",
  method: "GET",
  path: "/v1/markets/m/snapshot",
  operation: "readings.snapshot",
  organizationId: "org_1",
  status: 200,
  problem: null,
  durationMs: 12.3456,
  credits: { cost: 5, balance: 95 },
};

describe("call records", () => {
  it("writes one JSON line with the call's fields and counts the call", async () => {
    const metrics = fresh();
    const log = memoryLog();
    recordApiCall(CALL, metrics, log.logger);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]?.endsWith("\n")).toBe(true);
    const line = log.parsed()[0] ?? {};
    expect(line).toMatchObject({
      level: "info",
      surface: "rest",
      requestId: CALL.requestId,
      method: "GET",
      path: CALL.path,
      operation: "readings.snapshot",
      organizationId: "org_1",
      status: 200,
      problem: null,
      durationMs: 12.35,
      credits: { cost: 5, balance: 95 },
    });
    expect(new Date(String(line.time)).toISOString()).toBe(line.time);
    expect(line).not.toHaveProperty("err");
    const samples = await scrape(metrics);
    expect(
      sample(samples, "mps_api_requests_total", { surface: "rest", operation: "readings.snapshot", status: "200" }),
    ).toBe(1);
  });

  it("adds MCP's fields, and null ones stay in the line", () => {
    const log = memoryLog();
    recordApiCall(
      {
        ...CALL,
        surface: "mcp",
        method: "POST",
        path: "/mcp",
        organizationId: null,
        credits: null,
        problem: "not_found",
        mcp: { rpcMethod: "tools/call", tool: "t", toolError: true, toolRequestId: "r", rpcError: null },
      },
      fresh(),
      log.logger,
    );
    const line = log.parsed()[0] ?? {};
    expect(line).toMatchObject({ organizationId: null, credits: null, problem: "not_found", toolError: true });
    expect(Object.keys(line)).toEqual(expect.arrayContaining(["rpcMethod", "tool", "toolRequestId", "rpcError"]));
  });

  it("logs an internal error at level error with its stack, a lost database by message, a refusal without either", () => {
    const log = memoryLog();
    const boom = new Error("boom", { cause: new Error("the cause") });
    recordApiCall({ ...CALL, status: 500, problem: "internal_error", error: boom }, fresh(), log.logger);
    recordApiCall(
      { ...CALL, status: 503, problem: "unavailable", error: new Error("connect ECONNREFUSED") },
      fresh(),
      log.logger,
    );
    recordApiCall(
      { ...CALL, status: 404, problem: "not_found", error: new Error("No such market") },
      fresh(),
      log.logger,
    );
    const [internal, unavailable, refused] = log.parsed();
    expect(internal?.level).toBe("error");
    const stack = (internal?.err as { stack?: string } | undefined)?.stack;
    expect(stack).toContain("boom");
    expect(stack).toContain("the cause");
    expect(unavailable).toMatchObject({ level: "error", error: "connect ECONNREFUSED" });
    expect(unavailable).not.toHaveProperty("err");
    expect(refused?.level).toBe("info");
    expect(refused).not.toHaveProperty("err");
    expect(refused).not.toHaveProperty("error");
  });

  it("censors credentials and links wherever they sit in a logged object", () => {
    const log = memoryLog();
    const secrets = ["Bearer mps_SECRET1", "authjs.session-token=SECRET2", "mps_SECRET3", "https://x/cb?token=SECRET4"];
    const error = Object.assign(new Error("failed"), {
      headers: { authorization: secrets[0] },
      url: secrets[3],
      cause: Object.assign(new Error("inner"), { token: secrets[2] }),
    });
    log.logger.info({
      authorization: secrets[0],
      cookie: secrets[1],
      token: secrets[2],
      url: secrets[3],
      headers: { authorization: secrets[0], cookie: secrets[1] },
      request: { headers: { authorization: secrets[0] }, cookie: secrets[1] },
      mail: { url: secrets[3], link: secrets[3] },
      err: error,
    });
    const text = log.lines.join("");
    for (const secret of secrets) expect(text).not.toContain(secret.slice(-7));
    expect(text).toContain("[redacted]");
  });

  it("takes its level from LOG_LEVEL, info by default or when it names no level", () => {
    // Next's typings make NODE_ENV a required key of ProcessEnv.
    const env = (vars: Record<string, string>): NodeJS.ProcessEnv => ({ NODE_ENV: "test", ...vars });
    expect(logLevel(env({}))).toBe("info");
    expect(logLevel(env({ LOG_LEVEL: "debug" }))).toBe("debug");
    expect(logLevel(env({ LOG_LEVEL: " WARN " }))).toBe("warn");
    expect(logLevel(env({ LOG_LEVEL: "silent" }))).toBe("silent");
    expect(logLevel(env({ LOG_LEVEL: "loud" }))).toBe("info");
    const log = memoryLog("warn");
    log.logger.info("dropped");
    log.logger.warn("kept");
    expect(log.parsed().map((line) => line.msg)).toEqual(["kept"]);
  });
});

describe("who may read /metrics", () => {
  it("believes only the verdict our server stamped", () => {
    expect(cameFromLoopback(new Headers({ [PEER_HEADER]: "loopback" }))).toBe(true);
    expect(cameFromLoopback(new Headers({ [PEER_HEADER]: "remote" }))).toBe(false);
    expect(cameFromLoopback(new Headers())).toBe(false);
  });

  it("serves local clients, others with the token, and hides itself when no token is set", () => {
    const token = "metrics-token-123";
    const access = (loopback: boolean, authorization: string | null, configured: string | null = token) =>
      metricsAccess({ loopback, authorization, token: configured ?? undefined });
    expect(access(true, null)).toBe("serve");
    expect(access(true, null, null)).toBe("serve");
    expect(access(false, `Bearer ${token}`)).toBe("serve");
    expect(access(false, `bearer ${token}`)).toBe("serve");
    expect(access(false, null)).toBe("unauthorized");
    expect(access(false, `Bearer ${token}x`)).toBe("unauthorized");
    expect(access(false, `Bearer ${token.slice(0, -1)}`)).toBe("unauthorized");
    expect(access(false, `Basic ${token}`)).toBe("unauthorized");
    expect(access(false, token)).toBe("unauthorized");
    expect(access(false, "Bearer ")).toBe("unauthorized");
    expect(access(false, `Bearer ${token}`, null)).toBe("hidden");
    expect(access(false, null, "")).toBe("hidden");
  });

  it("compares secrets of any lengths without throwing", () => {
    expect(sameSecret("abc", "abc")).toBe(true);
    expect(sameSecret("abc", "abd")).toBe(false);
    expect(sameSecret("", "abc")).toBe(false);
    expect(sameSecret("a".repeat(1000), "a")).toBe(false);
  });
});

describe("an info line written directly", () => {
  const hostile = [
    '/v1/markets/"quoted"/snapshot',
    "/v1/markets/line\nbreak\r\t/snapshot",
    "/v1/markets/ünïcode ☃ 🚀/snapshot",
    "/v1/markets/\u0000\u001f\u2028\u2029/x",
    "/v1/markets/lone\ud800surrogate/x",
    "</script><script>alert(1)</script>",
  ];

  it("is the line pino writes: the same keys, order, bindings and escaping (time aside)", () => {
    for (const path of hostile) {
      const ours = memoryLog();
      const pinos = memoryLog();
      const fields = {
        surface: "rest",
        requestId: "r-1",
        method: "GET",
        path,
        operation: "readings.snapshot",
        organizationId: null,
        status: 200,
        problem: null,
        durationMs: 0.73,
        credits: { cost: 1, balance: 99 },
        skipped: undefined,
      };
      const message = `GET ${path} 200`;
      writeInfoLine(ours.logger, fields, message);
      pinos.logger.info(fields, message);
      const [line] = ours.lines;
      const [expected] = pinos.lines;
      expect(line?.endsWith("\n")).toBe(true);
      const withoutTime = (text = "") => text.replace(/"time":"[^"]+"/, '"time":"T"');
      expect(withoutTime(line)).toBe(withoutTime(expected));
      expect(JSON.parse(line as string).time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it("keeps the logger's level and its child bindings", () => {
    const quiet = memoryLog("warn");
    writeInfoLine(quiet.logger, { a: 1 }, "m");
    expect(quiet.lines).toEqual([]);
    const parent = memoryLog();
    writeInfoLine(parent.logger.child({ instance: "b" }), { a: 1 }, "m");
    expect(parent.parsed()).toEqual([expect.objectContaining({ instance: "b", a: 1, msg: "m", level: "info" })]);
  });
});
