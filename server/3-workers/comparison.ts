/**
 * Two releases compared where their size says: on the event loop for a market of ordinary size,
 * on the worker pool for a large one (WORKER_MIN_PRODUCTS products or more). The comparison
 * scores both releases' fields again and reads their rank odds: at 1,000 products some hundreds of
 * milliseconds, and a large release's sensitivity is loaded as text only for a thread
 * (server/3-catalog/store.ts). Its callers are background jobs (the fan-out of a new release, the
 * weekly summary), so a full pool is waited for rather than refused, but not without end: after
 * BUSY_WAIT_LIMIT_MS the pool's busy error fails the job, and its queue retries it on the job's own
 * schedule. Waiting on would run into pg-boss's expiry (15 minutes), which kills the job mid-wait.
 */

import type { ReleaseComparison } from "../2-comparisons/release-comparison";
import { changes } from "../2-comparisons/release-comparison";
import type { ReleaseData } from "../2-readings/release";
import { runTask, WorkersBusy, workerMinProducts } from "./pool";
import { shareRelease } from "./shared-release";

/** How long a job waits for a place in a full pool before it asks again. */
const BUSY_WAIT_MS = 500;
/** How long a job waits for a place in all: well inside pg-boss's 15-minute expiry of a job. */
export const BUSY_WAIT_LIMIT_MS = 5 * 60_000;

export async function compareReleases(
  from: ReleaseData,
  to: ReleaseData,
  country: string,
  { waitLimitMs = BUSY_WAIT_LIMIT_MS }: { waitLimitMs?: number } = {},
): Promise<ReleaseComparison> {
  const large = Math.max(from.products.length, to.products.length) >= workerMinProducts();
  if (!large) return changes(from, to, country);
  const [sharedFrom, sharedTo] = await Promise.all([shareRelease(from), shareRelease(to)]);
  const giveUpAt = performance.now() + waitLimitMs;
  for (;;) {
    try {
      const json = await runTask("comparison", { from: sharedFrom, to: sharedTo, country });
      return JSON.parse(json) as ReleaseComparison;
    } catch (error) {
      if (!(error instanceof WorkersBusy) || performance.now() + BUSY_WAIT_MS > giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, BUSY_WAIT_MS));
    }
  }
}
