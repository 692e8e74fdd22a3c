/**
 * `ops org member add|role|remove`: the operator's hand on who belongs to an organization. The
 * same rules as the dashboard's (server/4-organizations/members.ts): an organization keeps its last
 * owner, and removing someone revokes their tokens and MCP connections with it. Each change is
 * recorded in the audit trail as the operator, in its own transaction.
 */

import { isRole, ROLES, type Role } from "../1-domain/roles";
import { addMember, changeRole, MemberError, personByEmail, removeMember } from "../4-organizations/members";
import { OrganizationError, requireOrganization } from "../4-organizations/organizations";
import { type CliContext, parse, requiredOption, UsageError, withDatabase } from "./io";
import { audited } from "./operator-audit";

export const MEMBER_USAGE = `  member add --org ORG_ID --email E --role ${ROLES.join("|")}
                                          add a person (created if they never signed in)
  member role --org ORG_ID --email E --role ROLE   change a member's role
  member remove --org ORG_ID --email E    remove a member; revokes their tokens and MCP connections`;

function roleOption(value: string | undefined): Role {
  const role = requiredOption("role", value);
  if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(", ")}, not "${role}"`);
  return role;
}

export async function memberCommand(args: string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = args;
  if (command !== "add" && command !== "role" && command !== "remove")
    throw new UsageError(command ? `unknown command "org member ${command}"` : "missing command");
  const { values } = parse(rest, { org: { type: "string" }, email: { type: "string" }, role: { type: "string" } }, 0);
  const organizationId = requiredOption("org", values.org);
  const email = requiredOption("email", values.email);
  const role = command === "remove" ? null : roleOption(values.role);
  return withDatabase(ctx, async ({ db }) => {
    await requireOrganization(db, organizationId);
    const person = await personByEmail(db, email, { create: command === "add" });
    const target = { targetType: "user", targetId: person.id };
    if (command === "add") {
      await audited(
        db,
        (tx) => addMember(tx, { organizationId, userId: person.id, role: role as Role }),
        () => ({ organizationId, action: "member.add", ...target, details: { email: person.email, role } }),
      );
      ctx.io.out(`${person.created ? "created and added" : "added"} ${person.email} to ${organizationId} as ${role}`);
    } else if (command === "role") {
      const changed = await audited(
        db,
        (tx) => changeRole(tx, { organizationId, userId: person.id, role: role as Role }),
        (out) => ({ organizationId, action: "member.role_change", ...target, details: { ...out, to: role } }),
      );
      ctx.io.out(
        `${person.email} in ${organizationId}: ${changed.from} → ${role}; revoked ${changed.revokedInvitations} open invitation(s) they sent that the role may not send`,
      );
    } else {
      const removed = await audited(
        db,
        (tx) => removeMember(tx, { organizationId, userId: person.id }),
        (out) => ({ organizationId, action: "member.remove", ...target, details: { ...out } }),
      );
      ctx.io.out(
        `removed ${person.email} from ${organizationId}; revoked ${removed.revokedTokens} token(s), ${removed.revokedConnections} MCP connection(s) and ${removed.revokedInvitations} open invitation(s) they sent`,
      );
    }
    ctx.io.out(person.id);
    return 0;
  });
}

export const isMemberRefusal = (error: unknown): error is Error =>
  error instanceof MemberError || error instanceof OrganizationError;
