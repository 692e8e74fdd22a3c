/**
 * Every background job of the service, on the queue (server/3-queue): what it does and, for
 * recurring ones, its schedule (cron, UTC). pg-boss sends one job per slot whatever the number of
 * instances, and one worker runs it; a job must be safe to run again (a worker that dies mid-job
 * leaves it to be retried), which each of these is: they only delete what is due.
 */

import { sweepThrottleCounters } from "../3-limits/throttles";
import { expireUnusedRegistrations, purgeExpiredOAuthRecords } from "../4-api-access/oauth-records";
import { notificationJobs } from "./fan-out";
import type { JobDefinition } from "./job";
import { topUpJobs } from "./top-up-jobs";
import { webhookJob } from "./webhook-delivery";

/** Hours a dynamic client registration may stay unused before it is deleted (OAUTH_UNUSED_REGISTRATION_HOURS). */
export function unusedRegistrationHours(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.OAUTH_UNUSED_REGISTRATION_HOURS;
  const hours = raw === undefined || raw === "" ? 24 : Number(raw);
  if (!Number.isFinite(hours) || hours <= 0)
    throw new Error(`OAUTH_UNUSED_REGISTRATION_HOURS must be a number > 0, not "${raw}"`);
  return hours;
}

/** Every job, with the schedules this environment configures (the weekly summary's day and hour). */
export const allJobs = (env: NodeJS.ProcessEnv = process.env): JobDefinition[] => [
  {
    name: "oauth-purge-expired",
    cron: "17 * * * *",
    run: (db) => purgeExpiredOAuthRecords(db),
  },
  {
    name: "oauth-expire-unused-registrations",
    cron: "*/10 * * * *",
    run: (db) => expireUnusedRegistrations(db, unusedRegistrationHours()),
  },
  {
    name: "throttle-sweep",
    cron: "41 * * * *",
    run: (db) => sweepThrottleCounters(db),
  },
  ...notificationJobs(env),
  webhookJob(env),
  ...topUpJobs(),
];
