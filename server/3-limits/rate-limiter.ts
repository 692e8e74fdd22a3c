/**
 * Per-organization rate limits: a fixed window of `windowSeconds`, counted by rate-limiter-flexible.
 * With REDIS_URL the count lives in Redis, so every app instance shares it; without, in memory.
 * If Redis is unreachable, counting goes on in memory (the library's insurance limiter) rather
 * than failing the calls: a limit is a guard, not a reason to refuse paying customers.
 */
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { log } from "../3-observability/logger";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets, ≥ 1. */
  resetSeconds: number;
  /** The window's length in seconds. */
  windowSeconds: number;
}

export interface RateLimiter {
  /** Counts `requests` (default 1) against `key`'s limit. */
  consume(key: string, limit: number, requests?: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
  readonly backend: "redis" | "memory";
}

export interface RateLimiterConfig {
  windowSeconds: number;
  redisUrl?: string;
  keyPrefix?: string;
}

export function rateLimiterConfigFromEnv(env: NodeJS.ProcessEnv = process.env): RateLimiterConfig {
  const raw = env.RATE_LIMIT_WINDOW_SECONDS;
  const windowSeconds = raw === undefined || raw === "" ? 60 : Number(raw);
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds <= 0)
    throw new Error(`RATE_LIMIT_WINDOW_SECONDS must be a whole number > 0, not "${raw}"`);
  return { windowSeconds, ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}) };
}

type Limiter = RateLimiterMemory | RateLimiterRedis;

export function createRateLimiter(config: RateLimiterConfig): RateLimiter {
  const keyPrefix = config.keyPrefix ?? "mps:rl";
  const duration = config.windowSeconds;
  // Redis expiries are whole seconds, and the library takes a duration of 0 as "never expires".
  if (!Number.isSafeInteger(duration) || duration <= 0)
    throw new Error(`windowSeconds must be a whole number > 0, not ${duration}`);
  let warned = false;
  // No offline queue: while Redis is down a command fails at once and the insurance limiter answers,
  // instead of requests waiting on a reconnect.
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, {
        lazyConnect: true,
        enableOfflineQueue: false,
        connectTimeout: 1000,
        maxRetriesPerRequest: 1,
      })
    : null;
  redis?.on("error", (error: Error) => {
    if (warned) return;
    warned = true; // one line, not one per request
    log().warn({ error: error.message }, "rate limit: Redis unreachable; counting in memory until it is back");
  });
  redis?.on("ready", () => {
    warned = false;
  });
  // Without an offline queue, commands sent before the first "ready" are refused too, so the first
  // requests would be counted only in this instance's memory; consume waits for that first attempt.
  const connected = redis?.connect().catch(() => {}); // the "error" listener reports a failure

  // The library fixes `points` per limiter, and limits differ per organization: one limiter per
  // distinct limit. In Redis they share the keys, so a changed limit keeps the window's count;
  // each memory limiter has its own store, so there a changed limit starts a fresh count.
  const limiters = new Map<number, Limiter>();
  const limiterFor = (points: number): Limiter => {
    let limiter = limiters.get(points);
    if (!limiter) {
      limiter = redis
        ? new RateLimiterRedis({
            storeClient: redis,
            keyPrefix,
            points,
            duration,
            insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
          })
        : new RateLimiterMemory({ keyPrefix, points, duration });
      limiters.set(points, limiter);
    }
    return limiter;
  };

  const decision = (res: RateLimiterRes, limit: number, allowed: boolean): RateLimitDecision => ({
    allowed,
    limit,
    remaining: allowed ? Math.max(0, res.remainingPoints) : 0,
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    windowSeconds: duration,
  });

  return {
    backend: redis ? "redis" : "memory",
    async consume(key, limit, requests = 1) {
      // Limits are whole requests; checking also keeps junk values out of the Map.
      if (!Number.isSafeInteger(limit) || limit <= 0)
        throw new Error(`rate limit must be a whole number > 0, not ${limit}`);
      if (!Number.isSafeInteger(requests) || requests <= 0)
        throw new Error(`requests must be a whole number > 0, not ${requests}`);
      await connected;
      try {
        return decision(await limiterFor(limit).consume(key, requests), limit, true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(rejection, limit, false);
        throw rejection;
      }
    },
    async close() {
      if (!redis) return;
      await connected;
      // QUIT needs a live connection (no offline queue); otherwise just stop reconnecting.
      if (redis.status === "ready") await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

/** The name of the one quota policy: every organization has one rate limit over one window. */
export const RATE_LIMIT_POLICY = "default";

/**
 * The rate limit's headers, in two generations of the IETF draft (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Limit`, `-Remaining` and `-Reset` (draft 06 and earlier, which clients already read),
 * and the current structured fields, `RateLimit-Policy` (the quota `q` per window `w` seconds) and
 * `RateLimit` (what `r` remains of it, `t` seconds until it resets); Retry-After when refused.
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
    "RateLimit-Reset": String(decision.resetSeconds),
    "RateLimit-Policy": `"${RATE_LIMIT_POLICY}";q=${decision.limit};w=${decision.windowSeconds}`,
    RateLimit: `"${RATE_LIMIT_POLICY}";r=${decision.remaining};t=${decision.resetSeconds}`,
    ...(decision.allowed ? {} : { "Retry-After": String(decision.resetSeconds) }),
  };
}
