/** The rate limiter on Redis: instances share one count, the window expires, and an unreachable Redis doesn't fail calls. */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createRateLimiter, type RateLimiter, type RateLimiterConfig } from "@/server/3-limits/rate-limiter";
import { log } from "@/server/3-observability/logger";

describe("rate limiter on Redis", () => {
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error("TEST_REDIS_URL is required for the redis suite");

  // A prefix per run, so runs (and CI jobs on one Redis) never see each other's counts.
  const keyPrefix = `mps:rl-test:${randomUUID()}`;
  const open: RateLimiter[] = [];
  const limiter = (config: Partial<RateLimiterConfig> = {}) => {
    const created = createRateLimiter({ windowSeconds: 60, redisUrl: url, keyPrefix, ...config });
    open.push(created);
    return created;
  };
  afterAll(async () => {
    await Promise.all(open.map((l) => l.close()));
  });

  it("shares one count between instances", async () => {
    const a = limiter();
    const b = limiter();
    expect([a.backend, b.backend]).toEqual(["redis", "redis"]);
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await a.consume("org_shared", 5));
    for (let i = 0; i < 2; i++) decisions.push(await b.consume("org_shared", 5));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 4],
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    for (const sixth of [await a.consume("org_shared", 5), await b.consume("org_shared", 5)]) {
      expect(sixth).toMatchObject({ allowed: false, limit: 5, remaining: 0 });
      expect(sixth.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(sixth.resetSeconds).toBeLessThanOrEqual(60);
    }
    // Another key is untouched.
    expect(await b.consume("org_other", 5)).toMatchObject({ allowed: true, remaining: 4 });
  });

  it("starts a new count once the window has passed", async () => {
    const a = limiter({ windowSeconds: 1 });
    const b = limiter({ windowSeconds: 1 });
    expect((await a.consume("org_window", 2)).allowed).toBe(true);
    expect((await b.consume("org_window", 2)).allowed).toBe(true);
    expect(await a.consume("org_window", 2)).toMatchObject({ allowed: false, resetSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await b.consume("org_window", 2)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it("keeps answering from memory when Redis is unreachable, with one warning", async () => {
    const warn = vi.spyOn(log(), "warn").mockImplementation(() => {});
    const down = createRateLimiter({ windowSeconds: 60, redisUrl: "redis://127.0.0.1:1", keyPrefix });
    try {
      expect(down.backend).toBe("redis");
      const decisions = [];
      for (let i = 0; i < 3; i++) decisions.push(await down.consume("org_down", 2));
      // The insurance limiter still counts, so the limit still holds.
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
      await new Promise((resolve) => setTimeout(resolve, 300)); // a few reconnect attempts
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[1])).toMatch(/Redis unreachable/);
    } finally {
      await down.close();
      warn.mockRestore();
    }
  });
});
