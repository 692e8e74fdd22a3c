/**
 * Another organization's calls beside a flood: a bystander polls a cheap call, one at a time, while
 * requests run a few at a time; its latencies say whether the flood held the app's event loop. Used
 * by the size suite (tests/size/) and the OWASP resource-consumption suite.
 */
import { percentile } from "./stats";

/** Runs `requests` at most `together` at a time; their results in the order they finished. */
export async function inTurns<T>(requests: (() => Promise<T>)[], together: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: together }, async () => {
      while (next < requests.length) {
        const request = requests[next++] as () => Promise<T>;
        results.push(await request());
      }
    }),
  );
  return results;
}

/** `call`'s latencies in ms while `work` runs (one call at a time, `gapMs` apart), and what work gave. */
export async function latenciesDuring<T>(
  call: () => Promise<unknown>,
  work: () => Promise<T>,
  gapMs = 20,
): Promise<{ latencies: number[]; result: T }> {
  const latencies: number[] = [];
  let done = false;
  const polling = (async () => {
    while (!done) {
      const began = performance.now();
      await call();
      latencies.push(performance.now() - began);
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
  })();
  try {
    const result = await work();
    return { latencies, result };
  } finally {
    done = true;
    await polling;
  }
}

/** "36×200, 2×503". */
export const statusCounts = (statuses: readonly number[]) =>
  Object.entries(
    statuses.reduce<Record<string, number>>((all, status) => {
      all[status] = (all[status] ?? 0) + 1;
      return all;
    }, {}),
  )
    .map(([status, n]) => `${n}×${status}`)
    .join(", ");

export const p = percentile;
