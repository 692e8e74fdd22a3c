/**
 * The service's Prometheus metrics (prom-client), served at /metrics. One registry per process,
 * kept on globalThis: Next may load this module in several bundles (each route, instrumentation),
 * and /metrics must see what the API routes counted. Every label takes a bounded set of values
 * (operation names, statuses, cache names), never anything a caller typed.
 * docs/operations.md lists the metrics.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { listenToCacheLookups } from "../../db/cache-lookups";
import type { PoolUse } from "../../db/client";

export type { PoolUse };

export type Surface = "rest" | "mcp";

/** Latency buckets, in seconds: a cached reading takes a few ms, a cold one tens, a stuck one seconds. */
export const DURATION_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How long a scrape waits for the pool's figures before leaving them out. */
export const POOL_TIMEOUT_MS = 2_000;

/**
 * A counter's counts kept in plain numbers by their labels' values, told to its prom-client counter
 * when /metrics is read: a call adds one to a Map entry where prom-client would sort, hash and
 * check its labels on every call (the calls of /v1 and /mcp are the hottest path there is).
 */
class Tally<L extends string> {
  private readonly counts = new Map<string, { labels: Record<L, string>; count: number; told: number }>();

  /** One more of `labels`, whose values joined are `key`. */
  add(key: string, labels: Record<L, string>): void {
    const entry = this.counts.get(key);
    if (entry) entry.count += 1;
    else this.counts.set(key, { labels, count: 1, told: 0 });
  }

  /** What was counted since the last scrape, told to `counter`. */
  tell(counter: Counter<L>): void {
    for (const entry of this.counts.values())
      if (entry.count > entry.told) {
        counter.inc(entry.labels, entry.count - entry.told);
        entry.told = entry.count;
      }
  }
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly durations: Histogram<"surface" | "operation" | "status">;
  private readonly requestTally = new Tally<"surface" | "operation" | "status">();
  private readonly toolCallTally = new Tally<"operation" | "outcome">();
  private readonly credits: Counter<"operation">;
  private readonly refusals: Counter<"operation">;
  /** Cache lookups by cache, and how many of them the counters were told at the last scrape. */
  private readonly lookups = new Map<string, { hits: number; misses: number; toldHits: number; toldMisses: number }>();
  private poolSource?: () => Promise<PoolUse>;
  private poolReading?: Promise<PoolUse | null>;
  private readonly poolTimeoutMs: number;

