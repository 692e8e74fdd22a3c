/**
 * Automatic top-up on the queue (docs/billing.md, "Automatic top-up"): one `billing-top-up` job
 * per attempt, sent as soon as the debit that scheduled it has committed (the debit does not wait
 * for it), and a sweep a minute that sends again those a process never sent (it died between the
 * debit's commit and the send). The job's id is the attempt's, so a second send is a no-op.
 */
import type { Database } from "../../db/client";
import { errorMessage, log } from "../3-observability/logger";
import { type BillingConfig, processBillingConfig } from "../4-billing/config";
import { chargeTopUp, LOST_TOP_UP_SECONDS, lostTopUps } from "../4-billing/top-up";
import { onTopUpsScheduled } from "../4-credits/credits";
import type { JobContext, JobDefinition } from "./job";

export const TOP_UP_JOB = "billing-top-up";
export const TOP_UP_SWEEP_JOB = "billing-top-up-sweep";

/** Sends one job per attempt, with the attempt's id as the job's: sending one twice sends it once. */
export async function queueTopUps(context: JobContext, attemptIds: readonly string[]): Promise<void> {
  for (const attemptId of attemptIds)
    await context.send(TOP_UP_JOB, { attemptId }, { id: attemptId, singletonKey: `top-up:${attemptId}` });
}

export function topUpJobs(config: () => BillingConfig = processBillingConfig): JobDefinition[] {
  return [
    {
      name: TOP_UP_JOB,
      // Stripe unreachable: retried with backoff under the same idempotency key. A run that dies
      // mid-charge leaves its job to expire and be retried; the attempt is claimable again then.
      queue: { retryLimit: 8, retryDelay: 30, retryBackoff: true, expireInSeconds: 240 },
      run: (db: Database, data) => chargeTopUp(db, config(), (data as { attemptId: string }).attemptId),
    },
    {
      name: TOP_UP_SWEEP_JOB,
      cron: "* * * * *",
      queue: { policy: "short", retryLimit: 2, retryDelay: 10 },
      run: async (db, data, context) => {
        const lostAfter = (data as { lostAfterSeconds?: number } | null)?.lostAfterSeconds ?? LOST_TOP_UP_SECONDS;
        const lost = await lostTopUps(db, lostAfter);
        await queueTopUps(context, lost);
        return { requeued: lost.length };
      },
    },
  ];
}

/** This instance's part: a job for each attempt a debit of this instance scheduled. */
export function startTopUps(context: JobContext): void {
  onTopUpsScheduled(
    (attemptIds) =>
      void queueTopUps(context, attemptIds).catch((error: unknown) =>
        log().warn({ error: errorMessage(error), attemptIds }, "top-up: could not queue; the sweep will"),
      ),
  );
}
