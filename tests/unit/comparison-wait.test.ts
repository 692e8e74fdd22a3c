/**
 * A background comparison waits for a full worker pool, but not past its limit: then the pool's
 * busy error fails the job, which its queue retries, instead of the wait running into the job's
 * expiry. The pool here is always full: its runTask refuses every task as the real one refuses
 * when its queue is at its limit (the refusal itself is the pool's, tested through the app).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { compareReleases } from "@/server/3-workers/comparison";
import { WorkersBusy } from "@/server/3-workers/pool";
import { generatedGeographies, generatedMarket } from "../helpers/generated-catalogue";
import { scoredRelease } from "../helpers/scored-release";

const geographies = generatedGeographies(4);
const country = geographies.geographies[0]?.country as string;
const release = (seed: number, number: number) =>
  scoredRelease(generatedMarket(12, 4, { seed }), geographies.geographies, geographies.controls, {
    draws: 5,
    release: number,
  });

const tries = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/server/3-workers/pool", async (original) => {
  const pool = await original<typeof import("@/server/3-workers/pool")>();
  return {
    ...pool,
    runTask: async () => {
      tries.count += 1;
      throw new pool.WorkersBusy();
    },
  };
});

beforeAll(() => {
  vi.stubEnv("WORKER_MIN_PRODUCTS", "1"); // twelve products count as large: compared on the pool
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe("a comparison waiting for a full pool", () => {
  it("asks again for as long as its limit, then fails with the pool's busy error", async () => {
    tries.count = 0;
    const began = performance.now();
    await expect(compareReleases(release(1, 1), release(2, 2), country, { waitLimitMs: 1_200 })).rejects.toBeInstanceOf(
      WorkersBusy,
    );
    // It did wait (three tries, 500 ms apart), and gave up rather than waiting on.
    expect(tries.count).toBe(3);
    expect(performance.now() - began).toBeGreaterThanOrEqual(1_000);
  });

  it("fails at once with no time to wait", async () => {
    tries.count = 0;
    await expect(compareReleases(release(3, 1), release(4, 2), country, { waitLimitMs: 0 })).rejects.toBeInstanceOf(
      WorkersBusy,
    );
    expect(tries.count).toBe(1);
  });
});
