import type { Metadata } from "next";
import { InvitationAccept } from "@/components/account/invitation-accept";
import { utcDay } from "@/components/format";
import { dashboardCaller } from "@/server/dashboard/caller";
import { requireUser } from "@/server/dashboard/guards";
import { ROLE_DESCRIPTIONS } from "@/server/domain/roles";
import { INVITATIONS_PATH } from "@/server/http/paths";

export const metadata: Metadata = { title: "Invitation", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  // Someone without a session signs in (or signs up) first and comes back here.
  const user = await requireUser(`${INVITATIONS_PATH}/${encodeURIComponent(token)}`);
  const caller = await dashboardCaller();
  const invitation = await caller.members.invitation({ token }).catch(() => null);
  if (!invitation)
    return (
      <main className="narrow">
        <h1>Invitation</h1>
        <p role="alert" className="error" data-testid="invitation-unusable">
          This invitation link is not valid: it was used, revoked, replaced by a newer one, or has expired. Ask the
          person who invited you to send it again.
        </p>
      </main>
    );
  const matches = user.email?.toLowerCase() === invitation.email;
  return (
    <main className="narrow">
      <h1>Join {invitation.organizationName}</h1>
      <p data-testid="invitation-summary">
        {invitation.invitedBy ?? "Someone"} invited <strong>{invitation.email}</strong> to join{" "}
        <strong>{invitation.organizationName}</strong> as <strong>{invitation.role}</strong>:{" "}
        {ROLE_DESCRIPTIONS[invitation.role].toLowerCase()}. The invitation works until {utcDay(invitation.expiresAt)}.
      </p>
      {matches ? (
        <InvitationAccept token={token} organizationName={invitation.organizationName} />
      ) : (
        <p role="alert" className="error" data-testid="invitation-other-address">
          You are signed in as {user.email ?? "someone without an e-mail address"}. Sign out, then sign in as{" "}
          {invitation.email} to accept.
        </p>
      )}
    </main>
  );
}
