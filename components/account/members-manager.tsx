"use client";
/**
 * The members page's body: invite by e-mail with a role, the people and their roles, pending
 * invitations, leaving. Controls appear only for what the caller's role may do (the server
 * refuses the rest anyway, 403 forbidden); a member without members.manage reads the list only.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { mayAssign, ROLE_DESCRIPTIONS, type Role } from "@/server/1-domain/roles";
import { useTRPC } from "../trpc";
import { AccountList, ProblemAlert } from "./account-list";
import { InvitationTable } from "./invitation-table";
import { type MemberRow, MemberTable, who } from "./member-table";

export function MembersManager({ organizationName }: { organizationName: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.members.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() });
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  // What the last change to a member did, said in the live region under the list's heading.
  const [done, setDone] = useState("");
  const invite = useMutation(trpc.members.invite.mutationOptions({ onSuccess: refresh }));
  const changeRole = useMutation(trpc.members.changeRole.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: refresh }));
  const transfer = useMutation(trpc.members.transferOwnership.mutationOptions({ onSuccess: refresh }));
  const memberActions = {
    changeRole: (member: MemberRow, to: Role) => {
      setDone("");
      changeRole.mutate(
        { userId: member.userId, role: to },
        { onSuccess: () => setDone(`${who(member)} is now ${to === "admin" ? "an" : "a"} ${to}.`) },
      );
    },
    remove: (member: MemberRow) => {
      setDone("");
      remove.mutate(
        { userId: member.userId },
        {
          onSuccess: () =>
            setDone(
              `${who(member)} was removed from ${organizationName}; their API tokens and MCP connections here are revoked.`,
            ),
        },
      );
    },
    transfer: (member: MemberRow) => {
      setDone("");
      transfer.mutate(
        { userId: member.userId },
        { onSuccess: () => setDone(`${who(member)} is now an owner; you are an admin.`) },
      );
    },
  };
  const resend = useMutation(trpc.members.resendInvitation.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.members.revokeInvitation.mutationOptions({ onSuccess: refresh }));
  // Leaving takes the organization away from this page: start again from the markets.
  const leave = useMutation(trpc.members.leave.mutationOptions({ onSuccess: () => window.location.assign("/") }));

  const me = list.data?.me;
  const manages = me?.permissions.includes("members.manage") ?? false;
  const invitable = me ? (list.data?.roles ?? []).filter((r) => mayAssign(me.role, null, r)) : [];
  const busy = changeRole.isPending || remove.isPending || transfer.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email, role }, { onSuccess: () => setEmail("") });
  };
  return (
    <>
      {manages ? (
        <section aria-labelledby="invite">
          <h2 id="invite">Invite someone</h2>
          <form onSubmit={submit} className="inline-form">
            <label>
              E-mail
              <input
                type="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                required
                maxLength={254}
                autoComplete="off"
                placeholder="colleague@example.com"
              />
            </label>
            <label>
              Role
              <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {invitable.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" disabled={invite.isPending}>
              Send invitation
            </button>
          </form>
          <p className="hint">{ROLE_DESCRIPTIONS[role]}. The link works once, for 7 days.</p>
          <ProblemAlert errors={[invite.error]} />
          {invite.data ? (
            <p role="status" data-testid="invitation-sent">
              Invitation sent to {invite.data.email}.
            </p>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="member-list">
        <h2 id="member-list">Members</h2>
        {me && !manages ? (
          <p className="hint" data-testid="members-read-only">
            You are a {me.role}: you can see who belongs; an owner or admin manages members.
          </p>
        ) : null}
        {/* Always in the page, so a screen reader announces what is written into it. */}
        <p role="status" aria-live="polite" className="done" data-testid="member-change-done">
          {done}
        </p>
        <AccountList
          items={list.data?.members}
          pending={list.isPending}
          errors={[list.error, changeRole.error, remove.error, transfer.error]}
          empty="Nobody belongs to this organization yet."
        >
          {(members) =>
            me ? (
              <MemberTable
                members={members}
                me={me}
                roles={list.data?.roles ?? []}
                actions={{ ...memberActions, busy }}
              />
            ) : null
          }
        </AccountList>
      </section>

      {manages ? (
        <section aria-labelledby="invitation-list">
          <h2 id="invitation-list">Pending invitations</h2>
          <AccountList
            items={list.data?.invitations}
            pending={list.isPending}
            errors={[resend.error, revoke.error]}
            empty="No pending invitations."
          >
            {(invitations) => (
              <InvitationTable
                invitations={invitations}
                onResend={resend.mutate}
                onRevoke={revoke.mutate}
                busy={resend.isPending || revoke.isPending}
              />
            )}
          </AccountList>
          {resend.data ? <p role="status">A new link was sent; the previous one no longer works.</p> : null}
        </section>
      ) : null}

      <section aria-labelledby="leave">
        <h2 id="leave">Leave</h2>
        <p className="hint">
          Leaving revokes the API tokens you created here and the MCP connections that act for it. The last owner cannot
          leave: make someone else an owner first.
        </p>
        <button
          type="button"
          className="danger"
          disabled={leave.isPending}
          onClick={() => {
            if (window.confirm("Leave this organization? Your tokens in it and your MCP connections are revoked."))
              leave.mutate();
          }}
        >
          Leave the organization
        </button>
        <ProblemAlert errors={[leave.error]} />
      </section>
    </>
  );
}
