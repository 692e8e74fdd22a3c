/**
 * `ops org idp set|show|remove|verify`: an organization's identity provider from the command line
 * (docs/enterprise.md). `set` claims each --domain and prints the TXT record that proves it;
 * `verify` looks the record up through the service's resolver. Each change is audited as the operator.
 */
import { readFile } from "node:fs/promises";
import { normaliseDomain, publicKeySet } from "../1-domain/identity-providers";
import { isRole, type Role } from "../1-domain/roles";
import {
  claimDomain,
  IdentityProviderError,
  identityProviderOf,
  idpPrivateHostsAllowed,
  markDomainVerified,
  normaliseIssuer,
  proveDomain,
  removeIdentityProvider,
  setIdentityProvider,
} from "../4-identity/identity-providers";
import { requireOrganization } from "../4-organizations/organizations";
import { LINK_USAGE, linkCommand } from "./identity-links";
import { type CliContext, parse, requiredOption, UsageError, withDatabase } from "./io";
import { audited } from "./operator-audit";

export const IDP_USAGE = `  idp set --org ORG_ID --issuer URL --domain D… [--jwks FILE] [--client-id ID --client-secret S]
          [--default-role admin|member|billing] [--require-sso]
                                          set the organization's identity provider (OpenID Connect
                                          sign-in, ID-JAGs for MCP); prints each domain's TXT record
  idp verify --org ORG_ID --domain D      check a domain's TXT record; the domain counts once verified
  idp show --org ORG_ID                   the identity provider, its domains and their state
  idp remove --org ORG_ID                 remove it (people sign in with e-mail links again)
${LINK_USAGE}`;

function domainOption(raw: string): string {
  const found = normaliseDomain(raw);
  if ("problem" in found) throw new UsageError(`--domain: ${found.problem}`);
  return found.domain;
}

async function jwksOption(file: string | undefined) {
  if (file === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new UsageError(`--jwks ${file}: ${(error as Error).message}`);
  }
  const found = publicKeySet(parsed);
  if ("problem" in found) throw new UsageError(`--jwks ${file}: ${found.problem}`);
  return found.jwks;
}

export async function idpCommand(args: string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === "set") return await set(rest, ctx);
    if (command === "verify") return await verify(rest, ctx);
    if (command === "show") return await show(rest, ctx);
    if (command === "remove") return await remove(rest, ctx);
    if (command === "link" || command === "unlink") return await linkCommand(command, rest, ctx);
  } catch (error) {
    if (error instanceof IdentityProviderError) {
      ctx.io.err(`error: ${error.message}`);
      return 1;
    }
    throw error;
  }
  throw new UsageError(command ? `unknown command "org idp ${command}"` : "missing command");
}

