import type { Metadata } from "next";
import Link from "next/link";
import { OUTBOX_PATH } from "@/server/2-http/paths";
import { outboxPageEnabled } from "@/server/6-mail/mail";

export const metadata: Metadata = { title: "Check your e-mail" };
export const dynamic = "force-dynamic";

/**
 * The outbox link shows whenever the outbox is on, not only to loopback clients: after the sign-in
 * form's action, Next renders this page by fetching it from its own server with the browser's
 * headers and its own X-Forwarded-*, which our server counts as remote (server/2-http/peer.ts). The
 * outbox page decides for itself who sees it.
 */
export default function CheckEmailPage() {
  return (
    <main className="narrow">
      <h1>Check your e-mail</h1>
      <p>We sent you a sign-in link. It works once, for 15 minutes.</p>
      {outboxPageEnabled() ? (
        <p className="note">
          No mail server is configured here: the link is in the <Link href={OUTBOX_PATH}>dev outbox</Link> (never in the
          server log).
        </p>
      ) : null}
    </main>
  );
}
