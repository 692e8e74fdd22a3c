import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { INVITATIONS_PATH, OUTBOX_PATH } from "@/server/2-http/paths";
import { isLoopbackPeer } from "@/server/2-http/peer";
import { getDatabase } from "@/server/5-database/app-database";
import { outboxPageEnabled, recentOutbox } from "@/server/6-mail/mail";

export const metadata: Metadata = { title: "Dev outbox" };
export const dynamic = "force-dynamic";

/**
 * Mail that would have been sent, when no SMTP server is configured: every sign-in link, so only
 * for a browser on this machine (our server's verdict, server/2-http/peer.ts); anyone else gets the
 * ordinary 404, as when the outbox is off.
 */
export default async function OutboxPage({ searchParams }: { searchParams: Promise<{ to?: string | string[] }> }) {
  if (!outboxPageEnabled() || !isLoopbackPeer(await headers())) notFound();
  const { db } = await getDatabase();
  // `?to=` shows one recipient's mail only.
  const { to } = await searchParams;
  const recipient = typeof to === "string" && to.length <= 320 ? to : undefined;
  const mails = await recentOutbox(db, recipient);
  return (
    <main>
      <h1>Dev outbox</h1>
      <p className="note">
        No SMTP server is configured (<code>SMTP_URL</code>), so mail is kept here instead of being sent. The server log
        notes each one&apos;s recipient and subject, never its link. Newest first
        {recipient ? `, to ${recipient} only` : ""}.
      </p>
      {mails.length === 0 ? <p>No mail yet.</p> : null}
      <ul className="outbox">
        {mails.map((mail) => (
          <li key={mail.id} data-testid="outbox-mail" data-recipient={mail.recipient}>
            <strong>{mail.subject}</strong> to {mail.recipient} at {mail.createdAt.toISOString()}
            {mail.url ? (
              <div>
                <a href={mail.url} data-testid="outbox-link">
                  {mail.url.includes(INVITATIONS_PATH) ? "Open the invitation of" : "Sign in as"} {mail.recipient}
                </a>
              </div>
            ) : null}
            {mail.html ? (
              <div>
                <a href={`${OUTBOX_PATH}/${mail.id}`} data-testid="outbox-html">
                  Open the HTML part
                </a>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </main>
  );
}
