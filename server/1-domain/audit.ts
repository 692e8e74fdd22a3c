/**
 * The audit trail's vocabulary (docs/accounts.md, "Audit trail"): every action it records, by a
 * stable dotted name that never changes once written, who may act, and who may read it. Pure.
 */
import { rolesThatMay } from "./roles";

/** Every action the trail records. A name is part of the API (`GET /v1/audit-events`): add, never rename. */
export const AUDIT_ACTIONS = [
  "organization.create",
  "organization.settings_change",
  "organization.delete",
  "token.create",
  "token.revoke",
  "webhook.create",
  "webhook.update",
  "webhook.delete",
  "webhook.rotate_secret",
  "connection.create",
  "connection.revoke",
  "embed.create",
  "embed.revoke",
  "credits.grant",
  "credits.adjust",
  // Credit packs bought by card (docs/billing.md): a checkout begun, a payment granted, taken back.
  "credits.checkout",
  "credits.purchase",
  "credits.refund",
  "credits.dispute",
  "credits.cap_change",
  // Automatic top-up (docs/billing.md): a card saving begun and saved, the settings changed, a failure.
  "credits.card_setup",
  "credits.card_saved",
  "credits.card_removed",
  "credits.top_up_changed",
  "credits.top_up_failed",
  // Membership and roles (the teams work wires these; declared here so the vocabulary is one list).
  "member.invite",
  "member.add",
  "member.role_change",
  "member.remove",
  "member.leave",
  "ownership.transfer",
  "invitation.revoke",
  "invitation.resend",
  "invitation.accept",
  // Enterprise sign-in (docs/enterprise.md).
  "identity_provider.set",
  "identity_provider.remove",
  "domain.claim",
  "domain.verify",
  "domain.release",
  "identity.link",
  "identity.unlink",
  // Dashboard sign-in through the organization's IdP: joined on first sign-in, removed when the IdP says gone.
  "member.sso_join",
  "member.sso_deprovision",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const isAuditAction = (value: string): value is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(value);

/** Who acted: a signed-in person, an API token (or OAuth grant), the operator CLI, or the service itself. */
export const AUDIT_ACTOR_KINDS = ["user", "token", "operator", "system"] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** What an actor filter may be: a user, token or grant id (never text the database would refuse). */
export const AUDIT_ACTOR_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The membership roles that may read the trail in the dashboard: those the roles table lets (audit.read). */
export const AUDIT_READER_ROLES: readonly string[] = rolesThatMay("audit.read");

/** Longest client address and user agent kept (longer ones are cut): hostile input stays bounded. */
export const AUDIT_ADDRESS_MAX = 100;
export const AUDIT_USER_AGENT_MAX = 512;
export const AUDIT_LABEL_MAX = 320;

/** Text on one line: every control character (CR, LF, tab, escape, …) a space. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
export const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f]/g, " ");

/** Text as the trail keeps it: control characters out, at most `max` characters; empty is null. */
export function auditText(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
  const clean = oneLine(value).trim();
  return clean === "" ? null : clean.slice(0, max);
}

/** What the trail records of one change (the actor and the place are added by who writes it). */
export interface AuditChange {
  action: AuditAction;
  targetType?: string | null;
  targetId?: string | null;
  /** What changed; never a secret. */
  details?: Record<string, unknown>;
}

/** Who acted and from where. */
export interface AuditActor {
  kind: AuditActorKind;
  userId?: string | null;
  tokenId?: string | null;
  label?: string | null;
  clientAddress?: string | null;
  userAgent?: string | null;
}
