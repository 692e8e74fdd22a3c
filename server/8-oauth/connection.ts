/**
 * Making a connection (an OAuth grant that lets one client act as one person for one
 * organization): the one way both doors make it, the consent page (decision.ts) and an identity
 * assertion from the organization's IdP (id-jag.ts). The grant holds exactly the scopes given,
 * on /mcp, is bound to its organization and recorded in its audit trail; a grant that cannot be
 * bound is withdrawn rather than left acting for whichever organization is active.
 */
import type Provider from "oidc-provider";
import type { Database } from "../../db/client";
import type { AuditActor } from "../1-domain/audit";
import { errorMessage, log } from "../3-observability/logger";
import { DatabaseAdapter } from "../4-api-access/oauth-records";
import {
  bindConnection,
  type ConnectionVia,
  deleteGrants,
  METADATA_DOCUMENT_CLIENT_MODEL,
} from "../4-organizations/connections";

/**
 * A client known by its metadata document is stored nowhere by the provider (it fetches the
 * document when needed), so the name it had when the connection was made is kept with the grant,
 * for the Connect page; revoking the grant deletes it with the grant's other records.
 */
async function rememberDocumentClient(
  db: Database,
  provider: Provider,
  grantId: string,
  clientId: string,
  ttlSeconds: number,
) {
  const client = await provider.Client.find(clientId);
  if (!client || !(client as { clientIdMetadataDocument?: boolean }).clientIdMetadataDocument) return;
  await new DatabaseAdapter(db, METADATA_DOCUMENT_CLIENT_MODEL).upsert(
    grantId,
    { grantId, clientId, clientName: client.clientName ?? null },
    ttlSeconds,
  );
}

export interface NewConnection {
  accountId: string;
  clientId: string;
  resource: string;
  /** OpenID scopes (openid, offline_access) the grant holds, and the resource's. */
  scopes: { oidc: string[]; resource: string[] };
  /** The organization it acts for; unset: the person's active one (consent). */
  organizationId?: string;
  /** How it is made (an identity assertion's is one per person, client and organization); default consent. */
  via?: ConnectionVia;
  /** Added to the audit event's details (how it was made). */
  details?: Record<string, string>;
  where: Pick<AuditActor, "clientAddress" | "userAgent">;
  grantTtlSeconds: number;
}

/**
 * Saves and binds the grant: the id of the grant that acts, or null when it could not be bound
 * (and was withdrawn). For an identity assertion whose person already has a connection with the
 * client (another exchange bound it first), that connection's grant, and this one is withdrawn.
 */
export async function createConnection(db: Database, provider: Provider, made: NewConnection): Promise<string | null> {
  const grant = new provider.Grant({ accountId: made.accountId, clientId: made.clientId });
  if (made.scopes.oidc.length > 0) grant.addOIDCScope(made.scopes.oidc.join(" "));
  grant.addResourceScope(made.resource, made.scopes.resource.join(" "));
  const grantId = await grant.save();
  await rememberDocumentClient(db, provider, grantId, made.clientId, made.grantTtlSeconds);
  return bindConnection(
    db,
    made.accountId,
    { grantId, clientId: made.clientId, scopes: [...made.scopes.oidc, ...made.scopes.resource] },
    made.where,
    { organizationId: made.organizationId, via: made.via, details: made.details },
  ).then(
    async (acting) => {
      if (acting !== grantId) await deleteGrants(db, [grantId]);
      return acting;
    },
    async (error: unknown) => {
      log().error({ grantId, error: errorMessage(error) }, "a new connection could not be bound; withdrawn");
      await deleteGrants(db, [grantId]);
      return null;
    },
  );
}
