/**
 * Who in an organization may do what: the one table of roles and their powers
 * (docs/accounts.md, "Roles"). Pure: the tRPC middleware (server/7-procedures/trpc.ts) enforces it,
 * the members page reads it to show or hide controls, the operator CLI checks role names with it.
 */

export const ROLES = ["owner", "admin", "member", "billing"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  /** Read the catalogue's markets and readings in the dashboard. */
  "markets.read",
  /** See who belongs and the pending invitations. */
  "members.read",
  /** Invite, change roles below owner, remove members, resend and revoke invitations. */
  "members.manage",
  /** See, create and revoke every API token of the organization. */
  "tokens.manage_all",
  /** Create API tokens and revoke the ones one created oneself. */
  "tokens.own",
  /** Webhook endpoints: create, change, rotate, delete, resend, test. */
  "webhooks.manage",
  /** Revoke any member's MCP connection to the organization. */
  "connections.manage_all",
  /** Connect and revoke one's own MCP clients. */
  "connections.own",
  /** The balance, ledger and usage. */
  "credits.read",
  /** Credits settings: the low-balance threshold, buying packs, automatic top-up, the card. */
  "credits.manage",
  /** Lower the organization's monthly purchase cap below the operator's (owners only). */
  "credits.cap",
  /** The organization's settings (name, home country). */
  "organization.settings",
  /** Delete the organization. */
  "organization.delete",
  /** Hand ownership to another member; make or unmake owners. */
  "ownership.transfer",
  /** Read the audit trail in the dashboard (over the API any token of the organization reads it). */
  "audit.read",
  /** Make embeds of readings (each paid for per release it shows), list and revoke them. */
  "embeds.manage",
  /** The organization's identity provider: dashboard sign-in through it, its domains (owners only). */
  "sso.manage",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const everything: readonly Permission[] = PERMISSIONS;

/** The table. Owners hold everything; the others exactly what is listed. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: everything,
  admin: [
    "markets.read",
    "members.read",
    "members.manage",
    "tokens.manage_all",
    "tokens.own",
    "webhooks.manage",
    "connections.manage_all",
    "connections.own",
    "credits.read",
    "organization.settings",
    "audit.read",
    "embeds.manage",
  ],
  member: ["markets.read", "members.read", "tokens.own", "connections.own", "embeds.manage"],
  billing: ["markets.read", "members.read", "credits.read", "credits.manage"],
};

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

export const can = (role: Role, permission: Permission): boolean => ROLE_PERMISSIONS[role].includes(permission);

/** The roles holding a permission (for a check written in SQL). */
export const rolesThatMay = (permission: Permission): Role[] => ROLES.filter((role) => can(role, permission));

/** Every permission of a role, for a page deciding which controls to show. */
export const permissionsOf = (role: Role): Permission[] => [...ROLE_PERMISSIONS[role]];

/**
 * Whether `actor` may give `target` role (or take it away): only those who may transfer
 * ownership touch owners; managers of members handle the rest.
 */
export function mayAssign(actor: Role, from: Role | null, to: Role): boolean {
  if (!can(actor, "members.manage")) return false;
  if (from === "owner" || to === "owner") return can(actor, "ownership.transfer");
  return true;
}

/**
 * Why a person of this role may not connect an MCP client to the organization — words to follow
 * "Your " or "the person's " — or null when they may (or have no role: a connection made before
 * any organization acts for none yet). Asked at
 * each door a connection comes through — the consent page, its decision, an identity assertion
 * (ID-JAG) — and at each call a connection makes, so a demotion stops it too.
 */
export function connectionRefusal(role: Role | null | undefined): string | null {
  if (!role || can(role, "connections.own")) return null;
  return `role in this organization (${role}) may not connect MCP clients: it needs connections.own`;
}

/** What a person reads next to each role on the members page and in the invitation mail. */
export const ROLE_DESCRIPTIONS: Readonly<Record<Role, string>> = {
  owner: "Everything, including transferring ownership and deleting the organization",
  admin: "Members, tokens, webhooks, MCP connections and settings",
  member: "Reads markets; creates and revokes their own tokens and MCP connections",
  billing: "Credits, usage and the low-balance warning",
};

/**
 * The stable action names of the team's dashboard changes, for the audit trail to record
 * (each mutation in server/7-routers/members.ts names its own).
 */
export const TEAM_AUDIT_ACTIONS = [
  "member.invite",
  "member.role_change",
  "member.remove",
  "member.leave",
  "ownership.transfer",
  "invitation.revoke",
  "invitation.resend",
  "invitation.accept",
] as const;
export type TeamAuditAction = (typeof TEAM_AUDIT_ACTIONS)[number];
