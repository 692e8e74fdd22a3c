/**
 * The invitation mail. Organization and inviter names are whatever people typed: in the text part
 * they are plain text, in the HTML part escaped, and the subject names neither (a header carries
 * no one's markup or line breaks).
 */
import { ROLE_DESCRIPTIONS, type Role } from "../1-domain/roles";
import { escapeHtml } from "../2-http/html";
import { INVITATIONS_PATH } from "../2-http/paths";
import type { Mail } from "./mail";

export interface InvitationMailInput {
  /** The app's public origin (server/2-http/origin.ts), never a request's Host. */
  origin: string;
  to: string;
  token: string;
  organizationName: string;
  inviterName: string | null;
  role: Role;
  expiresAt: Date;
}

export const invitationUrl = (origin: string, token: string) => `${origin}${INVITATIONS_PATH}/${token}`;

export function invitationMail(input: InvitationMailInput): Mail {
  const url = invitationUrl(input.origin, input.token);
  const who = input.inviterName ?? "Someone";
  const until = input.expiresAt.toISOString().slice(0, 10);
  const text = [
    `${who} invited you to join the organization "${input.organizationName}" on Market Positioning as ${input.role} (${ROLE_DESCRIPTIONS[input.role].toLowerCase()}).`,
    "",
    `Accept the invitation with this link (it works once, until ${until}; sign in with ${input.to}):`,
    "",
    url,
    "",
    "If you did not expect it, ignore this mail.",
  ].join("\n");
  const html = [
    `<p>${escapeHtml(who)} invited you to join the organization <strong>${escapeHtml(input.organizationName)}</strong> on Market Positioning as <strong>${input.role}</strong> (${escapeHtml(ROLE_DESCRIPTIONS[input.role].toLowerCase())}).</p>`,
    `<p><a href="${escapeHtml(url)}">Accept the invitation</a> — the link works once, until ${until}; sign in with ${escapeHtml(input.to)}.</p>`,
    "<p>If you did not expect it, ignore this mail.</p>",
  ].join("\n");
  return { to: input.to, subject: "You are invited to an organization on Market Positioning", text, html, url };
}
