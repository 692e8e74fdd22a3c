/**
 * Outgoing mail. With SMTP_URL set, nodemailer sends it. Without (the default), nothing leaves
 * the machine: the message goes to the dev outbox table, where tests and the /dev/outbox page
 * read sign-in links, and the server log notes its recipient and subject, never the link.
 */
import { desc, eq } from "drizzle-orm";
import { createTransport, type Transporter } from "nodemailer";
import type { Database } from "../../db/client";
import { mailOutbox } from "../../db/schema";
import { OUTBOX_PATH } from "../2-http/paths";
import { log } from "../3-observability/logger";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The link the mail exists for (a sign-in link), kept apart in the outbox. */
  url?: string;
  /** Extra headers: List-Unsubscribe, List-Unsubscribe-Post. */
  headers?: Record<string, string>;
  /** A stable Message-ID (`<…@…>`): a mail sent again after a lost acknowledgement is recognisably the same. */
  messageId?: string;
}

export const mailFrom = (env: NodeJS.ProcessEnv = process.env) =>
  env.MAIL_FROM || "Market Positioning <no-reply@localhost>";

let transport: Transporter | undefined;

export async function deliverMail(db: Database, mail: Mail, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (env.SMTP_URL) {
    transport ??= createTransport(env.SMTP_URL);
    await transport.sendMail({
      from: mailFrom(env),
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: mail.headers,
      messageId: mail.messageId,
    });
    return;
  }
  const headers = { ...mail.headers, ...(mail.messageId ? { "Message-ID": mail.messageId } : {}) };
  await db.insert(mailOutbox).values({
    recipient: mail.to,
    subject: mail.subject,
    body: mail.text,
    url: mail.url ?? null,
    html: mail.html ?? null,
    headers: Object.keys(headers).length ? headers : null,
  });
  // Never the link itself: it signs its holder in. The dev outbox shows it to whoever may see it.
  log().info(
    { to: mail.to, subject: mail.subject },
    outboxPageEnabled(env)
      ? `mail: no SMTP_URL; the mail is in the dev outbox at ${OUTBOX_PATH}`
      : "mail: no SMTP_URL; the mail is kept only in the mail_outbox table (DEV_OUTBOX=1 shows it)",
  );
}

/**
 * The dev outbox is on when mail goes nowhere else and the server turned it on at start
 * (server/5-startup/dev-outbox.ts sets DEV_OUTBOX); the page also wants a loopback client.
 */
export function outboxPageEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.SMTP_URL && env.DEV_OUTBOX === "1";
}

/** The newest mail of the dev outbox, or only one recipient's (so a busy machine's other mail never hides it). */
export function recentOutbox(db: Database, recipient?: string, limit = 20) {
  const query = db.select().from(mailOutbox);
  const mine = recipient ? query.where(eq(mailOutbox.recipient, recipient)) : query;
  return mine.orderBy(desc(mailOutbox.id)).limit(limit);
}

export async function outboxMail(db: Database, id: number) {
  const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
  return mail;
}
