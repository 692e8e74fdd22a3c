/** The mail job's name, and how any job queues e-mails owed: one job per delivery (the queue keeps one per key). */
import type { JobContext } from "./job";

export const MAIL_JOB = "mail-send";

export async function queueMails(context: JobContext, deliveryIds: readonly number[]): Promise<void> {
  for (const deliveryId of deliveryIds)
    await context.send(MAIL_JOB, { deliveryId }, { singletonKey: `delivery:${deliveryId}` });
}
