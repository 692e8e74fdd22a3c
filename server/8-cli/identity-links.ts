/**
 * `ops org idp link|unlink`: which member an IdP subject (`sub`) is, set by the operator for an
 * organization whose MCP clients come in with ID-JAGs but whose people have not signed in to the
 * dashboard through the IdP (single sign-on makes the same link by itself). Only a member may be
 * linked; a link counts only while they stay one. Audited as the operator.
 */
import { identityProviderOf, linkIdentity, unlinkIdentity } from "../4-identity/identity-providers";
import { MemberError, personByEmail, roleOf } from "../4-organizations/members";
import { requireOrganization } from "../4-organizations/organizations";
import { type CliContext, parse, requiredOption, UsageError, withDatabase } from "./io";
import { audited } from "./operator-audit";

export const LINK_USAGE = `  idp link --org ORG_ID --email E --subject SUB
                                          the IdP's subject SUB is this member (for ID-JAGs; SSO
                                          sign-in links people by itself)
  idp unlink --org ORG_ID --email E       forget the member's subject: their ID-JAGs are refused`;

/** The longest subject kept (OpenID Connect: at most 255 ASCII characters). */
const SUBJECT_MAX = 255;

export async function linkCommand(command: "link" | "unlink", args: string[], ctx: CliContext): Promise<number> {
  const { values } = parse(
    args,
    { org: { type: "string" }, email: { type: "string" }, subject: { type: "string" } },
    0,
  );
  const organizationId = requiredOption("org", values.org);
  const email = requiredOption("email", values.email);
  const subject = command === "link" ? requiredOption("subject", values.subject) : null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (subject !== null && (subject.length > SUBJECT_MAX || /[\u0000-\u001f\u007f]/.test(subject)))
    throw new UsageError(`--subject must be at most ${SUBJECT_MAX} characters, without control characters`);
  return withDatabase(ctx, async ({ db }) => {
    await requireOrganization(db, organizationId);
    if (!(await identityProviderOf(db, organizationId))) {
      ctx.io.err(`error: ${organizationId} has no identity provider (ops org idp set)`);
      return 1;
    }
    let person: { id: string; email: string };
    try {
      person = await personByEmail(db, email);
    } catch (error) {
      if (!(error instanceof MemberError)) throw error;
      ctx.io.err(`error: ${error.message}`);
      return 1;
    }
    if (!(await roleOf(db, organizationId, person.id))) {
      ctx.io.err(`error: ${person.email} is not a member of ${organizationId}`);
      return 1;
    }
    const target = { targetType: "user", targetId: person.id };
    if (subject !== null) {
      await audited(
        db,
        (tx) => linkIdentity(tx, { organizationId, subject, userId: person.id, refreshToken: null }),
        () => ({ organizationId, action: "identity.link", ...target, details: { email: person.email, subject } }),
      );
      ctx.io.out(`${person.email} in ${organizationId} is the IdP's subject ${JSON.stringify(subject)}`);
    } else {
      const removed = await audited(
        db,
        (tx) => unlinkIdentity(tx, organizationId, person.id),
        () => ({ organizationId, action: "identity.unlink", ...target, details: { email: person.email } }),
      );
      ctx.io.out(removed ? `${person.email} is no longer linked to an IdP subject` : `${person.email} was not linked`);
    }
    return 0;
  });
}
