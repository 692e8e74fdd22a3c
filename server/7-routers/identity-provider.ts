/**
 * The active organization's identity provider, for its owners (docs/enterprise.md, `sso.manage`):
 * the issuer and the dashboard's client at it, the e-mail domains it speaks for (each proved by a
 * DNS TXT record), the role people join with and whether they must sign in through it. The same
 * storage as `ops org idp` (server/4-identity/identity-providers.ts); the client secret goes in,
 * sealed, and never comes out. Each change is audited.
 */
import { z } from "zod";
import { JWT_BEARER_GRANT, normaliseDomain, publicKeySet } from "../1-domain/identity-providers";
import { conflict, invalidRequest, notFound } from "../1-errors/api-error";
import { mcpResource, OAUTH_PREFIX } from "../2-http/protected-resource";
import {
  claimDomain,
  type DomainProof,
  IdentityProviderError,
  identityLinksOf,
  identityProviderClientSecret,
  identityProviderOf,
  idpPrivateHostsAllowed,
  markDomainVerified,
  normaliseIssuer,
  proveDomain,
  releaseDomain,
  removeIdentityProvider,
  setIdentityProvider,
} from "../4-identity/identity-providers";
import { unlinkedUnderRequiredSso } from "../4-identity/sso";
import { ssoRedirectUri } from "../6-auth/sso";
import { createRouter, permittedProcedure } from "../7-procedures/trpc";

const ssoProcedure = permittedProcedure("sso.manage");

/** The stable names of what the page does (its audit trail's actions). */
export const IDENTITY_PROVIDER_ACTIONS = {
  set: "identity_provider.set",
  remove: "identity_provider.remove",
  verify: "domain.verify",
} as const;

const VERIFY_INPUT = z.object({ domain: z.string().min(1).max(253) });

function domainOf(raw: string): string {
  const found = normaliseDomain(raw);
  if ("problem" in found)
    throw invalidRequest(`The domain ${found.problem}.`, [{ path: "domains", message: found.problem }]);
  return found.domain;
}

const refused = (error: unknown): never => {
  if (error instanceof IdentityProviderError) throw conflict(error.message);
  throw error;
};

