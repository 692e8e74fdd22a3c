/** `ops notifications …`: what the weekly summary would send, without sending it. */

import { latestSlot, slotOfWeek, weeklyScheduleFromEnv } from "../2-notifications/week";
import { summariesToSend, weeklySummaries } from "../4-following/weekly";
import { composeMail } from "../6-mail/notification-mail";
import { type CliContext, parse, UsageError, withDatabase } from "./io";

export const NOTIFICATIONS_USAGE = `ops notifications <command>
  weekly --dry-run [--week YYYY-Www] [--json]
                                          print the weekly summary e-mails the slot of that ISO week
                                          (default: the latest slot) would send; sends and writes nothing`;

export async function notificationsCommand(args: string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = args;
  if (command !== "weekly")
    throw new UsageError(command ? `unknown command "notifications ${command}"` : "missing command");
  const { values } = parse(
    rest,
    {
      "dry-run": { type: "boolean", default: false },
      week: { type: "string" },
      json: { type: "boolean", default: false },
    },
    0,
  );
  if (!values["dry-run"])
    throw new UsageError("weekly needs --dry-run: the summary itself is sent by the scheduled job, once per week");
  let slot: ReturnType<typeof latestSlot>;
  const schedule = weeklyScheduleFromEnv();
  try {
    slot = values.week ? slotOfWeek(values.week, schedule) : latestSlot(ctx.now(), schedule);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const summaries = await withDatabase(ctx, ({ db }) => weeklySummaries(db, slot));
  const due = summariesToSend(summaries);
  const mails = await Promise.all(
    due.map((s) =>
      composeMail({
        id: 0,
        userId: s.userId,
        recipient: s.recipient,
        kind: "weekly",
        dedupeKey: `weekly:${slot.week}`,
        content: s.content,
      }),
    ),
  );
  if (values.json) {
    ctx.io.out(
      JSON.stringify({
        week: slot.week,
        slot: slot.at.toISOString(),
        periodStart: slot.periodStart.toISOString(),
        optedIn: summaries.length,
        mails: mails.map((m, i) => ({
          to: m.to,
          subject: m.subject,
          text: m.text,
          headers: m.headers,
          content: due[i]?.content,
        })),
      }),
    );
    return 0;
  }
  ctx.io.out(
    `Weekly summary ${slot.week}: sent at ${slot.at.toISOString()}, covering ${slot.periodStart.toISOString()} – ${slot.at.toISOString()}.`,
  );
  ctx.io.out(
    `${summaries.length} opted in; ${mails.length} e-mail(s) would be sent; ${summaries.length - mails.length} quiet week(s) send nothing. (Dry run: nothing sent or written.)`,
  );
  for (const mail of mails) {
    ctx.io.out("");
    ctx.io.out(`To: ${mail.to}`);
    ctx.io.out(`Subject: ${mail.subject}`);
    for (const [name, value] of Object.entries(mail.headers ?? {})) ctx.io.out(`${name}: ${value}`);
    ctx.io.out("");
    ctx.io.out(mail.text);
  }
  return 0;
}