async function set(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parse(
    args,
    {
      org: { type: "string" },
      issuer: { type: "string" },
      domain: { type: "string", multiple: true },
      jwks: { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      "default-role": { type: "string" },
      "require-sso": { type: "boolean" },
    },
    0,
  );
  const organizationId = requiredOption("org", values.org);
  const issuer = normaliseIssuer(requiredOption("issuer", values.issuer), idpPrivateHostsAllowed());
  if ("problem" in issuer) throw new UsageError(`--issuer: ${issuer.problem}`);
  const domains = (values.domain ?? []).map(domainOption);
  if (domains.length === 0) throw new UsageError("--domain is required (the e-mail domains the IdP speaks for)");
  const clientId = values["client-id"]?.trim() || null;
  const clientSecret = values["client-secret"] || null;
  if ((clientId === null) !== (clientSecret === null))
    throw new UsageError("--client-id and --client-secret go together");
  const defaultRole = (values["default-role"] ?? "member") as Role;
  if (!isRole(defaultRole) || defaultRole === "owner")
    throw new UsageError(`--default-role must be admin, member or billing, not "${defaultRole}"`);
  const jwks = await jwksOption(values.jwks);
  return withDatabase(ctx, async ({ db }) => {
    await requireOrganization(db, organizationId);
    const { claims, droppedLinks } = await audited(
      db,
      async (tx) => {
        const { droppedLinks } = await setIdentityProvider(tx, {
          organizationId,
          issuer: issuer.issuer,
          clientId,
          clientSecret,
          jwks,
          defaultRole,
          requireSso: values["require-sso"] === true,
        });
        const made = [];
        for (const domain of domains) made.push(await claimDomain(tx, organizationId, domain));
        return { claims: made, droppedLinks };
      },
      (result) => ({
        organizationId,
        action: "identity_provider.set",
        targetType: "identity_provider",
        targetId: issuer.issuer,
        details: {
          issuer: issuer.issuer,
          domains,
          clientId,
          inlineKeys: jwks?.keys.length ?? 0,
          defaultRole,
          droppedLinks: result.droppedLinks,
        },
      }),
    );
    ctx.io.out(`identity provider of ${organizationId}: ${issuer.issuer}`);
    if (droppedLinks > 0)
      ctx.io.out(
        `${droppedLinks} link(s) to the previous issuer's subjects dropped: people sign in again through the new one`,
      );
    for (const claim of claims)
      ctx.io.out(
        claim.verifiedAt
          ? `${claim.domain}: verified`
          : `${claim.domain}: publish TXT ${claim.recordName} "${claim.recordValue}", then run: ops org idp verify --org ${organizationId} --domain ${claim.domain}`,
      );
    return 0;
  });
}

/** A claim the lookup did not prove, or that changed since: rolls the verification back. */
class NotVerified extends Error {}

async function verify(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parse(args, { org: { type: "string" }, domain: { type: "string" } }, 0);
  const organizationId = requiredOption("org", values.org);
  const domain = domainOption(requiredOption("domain", values.domain));
  return withDatabase(ctx, async ({ db }) => {
    await requireOrganization(db, organizationId);
    // The lookup waits on DNS: outside the transaction that marks the claim and records it.
    const proof = await proveDomain(db, organizationId, domain);
    const outcome = await audited(
      db,
      async (tx) => {
        const marked = await markDomainVerified(tx, organizationId, proof);
        if (!marked.verified) throw new NotVerified(marked.reason); // nothing marked, nothing recorded
        return marked;
      },
      () => ({ organizationId, action: "domain.verify", targetType: "domain", targetId: domain, details: { domain } }),
    ).catch((error: unknown) => {
      if (error instanceof NotVerified) return error;
      throw error;
    });
    if (outcome instanceof NotVerified) {
      ctx.io.err(`error: ${outcome.message}`);
      return 1;
    }
    ctx.io.out(`${domain}: verified for ${organizationId}`);
    return 0;
  });
}

async function show(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parse(args, { org: { type: "string" } }, 0);
  const organizationId = requiredOption("org", values.org);
  return withDatabase(ctx, async ({ db }) => {
    await requireOrganization(db, organizationId);
    const idp = await identityProviderOf(db, organizationId);
    if (!idp) {
      ctx.io.out(`${organizationId} has no identity provider`);
      return 0;
    }
    ctx.io.out(`issuer        ${idp.issuer}`);
    ctx.io.out(`client id     ${idp.clientId ?? "(none: no dashboard sign-in)"}`);
    ctx.io.out(`client secret ${idp.hasClientSecret ? "(stored, sealed)" : "(none)"}`);
    ctx.io.out(`keys          ${idp.jwks ? `${idp.jwks.keys.length} inline` : "the issuer's jwks_uri"}`);
    ctx.io.out(`default role  ${idp.defaultRole}`);
    ctx.io.out(`require SSO   ${idp.requireSso ? "yes" : "no"}`);
    for (const claim of idp.domains)
      ctx.io.out(
        `domain        ${claim.domain}  ${claim.verifiedAt ? `verified ${claim.verifiedAt.toISOString()}` : `unverified: TXT ${claim.recordName} "${claim.recordValue}"`}`,
      );
    return 0;
  });
}

async function remove(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parse(args, { org: { type: "string" } }, 0);
  const organizationId = requiredOption("org", values.org);
  return withDatabase(ctx, async ({ db }) => {
    await requireOrganization(db, organizationId);
    const removed = await audited(
      db,
      (tx) => removeIdentityProvider(tx, organizationId),
      () => ({ organizationId, action: "identity_provider.remove", targetType: "identity_provider", details: {} }),
    );
    ctx.io.out(
      removed ? `removed the identity provider of ${organizationId}` : `${organizationId} had no identity provider`,
    );
    return 0;
  });
}
