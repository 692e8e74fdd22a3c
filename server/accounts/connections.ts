/**
 * A person's OAuth connections: one per grant they consented to (an MCP client acting as them).
 * Revoking deletes the grant and every code and token of it; access tokens already issued are
 * refused on their next call because /mcp checks that their grant still exists.
 */
import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "../../db/client";
import { oauthRecords, users } from "../../db/schema";
import type { AuditActor } from "../domain/audit";
import { recordAuditEvent } from "./audit";

/** The oauth_records model of a metadata-document client's name at consent, keyed by grant id. */
export const METADATA_DOCUMENT_CLIENT_MODEL = "MetadataDocumentClient";

export interface Connection {
  grantId: string;
  clientId: string;
  clientName: string;
  /**
   * The host that vouches for the client: its client_id's host when it is a Client ID Metadata
   * Document URL; null for a client that registered itself (its name is its own claim).
   */
  vouchedForBy: string | null;
  connectedAt: Date;
  /** When the connection lapses unless used (its refresh tokens cannot outlive the grant). */
  expiresAt: Date | null;
  scopes: string[];
}

const clients = alias(oauthRecords, "clients");
const documentClients = alias(oauthRecords, "document_clients");

/** The host of a client_id that is a metadata document's https URL, else null. */
export function metadataDocumentHost(clientId: string): string | null {
  const url = clientId.startsWith("https://") ? URL.parse(clientId) : null;
  return url ? url.host : null;
}

type GrantPayload = {
  accountId?: string;
  clientId?: string;
  iat?: number;
  openid?: { scope?: string };
  resources?: Record<string, string>;
};

const live = (table: typeof oauthRecords) => or(isNull(table.expiresAt), gt(table.expiresAt, sql`now()`));

export async function connectionsOf(db: Database, userId: string): Promise<Connection[]> {
  const rows = await db
    .select({
      id: oauthRecords.id,
      payload: oauthRecords.payload,
      expiresAt: oauthRecords.expiresAt,
      client: clients.payload,
      documentClient: documentClients.payload,
    })
    .from(oauthRecords)
    .leftJoin(clients, and(eq(clients.model, "Client"), eq(clients.id, sql`${oauthRecords.payload}->>'clientId'`)))
    .leftJoin(
      documentClients,
      and(eq(documentClients.model, METADATA_DOCUMENT_CLIENT_MODEL), eq(documentClients.id, oauthRecords.id)),
    )
    .where(
      and(eq(oauthRecords.model, "Grant"), sql`${oauthRecords.payload}->>'accountId' = ${userId}`, live(oauthRecords)),
    )
    .orderBy(desc(sql`(${oauthRecords.payload}->>'iat')::bigint`));
  return rows.map((row) => {
    const grant = row.payload as GrantPayload;
    const clientId = String(grant.clientId);
    const scopes = [grant.openid?.scope ?? "", ...Object.values(grant.resources ?? {})].join(" ").split(" ");
    return {
      grantId: row.id,
      clientId,
      clientName: String(
        (row.client as { client_name?: string } | null)?.client_name ??
          (row.documentClient as { clientName?: string } | null)?.clientName ??
          clientId,
      ),
      vouchedForBy: row.client ? null : metadataDocumentHost(clientId),
      connectedAt: new Date((grant.iat ?? 0) * 1000),
      expiresAt: row.expiresAt,
      scopes: [...new Set(scopes.filter(Boolean))],
    };
  });
}

/** Revokes the person's own connection; false when there is no such live connection of theirs. */
export async function revokeConnection(db: Database, userId: string, grantId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(oauthRecords)
      .where(
        and(
          eq(oauthRecords.model, "Grant"),
          eq(oauthRecords.id, grantId),
          sql`${oauthRecords.payload}->>'accountId' = ${userId}`,
        ),
      )
      .returning({ id: oauthRecords.id });
    if (deleted.length === 0) return false;
    await tx.delete(oauthRecords).where(eq(oauthRecords.grantId, grantId));
    return true;
  });
}

/**
 * Records a new connection (an OAuth grant the person just consented to) in the audit trail of
 * their active organization, the one it acts for; nothing when they have none yet. The grant is
 * saved by oidc-provider's adapter before this runs, so unlike the dashboard's changes the two
 * are not one transaction (docs/accounts.md, "Audit trail").
 */
export async function recordConnectionCreated(
  db: Database,
  userId: string,
  connection: { grantId: string; clientId: string; scopes: string[] },
  where: Pick<AuditActor, "clientAddress" | "userAgent">,
): Promise<void> {
  const [user] = await db
    .select({ organizationId: users.activeOrganizationId })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.organizationId) return;
  await recordAuditEvent(
    db,
    user.organizationId,
    { kind: "user", userId, ...where },
    {
      action: "connection.create",
      targetType: "connection",
      targetId: connection.grantId,
      details: { clientId: connection.clientId, scopes: connection.scopes },
    },
  );
}