export const identityProviderRouter = createRouter({
  /** The IdP (no secret: only whether one is stored), each domain's TXT record, and the redirect URI to register. */
  show: ssoProcedure.query(async ({ ctx }) => ({
    provider: await identityProviderOf(ctx.db, ctx.organization.id),
    redirectUri: ssoRedirectUri(ctx.origin),
    // What the IdP needs to mint ID-JAGs for this service (docs/enterprise-mcp.md), and who counts.
    mcp: {
      audience: ctx.origin,
      tokenEndpoint: `${ctx.origin}${OAUTH_PREFIX}/token`,
      resource: mcpResource(ctx.origin),
      grantType: JWT_BEARER_GRANT,
    },
    links: await identityLinksOf(ctx.db, ctx.organization.id),
  })),

  // identity_provider.set (the keys ID-JAGs are verified with)
  setKeys: ssoProcedure
    .meta({
      audit: {
        action: IDENTITY_PROVIDER_ACTIONS.set,
        target: (_: unknown, out: { issuer: string }) => ({ type: "identity_provider", id: out.issuer }),
        details: (_: unknown, out: { inlineKeys: number }) => ({ inlineKeys: out.inlineKeys }),
      },
    })
    .input(
      z.object({
        /** A JSON Web Key Set of public keys; null: the keys the issuer's discovery document names. */
        jwks: z.string().max(65_536).nullable(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const before = await identityProviderOf(ctx.db, ctx.organization.id);
      if (!before) throw notFound("This organization has no identity provider: set it first.");
      let jwks: { keys: Record<string, unknown>[] } | null = null;
      if (input.jwks !== null && input.jwks.trim() !== "") {
        let parsed: unknown;
        try {
          parsed = JSON.parse(input.jwks);
        } catch {
          throw invalidRequest("The key set is not JSON.", [{ path: "jwks", message: "not JSON" }]);
        }
        const found = publicKeySet(parsed);
        if ("problem" in found)
          throw invalidRequest(`The key set: ${found.problem}.`, [{ path: "jwks", message: found.problem }]);
        jwks = found.jwks;
      }
      await setIdentityProvider(ctx.db, {
        organizationId: ctx.organization.id,
        issuer: before.issuer,
        clientId: before.clientId,
        clientSecret: before.clientId ? await identityProviderClientSecret(ctx.db, ctx.organization.id) : null,
        jwks,
        defaultRole: before.defaultRole === "owner" ? "member" : before.defaultRole,
        requireSso: before.requireSso,
      }).catch(refused);
      return { action: IDENTITY_PROVIDER_ACTIONS.set, issuer: before.issuer, inlineKeys: jwks?.keys.length ?? 0 };
    }),

  // identity_provider.set
  set: ssoProcedure
    .meta({
      audit: {
        action: IDENTITY_PROVIDER_ACTIONS.set,
        target: (_: unknown, out: { issuer: string }) => ({ type: "identity_provider", id: out.issuer }),
        details: (
          _: unknown,
          out: {
            issuer: string;
            domains: string[];
            released: string[];
            clientId: string | null;
            defaultRole: string;
            requireSso: boolean;
            droppedLinks: number;
          },
        ) => ({
          issuer: out.issuer,
          domains: out.domains,
          released: out.released,
          clientId: out.clientId,
          defaultRole: out.defaultRole,
          requireSso: out.requireSso,
          droppedLinks: out.droppedLinks,
        }),
      },
    })
    .input(
      z.object({
        issuer: z.string().min(1).max(2048),
        clientId: z.string().max(512).nullable(),
        /** Empty or null with the same client id: the stored secret is kept. */
        clientSecret: z.string().max(2048).nullable(),
        domains: z.array(z.string().min(1).max(253)).min(1).max(20),
        defaultRole: z.enum(["admin", "member", "billing"]),
        requireSso: z.boolean(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const organizationId = ctx.organization.id;
      const issuer = normaliseIssuer(input.issuer, idpPrivateHostsAllowed());
      if ("problem" in issuer)
        throw invalidRequest(`The issuer: ${issuer.problem}.`, [{ path: "issuer", message: issuer.problem }]);
      const domains = [...new Set(input.domains.map(domainOf))];
      const before = await identityProviderOf(ctx.db, organizationId);
      const clientId = input.clientId?.trim() || null;
      let clientSecret = input.clientSecret || null;
      // The stored secret is kept for the same client at the same IdP only: sent to another
      // issuer's token endpoint, it would be shown to whoever runs that one.
      const sameIdp = before?.issuer === issuer.issuer;
      if (clientId !== null && clientSecret === null && sameIdp && before?.clientId === clientId)
        clientSecret = await identityProviderClientSecret(ctx.db, organizationId);
      if ((clientId === null) !== (clientSecret === null))
        throw invalidRequest("Give the client id and its secret together, or neither.", [
          { path: "clientSecret", message: "required with a client id" },
        ]);
      const { droppedLinks } = await setIdentityProvider(ctx.db, {
        organizationId,
        issuer: issuer.issuer,
        clientId,
        clientSecret,
        jwks: sameIdp ? (before?.jwks ?? null) : null,
        defaultRole: input.defaultRole,
        requireSso: input.requireSso,
      }).catch(refused);
      for (const domain of domains) await claimDomain(ctx.db, organizationId, domain).catch(refused);
      const released = (before?.domains ?? []).map((d) => d.domain).filter((d) => !domains.includes(d));
      for (const domain of released) await releaseDomain(ctx.db, organizationId, domain);
      // Required, SSO ends every session made without it: the owner's own first, and if the IdP
      // then fails them they are locked out. So they prove it works for them before requiring it.
      if (input.requireSso && (await unlinkedUnderRequiredSso(ctx.db, ctx.userId)) === organizationId)
        throw conflict(
          "Sign in through your identity provider once before requiring it: requiring it ends every session made without it, yours too.",
        );
      return {
        action: IDENTITY_PROVIDER_ACTIONS.set,
        issuer: issuer.issuer,
        domains,
        released,
        clientId,
        defaultRole: input.defaultRole,
        requireSso: input.requireSso,
        /** People linked to the old issuer's subjects: unlinked, as a new IdP's subjects are others. */
        droppedLinks,
      };
    }),

  // domain.verify
  verify: ssoProcedure
    .meta({
      audit: {
        action: IDENTITY_PROVIDER_ACTIONS.verify,
        target: (_: unknown, out: { domain: string }) => ({ type: "domain", id: out.domain }),
        details: (_: unknown, out: { domain: string }) => ({ domain: out.domain }),
        // The TXT lookup waits on DNS (seconds, when a server is slow): before the transaction.
        prepare: async (raw, { db, organizationId }) => {
          const parsed = VERIFY_INPUT.safeParse(raw);
          if (!parsed.success || !organizationId) return null; // the parser answers for it
          return proveDomain(db, organizationId, domainOf(parsed.data.domain));
        },
      },
    })
    .input(VERIFY_INPUT)
    .mutation(async ({ ctx, input }) => {
      const domain = domainOf(input.domain);
      const proof = ctx.prepared as DomainProof | null;
      const outcome = await markDomainVerified(
        ctx.db,
        ctx.organization.id,
        proof ?? { proved: false, reason: `${domain} was not looked up` },
      );
      if (!outcome.verified)
        throw invalidRequest(`Not verified: ${outcome.reason}.`, [{ path: "domain", message: outcome.reason }]);
      return { action: IDENTITY_PROVIDER_ACTIONS.verify, domain, verifiedAt: outcome.claim.verifiedAt };
    }),

  // identity_provider.remove
  remove: ssoProcedure
    .meta({
      audit: {
        action: IDENTITY_PROVIDER_ACTIONS.remove,
        target: (_: unknown, out: { issuer: string }) => ({ type: "identity_provider", id: out.issuer }),
      },
    })
    .mutation(async ({ ctx }) => {
      const before = await identityProviderOf(ctx.db, ctx.organization.id);
      if (!before || !(await removeIdentityProvider(ctx.db, ctx.organization.id)))
        throw notFound("This organization has no identity provider.");
      return { action: IDENTITY_PROVIDER_ACTIONS.remove, issuer: before.issuer };
    }),
});
