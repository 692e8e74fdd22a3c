/**
 * Starts this process's part of the queue: the queues and schedules of every job (idempotent, so
 * every instance may do it), and a worker per job. Kept on globalThis: once per process.
 */
import type PgBoss from "pg-boss";
import type { DatabaseHandle } from "../../db/client";
import { log } from "../3-observability/logger";
import { startQueue } from "../3-queue/queue";
import { startNotifications } from "./fan-out";
import { allJobs } from "./jobs";
import { startTopUps } from "./top-up-jobs";

const state = globalThis as typeof globalThis & { __mpsJobs?: Promise<PgBoss> };

export function startJobs(handle: DatabaseHandle): Promise<PgBoss> {
  state.__mpsJobs ??= (async () => {
    const boss = await startQueue(handle, { work: true });
    const context = {
      send: (name: string, data: object, options?: PgBoss.SendOptions) => boss.send(name, data, options ?? {}),
    };
    const jobs = allJobs();
    for (const job of jobs) {
      await boss.createQueue(job.name, { name: job.name, ...job.queue });
      // An existing queue keeps its old options unless told: the operator's retry settings apply.
      if (job.queue) await boss.updateQueue(job.name, { name: job.name, ...job.queue });
    }
    for (const job of jobs) {
      if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: job.tz ?? "UTC" });
      await boss.work(job.name, async (batch) => {
        for (const { id, data } of batch) {
          const result = await job.run(handle.db, data, context);
          log().info({ job: job.name, jobId: id, result }, "job done");
        }
      });
    }
    startTopUps(context);
    await startNotifications(context);
    return boss;
  })().catch((error: unknown) => {
    state.__mpsJobs = undefined; // a later call tries again
    throw error;
  });
  return state.__mpsJobs;
}

/** Stops the workers (in-flight jobs finish) before the process exits. */
export async function stopJobs(): Promise<void> {
  const boss = await state.__mpsJobs?.catch(() => undefined);
  await boss?.stop({ graceful: true, wait: true });
}
