"use client";
/**
 * The organization's people: name, address, role, joined. For those who manage members, each row
 * changes the role, removes the person, or (for owners) hands them ownership, a secondary button:
 * rarely wanted, never the row's main action. Each change is confirmed first, and what was done is
 * said after (members-manager.tsx). Others see the same table without controls.
 */
import { type FormEvent, useState } from "react";
import { TableWrap } from "@/components/ui/table-wrap";
import { mayAssign, type Permission, ROLE_DESCRIPTIONS, type Role } from "@/server/1-domain/roles";
import { utcDay } from "../format";

export interface MemberRow {
  userId: string;
  email: string | null;
  name: string | null;
  role: Role;
  joinedAt: string | Date;
}

export interface MemberActions {
  changeRole: (member: MemberRow, role: Role) => void;
  remove: (member: MemberRow) => void;
  transfer: (member: MemberRow) => void;
  busy: boolean;
}

/** A member as the page names them: their name, else their address, else their id. */
export const who = (member: MemberRow) => member.name ?? member.email ?? member.userId;

function RoleForm({ member, roles, actions }: { member: MemberRow; roles: readonly Role[]; actions: MemberActions }) {
  const [role, setRole] = useState<Role>(member.role);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (role === member.role) return;
    if (window.confirm(`Make ${who(member)} ${role}? ${ROLE_DESCRIPTIONS[role]}.`)) actions.changeRole(member, role);
  };
  return (
    <form onSubmit={submit} className="inline-form">
      <label>
        <span className="sr-only">Role of {who(member)}</span>
        <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {roles.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={actions.busy || role === member.role}>
        Change role<span className="sr-only"> of {who(member)}</span>
      </button>
    </form>
  );
}

export function MemberTable({
  members,
  me,
  roles,
  actions,
}: {
  members: readonly MemberRow[];
  me: { userId: string; role: Role; permissions: readonly Permission[] };
  roles: readonly Role[];
  actions: MemberActions;
}) {
  const manages = me.permissions.includes("members.manage");
  const transfers = me.permissions.includes("ownership.transfer");
  return (
    <TableWrap label="Members">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Joined</th>
            {manages ? (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => {
            const self = member.userId === me.userId;
            // Only what the roles table lets this person do to this member is offered.
            const handles = manages && !self && mayAssign(me.role, member.role, member.role);
            const assignable = roles.filter((r) => mayAssign(me.role, member.role, r));
            return (
              <tr key={member.userId} data-testid="member-row" data-user-id={member.userId}>
                <td data-label="Name">
                  {member.name ?? "—"}
                  {self ? " (you)" : ""}
                </td>
                <td data-label="E-mail">{member.email ?? "—"}</td>
                <td data-label="Role">
                  {handles ? <RoleForm member={member} roles={assignable} actions={actions} /> : member.role}
                </td>
                <td data-label="Joined">
                  <time dateTime={new Date(member.joinedAt).toISOString()}>{utcDay(member.joinedAt)}</time>
                </td>
                {manages ? (
                  <td>
                    {handles ? (
                      <button
                        type="button"
                        className="danger"
                        disabled={actions.busy}
                        onClick={() => {
                          if (
                            window.confirm(
                              `Remove ${who(member)} from the organization? Their API tokens and MCP connections are revoked at once.`,
                            )
                          )
                            actions.remove(member);
                        }}
                      >
                        Remove<span className="sr-only"> {who(member)}</span>
                      </button>
                    ) : null}{" "}
                    {transfers && !self && member.role !== "owner" ? (
                      <button
                        type="button"
                        className="secondary small"
                        disabled={actions.busy}
                        onClick={() => {
                          if (
                            window.confirm(
                              `Transfer ownership to ${who(member)}? They become an owner and you become an admin.`,
                            )
                          )
                            actions.transfer(member);
                        }}
                      >
                        Transfer ownership<span className="sr-only"> to {who(member)}</span>
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}