  constructor(options: { defaultMetrics?: boolean; poolTimeoutMs?: number } = {}) {
    this.poolTimeoutMs = options.poolTimeoutMs ?? POOL_TIMEOUT_MS;
    const registers = [this.registry];
    const { requestTally, toolCallTally } = this;
    new Counter({
      name: "mps_api_requests_total",
      help: "Calls to /v1 and /mcp, by surface, operation and HTTP status.",
      labelNames: ["surface", "operation", "status"],
      registers,
      collect() {
        requestTally.tell(this);
      },
    });
    this.durations = new Histogram({
      name: "mps_api_request_duration_seconds",
      help: "Time from a /v1 or /mcp request's arrival to the end of its answer, by surface, operation and HTTP status.",
      labelNames: ["surface", "operation", "status"],
      buckets: DURATION_BUCKETS,
      registers,
    });
    new Counter({
      name: "mps_mcp_tool_calls_total",
      help: 'MCP tool calls by operation and outcome: "ok", the problem code of a tool error, or "refused" when the MCP SDK refused the arguments before the tool ran.',
      labelNames: ["operation", "outcome"],
      registers,
      collect() {
        toolCallTally.tell(this);
      },
    });
    this.credits = new Counter({
      name: "mps_credits_debited_total",
      help: "Credits debited for successful metered calls, by operation.",
      labelNames: ["operation"],
      registers,
    });
    this.refusals = new Counter({
      name: "mps_rate_limit_refusals_total",
      help: "Calls refused by an organization's rate limit (429), by operation.",
      labelNames: ["operation"],
      registers,
    });
    // Cache lookups happen several times a call: counted in plain numbers (no label lookup), told to
    // the counters when /metrics is read.
    const lookups = this.lookups;
    new Counter({
      name: "mps_cache_hits_total",
      help: "Lookups an in-memory cache answered, by cache.",
      labelNames: ["cache"],
      registers,
      collect() {
        for (const [cache, counts] of lookups)
          if (counts.hits > counts.toldHits) this.inc({ cache }, counts.hits - counts.toldHits);
        for (const counts of lookups.values()) counts.toldHits = counts.hits;
      },
    });
    new Counter({
      name: "mps_cache_misses_total",
      help: "Lookups an in-memory cache could not answer (the database or the computation did), by cache.",
      labelNames: ["cache"],
      registers,
      collect() {
        for (const [cache, counts] of lookups)
          if (counts.misses > counts.toldMisses) this.inc({ cache }, counts.misses - counts.toldMisses);
        for (const counts of lookups.values()) counts.toldMisses = counts.misses;
      },
    });
    const metrics = this;
    new Gauge({
      name: "mps_db_pool_connections",
      help: 'Database connections of this process by state: "open", and "in_use" (running a statement; PostgreSQL only).',
      labelNames: ["database", "state"],
      registers,
      async collect() {
        this.reset();
        const use = await metrics.readPool();
        if (!use) return;
        this.set({ database: use.database, state: "open" }, use.open);
        if (use.inUse !== null) this.set({ database: use.database, state: "in_use" }, use.inUse);
      },
    });
    new Gauge({
      name: "mps_db_pool_max_connections",
      help: "Connections the database pool of this process may open.",
      labelNames: ["database"],
      registers,
      async collect() {
        this.reset();
        const use = await metrics.readPool();
        if (use) this.set({ database: use.database }, use.max);
      },
    });
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** One /v1 or /mcp call, answered with `status` after `seconds`. */
  request(surface: Surface, operation: string, status: number, seconds: number): void {
    const labels = { surface, operation, status: String(status) };
    this.requestTally.add(`${surface}\n${operation}\n${status}`, labels);
    this.durations.observe(labels, seconds);
  }

  /** One MCP tool call's outcome: "ok", a problem code, or "refused". */
  toolCall(operation: string, outcome: string): void {
    this.toolCallTally.add(`${operation}\n${outcome}`, { operation, outcome });
  }

  debited(operation: string, credits: number): void {
    if (credits > 0) this.credits.inc({ operation }, credits);
  }

  rateLimited(operation: string): void {
    this.refusals.inc({ operation });
  }

  cacheLookup(cache: string, hit: boolean): void {
    let counts = this.lookups.get(cache);
    if (!counts) {
      counts = { hits: 0, misses: 0, toldHits: 0, toldMisses: 0 };
      this.lookups.set(cache, counts);
    }
    if (hit) counts.hits += 1;
    else counts.misses += 1;
  }

  /** Where the pool's figures come from (the start-up code knows the database). */
  watchPool(source: () => Promise<PoolUse>): void {
    this.poolSource = source;
  }

  /** The pool's figures for one scrape: one reading shared by both gauges, none if it fails or hangs. */
  private readPool(): Promise<PoolUse | null> {
    const source = this.poolSource;
    if (!source) return Promise.resolve(null);
    if (!this.poolReading) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      this.poolReading = Promise.race([
        source().catch(() => null),
        new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), this.poolTimeoutMs);
        }),
      ]).finally(() => {
        clearTimeout(timer);
        this.poolReading = undefined;
      });
    }
    return this.poolReading;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text (Prometheus text format 0.0.4). */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}

const shared = globalThis as typeof globalThis & { __mpsMetrics?: ServiceMetrics };

/**
 * The process's metrics (created, with Node's default metrics, on first use: at start-up, before
 * the database opens), told of every cache lookup the storage layer makes.
 */
export function serviceMetrics(): ServiceMetrics {
  if (!shared.__mpsMetrics) {
    const metrics = new ServiceMetrics();
    shared.__mpsMetrics = metrics;
    listenToCacheLookups((cache, hit) => metrics.cacheLookup(cache, hit));
  }
  return shared.__mpsMetrics;
}
