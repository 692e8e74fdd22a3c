import type { Metadata } from "next";
import Link from "next/link";
import { outboxPageEnabled } from "@/server/auth/mail";
import { OUTBOX_PATH } from "@/server/paths";

export const metadata: Metadata = { title: "Check your e-mail" };
export const dynamic = "force-dynamic";

export default function CheckEmailPage() {
  return (
    <main className="narrow">
      <h1>Check your e-mail</h1>
      <p>We sent you a sign-in link. It works once, for 15 minutes.</p>
      {outboxPageEnabled() ? (
        <p className="note">
          No mail server is configured here: the link is in the server log and in the{" "}
          <Link href={OUTBOX_PATH}>dev outbox</Link>.
        </p>
      ) : null}
    </main>
  );
}
