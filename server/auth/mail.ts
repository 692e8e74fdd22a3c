/**
 * Outgoing mail. With SMTP_URL set, nodemailer sends it. Without (the default), nothing leaves
 * the machine: the message goes to the server log and to the dev outbox table, where tests and
 * the /dev/outbox page read sign-in links.
 */
import { desc } from "drizzle-orm";
import { createTransport, type Transporter } from "nodemailer";
import type { Database } from "../../db/client";
import { mailOutbox } from "../../db/schema";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The link the mail exists for (a sign-in link), kept apart in the outbox. */
  url?: string;
}

export const mailFrom = (env: NodeJS.ProcessEnv = process.env) =>
  env.MAIL_FROM || "Market Positioning <no-reply@localhost>";

export const smtpConfigured = (env: NodeJS.ProcessEnv = process.env) => Boolean(env.SMTP_URL);

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
    });
    return;
  }
  await db
    .insert(mailOutbox)
    .values({ recipient: mail.to, subject: mail.subject, body: mail.text, url: mail.url ?? null });
  console.log(`[mail] no SMTP_URL: "${mail.subject}" for ${mail.to}${mail.url ? `: ${mail.url}` : ""}`);
}

/** The dev outbox is on when mail goes nowhere else and the operator allowed it (DEV_OUTBOX=1 or dev mode). */
export function outboxPageEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.SMTP_URL && (env.DEV_OUTBOX === "1" || env.NODE_ENV === "development");
}

export function recentOutbox(db: Database, limit = 20) {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit);
}
