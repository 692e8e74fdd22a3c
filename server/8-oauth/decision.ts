/**
 * The end of the consent page, inside the provider: the app has already checked the dashboard
 * session, the person's role and the form's origin, and forwards the person's decision (and the
 * organization it checked) with the internal secret.
 * Allow: a grant of exactly what the client asked for (on /mcp, never more), and the dashboard
 * user as the signed-in account. Deny: access_denied back to the client.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";
import type { Database } from "../../db/client";
import { clientAddress } from "../2-http/client-address";
import { OAUTH_PREFIX, OIDC_SCOPES, RESOURCE_SCOPES } from "../2-http/protected-resource";
import { createConnection } from "./connection";

export const INTERNAL_SECRET_HEADER = "x-mps-internal-secret";
const DECISION_PATH = new RegExp(`^${OAUTH_PREFIX}/interaction/([^/]+)/decision$`);

export interface Decision {
  accountId: string;
  allow: boolean;
  /** The organization the app checked the person may connect for (their active one); null: none yet. */
  organizationId: string | null;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

const sameSecret = (given: string, expected: string) =>
  given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));

/** The scopes of a request that a grant may hold, split by where they live in the grant. */
export function grantableScopes(requested: unknown): { oidc: string[]; resource: string[] } {
  const asked = new Set(typeof requested === "string" ? requested.split(" ") : []);
  return {
    oidc: OIDC_SCOPES.filter((scope) => asked.has(scope)),
    resource: RESOURCE_SCOPES.filter((scope) => asked.has(scope)),
  };
}

export function handleDecision(
  db: Database,
  provider: Provider,
  resource: string,
  internalSecret: string,
  grantTtlSeconds: number,
) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    const match = DECISION_PATH.exec(ctx.path);
    if (!match || ctx.method !== "POST") return next();
    ctx.set("Cache-Control", "no-store");
    if (!sameSecret(ctx.get(INTERNAL_SECRET_HEADER), internalSecret)) {
      ctx.status = 403;
      return;
    }
    const decision = (await readJson(ctx.req)) as Decision;
    // Throws SessionNotFound unless this browser holds the interaction's signed cookie.
    const interaction = await provider.interactionDetails(ctx.req, ctx.res);
    if (interaction.uid !== decodeURIComponent(match[1] as string)) {
      ctx.status = 400;
      ctx.body = { error: "invalid_request", error_description: "interaction mismatch" };
      return;
    }
    let result: Parameters<Provider["interactionResult"]>[2];
    if (!decision.allow) {
      result = { error: "access_denied", error_description: "The user refused the connection." };
    } else {
      // The app forwarded the person's request with its headers: the address its door stamped, the user agent.
      const headers = { get: (name: string) => ctx.get(name) || null };
      const grantId = await createConnection(db, provider, {
        accountId: decision.accountId,
        clientId: String(interaction.params.client_id),
        resource,
        scopes: grantableScopes(interaction.params.scope),
        organizationId: decision.organizationId ?? undefined,
        where: { clientAddress: clientAddress(headers), userAgent: headers.get("user-agent") },
        grantTtlSeconds,
      });
      if (!grantId) {
        result = { error: "server_error", error_description: "The connection could not be saved; try again." };
        ctx.status = 303;
        ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false }));
        return;
      }
      result = { login: { accountId: decision.accountId, remember: false }, consent: { grantId } };
    }
    ctx.status = 303;
    ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false }));
  };
}
