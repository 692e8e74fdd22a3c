/** The process's one rate limiter (Redis when REDIS_URL is set, else memory) and the default limit. */
import { createRateLimiter, type RateLimiter, rateLimiterConfigFromEnv } from "./rate-limiter";

const state = globalThis as typeof globalThis & { __mpsRateLimiter?: RateLimiter };

export function sharedRateLimiter(): RateLimiter {
  state.__mpsRateLimiter ??= createRateLimiter(rateLimiterConfigFromEnv());
  return state.__mpsRateLimiter;
}

/** Requests per window for an organization without its own limit: RATE_LIMIT, default 600. */
export function defaultRateLimit(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.RATE_LIMIT;
  if (raw === undefined || raw === "") return 600;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`RATE_LIMIT must be a whole number > 0, not "${raw}"`);
  return value;
}
