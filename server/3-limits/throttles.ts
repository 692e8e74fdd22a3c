/**
 * Abuse throttles: how often anyone may make the service send a sign-in mail to one address or
 * from one client address, register OAuth clients or exchange ID-JAGs from one client address,
 * and make us fetch client metadata documents from one host. Counted across
 * instances: in Redis when REDIS_URL is set (the database standing in while Redis is down), else
 * in the database (throttle_counters). Numbers and their reasons: docs/security.md.
 */
import { createHash } from "node:crypto";
import { lt } from "drizzle-orm";
import { Redis } from "ioredis";
import { RateLimiterDrizzle, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Database } from "../../db/client";
import { throttleCounters } from "../../db/schema";

export interface ThrottleRule {
  name: string;
  points: number;
  durationSeconds: number;
}

/** The throttles, each counted per key over a fixed window. */
export const THROTTLES = {
  /** Sign-in mails to one address: a few tries, then wait (mails are links valid 15 minutes). */
  signInPerAddress: { name: "signin-address", points: 5, durationSeconds: 600 },
  /** Invitation mails one person sends (each a mail to an address of their choosing). */
  invitationsPerInviter: { name: "invite-inviter", points: 20, durationSeconds: 3600 },
  /** Invitation mails one organization sends, whoever of it sends them. */
  invitationsPerOrganization: { name: "invite-org", points: 50, durationSeconds: 3600 },
  /** Invitation mails to one address, from any organization: as the sign-in mails to it. */
  invitationsPerAddress: { name: "invite-address", points: 5, durationSeconds: 3600 },
  /** Sign-in mails requested from one client address: an office behind one NAT signs in at once. */
  signInPerClient: { name: "signin-client", points: 50, durationSeconds: 600 },
  /** Client registrations from one client address within a minute: a burst of an office's clients. */
  registrationBurstPerClient: { name: "register-burst", points: 20, durationSeconds: 60 },
  /** Client registrations from one client address within a day. */
  registrationDailyPerClient: { name: "register-day", points: 200, durationSeconds: 86_400 },
  /**
   * Client metadata documents fetched from one host within a minute: a host serves a few client
   * documents, each fetched once per cache period; more is someone making us fetch for them.
   */
  metadataDocumentsPerHost: { name: "cimd-host", points: 30, durationSeconds: 60 },
  /**
   * ID-JAG exchanges (the token endpoint's jwt-bearer grant) from one client address within a
   * minute: each asks for a signature check and may make us fetch an IdP's keys. A fleet of agents
   * behind one NAT exchanges one assertion per access token (an hour each), far below this.
   */
  idJagExchangesPerClient: { name: "idjag-client", points: 120, durationSeconds: 60 },
  /**
   * The landing page's sample reading for visitors, per client address: free, so bounded. A person
   * reloading is far below it; a scraper reading it in a loop is not.
   */
  sampleReadingPerClient: { name: "sample-client", points: 30, durationSeconds: 60 },
} as const satisfies Record<string, ThrottleRule>;

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

type Limiter = RateLimiterDrizzle | RateLimiterRedis;

interface Throttles {
  redis: Redis | null;
  /** Settles once the first connection attempt has: before it, every count would go to the stand-in. */
  connected: Promise<void>;
  limiters: WeakMap<Database, Map<string, Limiter>>;
}

const state = globalThis as typeof globalThis & { __mpsThrottles?: Throttles };

function throttles(): Throttles {
  if (!state.__mpsThrottles) {
    const url = process.env.REDIS_URL;
    const redis = url
      ? new Redis(url, { lazyConnect: true, enableOfflineQueue: false, connectTimeout: 1000, maxRetriesPerRequest: 1 })
      : null;
    redis?.on("error", () => {}); // the database counts meanwhile (insurance limiter)
    const connected = redis ? redis.connect().catch(() => {}) : Promise.resolve();
    state.__mpsThrottles = { redis, connected, limiters: new WeakMap() };
  }
  return state.__mpsThrottles;
}

function limiterFor(db: Database, rule: ThrottleRule): Limiter {
  const { redis, limiters } = throttles();
  let byRule = limiters.get(db);
  if (!byRule) {
    byRule = new Map();
    limiters.set(db, byRule);
  }
  let limiter = byRule.get(rule.name);
  if (!limiter) {
    // THROTTLE_KEY_PREFIX keeps separate deployments (or test runs) sharing one Redis apart.
    const prefix = process.env.THROTTLE_KEY_PREFIX || "mps:throttle";
    const options = { keyPrefix: `${prefix}:${rule.name}`, points: rule.points, duration: rule.durationSeconds };
    // Expired counters are swept by a job on the queue, not by a timer in each process.
    const inDatabase = new RateLimiterDrizzle({
      ...options,
      storeClient: db,
      schema: throttleCounters,
      clearExpiredByTimeout: false,
    });
    limiter = redis
      ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: inDatabase })
      : inDatabase;
    byRule.set(rule.name, limiter);
  }
  return limiter;
}

/** Keys never hold what they count (an e-mail address): only its hash. */
export const throttleKey = (value: string) =>
  createHash("sha256").update(value.trim().toLowerCase()).digest("base64url").slice(0, 32);

/**
 * Counts one attempt against every rule (all are counted, so a refusal still costs the others).
 * A rule whose key is unknown (null: no client address) is not counted rather than shared by all.
 */
export async function throttle(db: Database, attempts: [ThrottleRule, string | null][]): Promise<Verdict> {
  await throttles().connected;
  let retryAfterSeconds = 0;
  for (const [rule, key] of attempts) {
    if (key === null) continue;
    try {
      await limiterFor(db, rule).consume(throttleKey(key));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      retryAfterSeconds = Math.max(retryAfterSeconds, Math.ceil(rejection.msBeforeNext / 1000));
    }
  }
  return retryAfterSeconds > 0 ? { allowed: false, retryAfterSeconds } : { allowed: true };
}

/**
 * Whether one more attempt would be refused, counting nothing: for a page that says so before it
 * tries (the sign-in form: "too many links asked for; try again in 7 minutes") while the attempt
 * itself still counts with `throttle`, wherever it comes from.
 */
export async function throttled(db: Database, attempts: [ThrottleRule, string | null][]): Promise<Verdict> {
  await throttles().connected;
  let retryAfterSeconds = 0;
  for (const [rule, key] of attempts) {
    if (key === null) continue;
    const used = await limiterFor(db, rule).get(throttleKey(key));
    if (used && used.consumedPoints >= rule.points)
      retryAfterSeconds = Math.max(retryAfterSeconds, Math.ceil(used.msBeforeNext / 1000));
  }
  return retryAfterSeconds > 0 ? { allowed: false, retryAfterSeconds } : { allowed: true };
}

/** Deletes counters whose window ended over an hour ago (a job on the queue). */
export async function sweepThrottleCounters(db: Database): Promise<number> {
  const deleted = await db
    .delete(throttleCounters)
    .where(lt(throttleCounters.expire, new Date(Date.now() - 3_600_000)))
    .returning({ key: throttleCounters.key });
  return deleted.length;
}
