import type { Metadata } from "next";
import { InvitationAccept } from "@/components/account/invitation-accept";
import { utcDay } from "@/components/format";
import { SignInForms } from "@/components/sign-in-forms";
import { ROLE_DESCRIPTIONS } from "@/server/1-domain/roles";
import { INVITATIONS_PATH } from "@/server/2-http/paths";
import { dashboardCaller } from "@/server/8-dashboard/caller";
import { currentUser } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Invitation", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

/**
 * An invitation's link. Signed out, the invitee reads who invites them to which organization and
 * signs in right here, the invited address filled in (the link's mail comes back here); signed in,
 * they join. A link that is not valid (unknown, used, revoked, replaced, expired) says only that,
 * signed in or not: nothing of any invitation is shown for it.
 */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const user = await currentUser();
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
  const summary = (
    <p data-testid="invitation-summary">
      {invitation.invitedBy ?? "Someone"} invited <strong>{invitation.email}</strong> to join{" "}
      <strong>{invitation.organizationName}</strong> as <strong>{invitation.role}</strong>:{" "}
      {ROLE_DESCRIPTIONS[invitation.role].toLowerCase()}. The invitation works until {utcDay(invitation.expiresAt)}.
    </p>
  );
  if (!user)
    return (
      <main className="narrow">
        <h1>Join {invitation.organizationName}</h1>
        {summary}
        <p data-testid="invitation-sign-in">
          Sign in as {invitation.email} to accept: we e-mail you a link that brings you back here. New here? The same
          link creates your account.
        </p>
        <SignInForms returnTo={`${INVITATIONS_PATH}/${encodeURIComponent(token)}`} email={invitation.email} />
      </main>
    );
  const matches = user.email?.toLowerCase() === invitation.email;
  return (
    <main className="narrow">
      <h1>Join {invitation.organizationName}</h1>
      {summary}
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
