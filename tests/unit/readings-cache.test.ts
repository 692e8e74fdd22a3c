/**
 * The readings cache keeps what a release's readings computed, once per key, and never a failure:
 * a computation that rejects (a full worker pool answering 503, …) is computed again by the next
 * caller, while one that succeeded is served as the same object.
 */
import { describe, expect, it } from "vitest";
import { ReadingsCache } from "@/server/2-readings/cache";
import type { ReleaseData } from "@/server/2-readings/release";

const store = {};
const release = { marketId: "m", release: 1 } as unknown as ReleaseData;

describe("the readings cache", () => {
  it("computes a reading once and serves the same value", async () => {
    const cache = new ReadingsCache<object>();
    const loaded = await cache.release(store, 1, async () => release);
    let computed = 0;
    const first = loaded.reading("k", () => ({ n: ++computed }));
    expect(loaded.reading("k", () => ({ n: ++computed }))).toBe(first);
    expect(computed).toBe(1);
  });

  it("forgets a computation that rejected: the next caller computes it again", async () => {
    const cache = new ReadingsCache<object>();
    const loaded = await cache.release(store, 2, async () => release);
    const refused = loaded.reading("k", () => Promise.reject(new Error("busy")));
    await expect(refused).rejects.toThrow("busy");
    await Promise.resolve();
    const again = loaded.reading("k", () => Promise.resolve("answer"));
    await expect(again).resolves.toBe("answer");
    expect(loaded.reading("k", () => Promise.resolve("other"))).toBe(again);
  });
});
