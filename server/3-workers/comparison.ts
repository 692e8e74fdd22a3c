/**
 * Two releases compared where their size says: on the event loop for a market of ordinary size,
 * on the worker pool for a large one (WORKER_MIN_PRODUCTS products or more). The comparison
 * scores both releases' fields again and reads their rank odds: at 1,000 products some hundreds of
 * milliseconds, and a large release's sensitivity is loaded as text only for a thread
 * (server/3-catalog/store.ts). Its callers are background jobs (the fan-out of a new release), so a
 * full pool is waited for, never refused.
 */

import type { ReleaseComparison } from "../2-comparisons/release-comparison";
import { changes } from "../2-comparisons/release-comparison";
import type { ReleaseData } from "../2-readings/release";
import { runTask, WorkersBusy, workerMinProducts } from "./pool";
import { shareRelease } from "./shared-release";

/** How long a job waits for a place in a full pool before it asks again. */
const BUSY_WAIT_MS = 500;

export async function compareReleases(from: ReleaseData, to: ReleaseData, country: string): Promise<ReleaseComparison> {
  const large = Math.max(from.products.length, to.products.length) >= workerMinProducts();
  if (!large) return changes(from, to, country);
  const [sharedFrom, sharedTo] = await Promise.all([shareRelease(from), shareRelease(to)]);
  for (;;) {
    try {
      const json = await runTask("comparison", { from: sharedFrom, to: sharedTo, country });
      return JSON.parse(json) as ReleaseComparison;
    } catch (error) {
      if (!(error instanceof WorkersBusy)) throw error;
      await new Promise((resolve) => setTimeout(resolve, BUSY_WAIT_MS));
    }
  }
}
