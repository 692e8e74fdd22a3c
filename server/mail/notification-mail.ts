/**
 * An e-mail owed, as the mail that goes out: rendered from its stored content with the links of
 * this deployment, a signed one-click unsubscribe link for its list, the RFC 8058 headers, and a
 * Message-ID fixed by the delivery (a mail sent again after a lost acknowledgement is the same
 * message to every mail system). Used by the mail job and by the CLI's dry run.
 */
import type { NotificationContent, WeeklyContent } from "../domain/notifications";
import { mailLinkOrigin } from "../http/origin";
import { renderNotificationMail, renderWeeklyMail } from "../notifications/render";
import type { Mail } from "./mail";
import { type MailList, unsubscribeUrl } from "./unsubscribe";

export interface OwedMail {
  id: number;
  userId: string;
  recipient: string;
  kind: "notification" | "weekly";
  dedupeKey: string;
  content: NotificationContent | WeeklyContent;
}

export async function composeMail(owed: OwedMail, env: NodeJS.ProcessEnv = process.env): Promise<Mail> {
  const origin = mailLinkOrigin(env);
  const list: MailList = owed.kind === "weekly" ? "weekly" : "release";
  const unsubscribe = await unsubscribeUrl(origin, owed.userId, list);
  const rendered =
    owed.kind === "weekly"
      ? renderWeeklyMail(owed.content as WeeklyContent, { origin, unsubscribe })
      : renderNotificationMail(owed.content as NotificationContent, { origin, unsubscribe });
  const host = new URL(origin).hostname || "localhost";
  return {
    to: owed.recipient,
    ...rendered,
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    messageId: `<delivery-${owed.id}.${owed.dedupeKey.replace(/[^A-Za-z0-9.-]/g, "-")}@${host}>`,
  };
}
