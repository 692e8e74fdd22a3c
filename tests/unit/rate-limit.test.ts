/** The rate limiter on its memory backend (Redis has its own suite, tests/redis), and its headers and config. */
import { afterEach, describe, expect, it } from "vitest";
import {
  createRateLimiter,
  type RateLimitDecision,
  type RateLimiter,
  rateLimiterConfigFromEnv,
  rateLimitHeaders,
} from "@/server/3-limits/rate-limiter";

const open: RateLimiter[] = [];
const limiter = (windowSeconds: number) => {
  const created = createRateLimiter({ windowSeconds });
  open.push(created);
  return created;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

const consumeTimes = async (l: RateLimiter, key: string, limit: number, times: number) => {
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < times; i++) decisions.push(await l.consume(key, limit));
  return decisions;
};

describe("createRateLimiter (memory)", () => {
  it("counts in memory without a Redis URL", () => {
    expect(limiter(60).backend).toBe("memory");
  });

  it("allows exactly `limit` calls in a window, then refuses with remaining 0", async () => {
    const l = limiter(60);
    const allowed = await consumeTimes(l, "org_a", 3, 3);
    expect(allowed.map((d) => [d.allowed, d.limit, d.remaining])).toEqual([
      [true, 3, 2],
      [true, 3, 1],
      [true, 3, 0],
    ]);
    for (const refused of await consumeTimes(l, "org_a", 3, 2)) {
      expect(refused).toMatchObject({ allowed: false, limit: 3, remaining: 0 });
      expect(Number.isInteger(refused.resetSeconds)).toBe(true);
      expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.resetSeconds).toBeLessThanOrEqual(60);
    }
  });

  it("counts each key on its own", async () => {
    const l = limiter(60);
    await consumeTimes(l, "org_a", 2, 2);
    expect((await l.consume("org_a", 2)).allowed).toBe(false);
    expect(await l.consume("org_b", 2)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it("applies a different limit to each key", async () => {
    const l = limiter(60);
    const small = await consumeTimes(l, "org_small", 1, 2);
    const large = await consumeTimes(l, "org_large", 4, 5);
    expect(small.map((d) => d.allowed)).toEqual([true, false]);
    expect(large.map((d) => d.allowed)).toEqual([true, true, true, true, false]);
    expect(large[3]).toMatchObject({ limit: 4, remaining: 0 });
  });

  it("allows the key again once the window has passed", async () => {
    const l = limiter(1);
    await consumeTimes(l, "org_a", 2, 2);
    const refused = await l.consume("org_a", 2);
    expect(refused).toMatchObject({ allowed: false, resetSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await l.consume("org_a", 2)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it("refuses a limit or window that is not a whole number > 0", async () => {
    const l = limiter(60);
    for (const limit of [0, -1, 1.5, Number.NaN]) await expect(l.consume("org_a", limit)).rejects.toThrow(/rate limit/);
    for (const windowSeconds of [0, 0.5, -1])
      expect(() => createRateLimiter({ windowSeconds })).toThrow(/windowSeconds/);
  });
});

describe("rateLimitHeaders", () => {
  it("gives limit, remaining and reset, in the draft's old headers and its structured fields, when allowed", () => {
    expect(
      rateLimitHeaders({ allowed: true, limit: 600, remaining: 599, resetSeconds: 60, windowSeconds: 60 }),
    ).toEqual({
      "RateLimit-Limit": "600",
      "RateLimit-Remaining": "599",
      "RateLimit-Reset": "60",
      "RateLimit-Policy": '"default";q=600;w=60',
      RateLimit: '"default";r=599;t=60',
    });
  });

  it("adds Retry-After, in seconds, when refused", () => {
    expect(rateLimitHeaders({ allowed: false, limit: 10, remaining: 0, resetSeconds: 17, windowSeconds: 30 })).toEqual({
      "RateLimit-Limit": "10",
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": "17",
      "RateLimit-Policy": '"default";q=10;w=30',
      RateLimit: '"default";r=0;t=17',
      "Retry-After": "17",
    });
  });
});

describe("rateLimiterConfigFromEnv", () => {
  // Next's typings make NODE_ENV a required key of ProcessEnv.
  const env = (vars: Record<string, string>): NodeJS.ProcessEnv => ({ NODE_ENV: "test", ...vars });

  it("defaults the window to 60 seconds, without Redis", () => {
    expect(rateLimiterConfigFromEnv(env({}))).toEqual({ windowSeconds: 60 });
    expect(rateLimiterConfigFromEnv(env({ RATE_LIMIT_WINDOW_SECONDS: "" }))).toEqual({ windowSeconds: 60 });
  });

  it("reads an explicit window and passes REDIS_URL through", () => {
    expect(rateLimiterConfigFromEnv(env({ RATE_LIMIT_WINDOW_SECONDS: "15" }))).toEqual({ windowSeconds: 15 });
    expect(
      rateLimiterConfigFromEnv(env({ RATE_LIMIT_WINDOW_SECONDS: "300", REDIS_URL: "redis://cache.internal:6379/2" })),
    ).toEqual({ windowSeconds: 300, redisUrl: "redis://cache.internal:6379/2" });
  });

  it.each(["abc", "0", "-5", "1.5"])("refuses the window %j with a clear error", (value) => {
    expect(() => rateLimiterConfigFromEnv(env({ RATE_LIMIT_WINDOW_SECONDS: value }))).toThrow(
      `RATE_LIMIT_WINDOW_SECONDS must be a whole number > 0, not "${value}"`,
    );
  });
});
