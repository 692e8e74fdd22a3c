/**
 * Two releases of a market compared on a worker thread (./comparison.ts sends it): the comparison
 * the notifications and webhooks of a new release are written from, as JSON text (a string crosses
 * to the event loop as one copy of its bytes).
 */
import { changes } from "../2-comparisons/release-comparison";
import { openRelease } from "./shared-release";
import type { ComparisonTask } from "./tasks";

export default function compareReleasesTask(task: ComparisonTask): string {
  return JSON.stringify(changes(openRelease(task.from), openRelease(task.to), task.country));
}
