/**
 * The notification jobs. A catalogue change (this instance's, or another's through NOTIFY) queues
 * a fan-out; a fan-out a minute sweeps whatever a crash left behind. The fan-out writes
 * notifications and e-mails owed and queues one mail job per e-mail; a mail job sends it through
 * SMTP or the dev outbox, retried with exponential backoff while SMTP fails. The weekly summary
 * runs on the operator's schedule. pg-boss's `short` policy keeps at most one queued job per key,
 * and the delivery's lease (server/4-following/deliveries.ts) keeps any two attempts apart.
 */
import { onChange } from "../../db/change-feed";
import type { Database } from "../../db/client";
import { latestSlot, slotOfWeek, weeklyCron, weeklyScheduleFromEnv } from "../2-notifications/week";
import { errorMessage, log } from "../3-observability/logger";
import { onMailsOwed } from "../4-credits/credits";
import { claimDelivery, markDelivered, noteDeliveryFailure, unsentDeliveries } from "../4-following/deliveries";
import { fanOutPendingEvents } from "../4-following/notify";
import { queueWeeklySummaries } from "../4-following/weekly";
import { deliverMail } from "../6-mail/mail";
import { composeMail } from "../6-mail/notification-mail";
import type { JobContext, JobDefinition } from "./job";
import { MAIL_JOB, queueMails } from "./mail-queue";
import { lostMessages, queueWebhooks } from "./webhook-delivery";

export const FAN_OUT_JOB = "notifications-fan-out";
export { MAIL_JOB };
export const WEEKLY_JOB = "weekly-summary";

/** Catalogue changes this close together queue one fan-out. */
const FAN_OUT_DEBOUNCE_MS = 1000;

/** Deliveries never attempted this long after they were written have lost their job. */
const LOST_DELIVERY_SECONDS = 300;

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1, not "${raw}"`);
  return value;
}

/** MAIL_RETRY_LIMIT (default 10) retries, the first after MAIL_RETRY_DELAY_SECONDS (30), doubling. */
export const mailRetries = (env: NodeJS.ProcessEnv = process.env) => ({
  retryLimit: positiveInteger(env, "MAIL_RETRY_LIMIT", 10),
  retryDelay: positiveInteger(env, "MAIL_RETRY_DELAY_SECONDS", 30),
  retryBackoff: true,
});

/** Sends one e-mail owed; a failure is recorded and thrown, so pg-boss retries it with backoff. */
export async function sendDelivery(db: Database, deliveryId: number): Promise<"sent" | "skipped"> {
  const delivery = await claimDelivery(db, deliveryId);
  if (!delivery) return "skipped"; // sent already, or another attempt holds it
  const mail = await composeMail(delivery);
  try {
    await deliverMail(db, mail);
  } catch (error) {
    await noteDeliveryFailure(db, deliveryId, errorMessage(error));
    log().warn(
      { deliveryId, attempt: delivery.attempts, error: errorMessage(error) },
      "mail: sending failed; it will be retried",
    );
    throw error;
  }
  await markDelivered(db, deliveryId);
  return "sent";
}

export function notificationJobs(env: NodeJS.ProcessEnv = process.env): JobDefinition[] {
  const schedule = weeklyScheduleFromEnv(env);
  return [
    {
      name: FAN_OUT_JOB,
      cron: "* * * * *",
      queue: { policy: "short", retryLimit: 5, retryDelay: 10, retryBackoff: true },
      run: async (db, data, context) => {
        const fanned = await fanOutPendingEvents(db);
        const lostAfter = (data as { lostAfterSeconds?: number } | null)?.lostAfterSeconds ?? LOST_DELIVERY_SECONDS;
        const lost = await unsentDeliveries(db, lostAfter);
        await queueMails(context, [...fanned.deliveries, ...lost.filter((id) => !fanned.deliveries.includes(id))]);
        const lostWebhooks = await lostMessages(db, lostAfter);
        await queueWebhooks(context, [
          ...fanned.webhooks,
          ...lostWebhooks.filter((id) => !fanned.webhooks.includes(id)),
        ]);
        return {
          events: fanned.events,
          notifications: fanned.notifications,
          mails: fanned.deliveries.length,
          webhooks: fanned.webhooks.length,
          requeued: lost.length + lostWebhooks.length,
        };
      },
    },
    {
      name: MAIL_JOB,
      queue: { policy: "short", ...mailRetries(env) },
      run: (db, data) => sendDelivery(db, (data as { deliveryId: number }).deliveryId),
    },
    {
      name: WEEKLY_JOB,
      cron: weeklyCron(schedule),
      tz: schedule.timeZone,
      queue: { policy: "short", retryLimit: 3, retryDelay: 60, retryBackoff: true },
      run: async (db, data, context) => {
        const week = (data as { week?: string } | null)?.week;
        const slot = week ? slotOfWeek(week, schedule) : latestSlot(new Date(), schedule);
        const queued = await queueWeeklySummaries(db, slot);
        await queueMails(context, queued);
        return { week: slot.week, mails: queued.length };
      },
    },
  ];
}

/**
 * This instance's part: a fan-out whenever the catalogue changes (a publish here, or another
 * instance's or the CLI's heard through NOTIFY), a mail job for each e-mail a debit of this
 * instance owes (the low-balance warning; one lost here is queued by the sweep), and a fan-out at
 * start for what happened while no instance ran.
 */
export async function startNotifications(context: JobContext): Promise<void> {
  onMailsOwed(
    (deliveryIds) =>
      void queueMails(context, deliveryIds).catch((error: unknown) =>
        log().warn({ error: errorMessage(error), deliveryIds }, "notifications: could not queue owed e-mails"),
      ),
  );
  const queueFanOut = (data: { lostAfterSeconds?: number } = {}) =>
    context
      .send(FAN_OUT_JOB, data)
      .catch((error: unknown) =>
        log().warn({ error: errorMessage(error) }, "notifications: could not queue a fan-out"),
      );
  // A burst of changes (a publish storm, or the change feed reconnecting again and again while
  // the database is in trouble) queues one fan-out, a second after the first change.
  let pending: NodeJS.Timeout | undefined;
  onChange((topic) => {
    if (topic !== "catalogue" || pending) return;
    pending = setTimeout(() => {
      pending = undefined;
      void queueFanOut();
    }, FAN_OUT_DEBOUNCE_MS);
    pending.unref();
  });
  // At start, e-mails owed that were never tried are queued at once (a queued job for one is not
  // duplicated: the queue keeps one per delivery, and the delivery's lease one attempt at a time).
  await queueFanOut({ lostAfterSeconds: 0 });
}
