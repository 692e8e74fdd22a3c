"use client";
/** Pending invitations: who, which role, by whom, when sent and until when; resend or revoke (confirmed). */
import { TableWrap } from "@/components/ui/table-wrap";
import type { Role } from "@/server/1-domain/roles";
import { utcDay, utcMinute } from "../format";

export interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  sentAt: string | Date;
  expiresAt: string | Date;
}

export function InvitationTable({
  invitations,
  onResend,
  onRevoke,
  busy,
}: {
  invitations: readonly InvitationRow[];
  onResend: (input: { invitationId: string }) => void;
  onRevoke: (input: { invitationId: string }) => void;
  busy: boolean;
}) {
  return (
    <TableWrap label="Pending invitations">
      <table>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Invited by</th>
            <th scope="col">Sent</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((invitation) => (
            <tr key={invitation.id} data-testid="invitation-row">
              <td data-label="E-mail">{invitation.email}</td>
              <td data-label="Role">{invitation.role}</td>
              <td data-label="Invited by">{invitation.invitedBy ?? "—"}</td>
              <td data-label="Sent">{utcMinute(invitation.sentAt)}</td>
              <td data-label="Expires">{utcDay(invitation.expiresAt)}</td>
              <td>
                <button type="button" disabled={busy} onClick={() => onResend({ invitationId: invitation.id })}>
                  Resend<span className="sr-only"> to {invitation.email}</span>
                </button>{" "}
                <button
                  type="button"
                  className="danger"
                  disabled={busy}
                  onClick={() => {
                    if (window.confirm(`Revoke the invitation of ${invitation.email}? Its link stops working.`))
                      onRevoke({ invitationId: invitation.id });
                  }}
                >
                  Revoke<span className="sr-only"> the invitation of {invitation.email}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
