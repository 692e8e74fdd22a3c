/**
 * An e-mail owed, as the mail that goes out: rendered from its stored content with the links of
 * this deployment, a signed one-click unsubscribe link for its list, the RFC 8058 headers, and a
 * Message-ID fixed by the delivery (a mail sent again after a lost acknowledgement is the same
 * message to every mail system). Used by the mail job and by the CLI's dry run.
 */
import type {
  CreditsPurchasedContent,
  LowBalanceContent,
  MailContent,
  NotificationContent,
  TopUpFailedContent,
  WebhookDisabledContent,
  WeeklyContent,
} from "../1-domain/notification-content";
import { mailLinkOrigin } from "../2-http/origin";
import {
  renderCreditsPurchasedMail,
  renderLowBalanceMail,
  renderNotificationMail,
  renderTopUpFailedMail,
  renderWebhookDisabledMail,
  renderWeeklyMail,
} from "../2-notifications/render";
import type { Mail } from "./mail";
import { type MailList, unsubscribeUrl } from "./unsubscribe";

export interface OwedMail {
  id: number;
  userId: string;
  recipient: string;
  kind: "notification" | "weekly" | "webhook_disabled" | "low_balance" | "credits_purchased" | "top_up_failed";
  dedupeKey: string;
  content: MailContent;
}

/** A Message-ID fixed by the delivery: the same message to every mail system if it is sent again. */
const messageIdOf = (owed: OwedMail, origin: string) =>
  `<delivery-${owed.id}.${owed.dedupeKey.replace(/[^A-Za-z0-9.-]/g, "-")}@${new URL(origin).hostname || "localhost"}>`;

export async function composeMail(owed: OwedMail, env: NodeJS.ProcessEnv = process.env): Promise<Mail> {
  const origin = mailLinkOrigin(env);
  // Mails about the organization's own account (no list to leave).
  if (owed.kind === "low_balance")
    return {
      to: owed.recipient,
      ...renderLowBalanceMail(owed.content as LowBalanceContent, origin),
      messageId: messageIdOf(owed, origin),
    };
  if (owed.kind === "credits_purchased")
    return {
      to: owed.recipient,
      ...renderCreditsPurchasedMail(owed.content as CreditsPurchasedContent, origin),
      messageId: messageIdOf(owed, origin),
    };
  if (owed.kind === "top_up_failed")
    return {
      to: owed.recipient,
      ...renderTopUpFailedMail(owed.content as TopUpFailedContent, origin),
      messageId: messageIdOf(owed, origin),
    };
  if (owed.kind === "webhook_disabled")
    return {
      to: owed.recipient,
      ...renderWebhookDisabledMail(owed.content as WebhookDisabledContent, origin),
      messageId: messageIdOf(owed, origin),
    };
  const list: MailList = owed.kind === "weekly" ? "weekly" : "release";
  const unsubscribe = await unsubscribeUrl(origin, owed.userId, list);
  const rendered =
    owed.kind === "weekly"
      ? renderWeeklyMail(owed.content as WeeklyContent, { origin, unsubscribe })
      : renderNotificationMail(owed.content as NotificationContent, { origin, unsubscribe });
  return {
    to: owed.recipient,
    ...rendered,
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    messageId: messageIdOf(owed, origin),
  };
}
