/**
 * MCP connections: one per OAuth grant a person consented to (an MCP client acting as them), each
 * bound to the organization the person had active then (connection_organizations), which it acts
 * for alone. The person sees and revokes their own; those who may manage every connection of an
 * organization (roles.ts: connections.manage_all) see and revoke all of that organization's.
 * Revoking deletes the grant and every code and token of it; access tokens already issued are
 * refused on their next call because /mcp checks that their grant still exists.
 */
import { and, desc, eq, gt, inArray, isNull, notExists, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database, Transaction } from "../../db/client";
import { connectionOrganizations, oauthRecords, organizations, users } from "../../db/schema";
import type { AuditActor } from "../1-domain/audit";
import { recordAuditEvent } from "./audit";
import { activeOrganizationOf } from "./organizations";

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
  /** The organization it acts for; null for one made before the person had any (it acts for their active one). */
  organizationId: string | null;
  organizationName: string | null;
  /** The person it acts as. */
  userId: string;
  userEmail: string | null;
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

const grantOwner = sql<string>`${oauthRecords.payload}->>'accountId'`;

/** Live connections matching `where`, newest first. */
async function connectionRows(db: Database, where: SQL | undefined): Promise<Connection[]> {
  const rows = await db
    .select({
      id: oauthRecords.id,
      payload: oauthRecords.payload,
      expiresAt: oauthRecords.expiresAt,
      client: clients.payload,
      documentClient: documentClients.payload,
      organizationId: connectionOrganizations.organizationId,
      organizationName: organizations.name,
      userEmail: users.email,
    })
    .from(oauthRecords)
    .leftJoin(clients, and(eq(clients.model, "Client"), eq(clients.id, sql`${oauthRecords.payload}->>'clientId'`)))
    .leftJoin(
      documentClients,
      and(eq(documentClients.model, METADATA_DOCUMENT_CLIENT_MODEL), eq(documentClients.id, oauthRecords.id)),
    )
    .leftJoin(connectionOrganizations, eq(connectionOrganizations.grantId, oauthRecords.id))
    .leftJoin(organizations, eq(organizations.id, connectionOrganizations.organizationId))
    .leftJoin(users, eq(users.id, grantOwner))
    .where(and(eq(oauthRecords.model, "Grant"), live(oauthRecords), where))
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
      organizationId: row.organizationId,
      organizationName: row.organizationName,
      userId: String(grant.accountId),
      userEmail: row.userEmail,
    };
  });
}

/** The person's own connections, whichever organization each acts for. */
export const connectionsOf = (db: Database, userId: string) => connectionRows(db, sql`${grantOwner} = ${userId}`);

/** Every connection that acts for the organization, whoever made it. */
export const organizationConnections = (db: Database, organizationId: string) =>
  connectionRows(db, eq(connectionOrganizations.organizationId, organizationId));

/** Deletes grants with every code and token issued under them, and their bindings. */
export async function deleteGrants(tx: Database | Transaction, grantIds: string[]): Promise<void> {
  if (grantIds.length === 0) return;
  await tx.delete(oauthRecords).where(and(eq(oauthRecords.model, "Grant"), inArray(oauthRecords.id, grantIds)));
  await tx.delete(oauthRecords).where(inArray(oauthRecords.grantId, grantIds));
  await tx.delete(connectionOrganizations).where(inArray(connectionOrganizations.grantId, grantIds));
}

/**
 * Revokes one of the person's own connections: the organization it acted for (null: none), or
 * undefined when there is no such live connection of theirs.
 */
export function revokeConnection(db: Database, userId: string, grantId: string) {
  return revokeWhere(db, grantId, sql`${grantOwner} = ${userId}`);
}

/** Revokes a connection that acts for the organization; undefined when it has no such live connection. */
export function revokeOrganizationConnection(db: Database, organizationId: string, grantId: string) {
  return revokeWhere(db, grantId, eq(connectionOrganizations.organizationId, organizationId));
}

async function revokeWhere(
  db: Database,
  grantId: string,
  whose: SQL | undefined,
): Promise<{ organizationId: string | null } | undefined> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ organizationId: connectionOrganizations.organizationId })
      .from(oauthRecords)
      .leftJoin(connectionOrganizations, eq(connectionOrganizations.grantId, oauthRecords.id))
      .where(and(eq(oauthRecords.model, "Grant"), eq(oauthRecords.id, grantId), whose));
    if (!found) return undefined;
    await deleteGrants(tx, [grantId]);
    return { organizationId: found.organizationId };
  });
}

/** The grants of a person that act for an organization (what removing them from it revokes). */
export async function grantsOfMember(tx: Database | Transaction, organizationId: string, userId: string) {
  const rows = await tx
    .select({ id: connectionOrganizations.grantId })
    .from(connectionOrganizations)
    .where(and(eq(connectionOrganizations.organizationId, organizationId), eq(connectionOrganizations.userId, userId)));
  return rows.map((row) => row.id);
}

/** Every grant that acts for an organization. */
export async function grantsOfOrganization(tx: Database | Transaction, organizationId: string) {
  const rows = await tx
    .select({ id: connectionOrganizations.grantId })
    .from(connectionOrganizations)
    .where(eq(connectionOrganizations.organizationId, organizationId));
  return rows.map((row) => row.id);
}

/** The organization a grant acts for, or null for a grant bound to none (made before the person had one). */
export async function connectionOrganizationOf(db: Database, grantId: string): Promise<string | null> {
  const [row] = await db
    .select({ organizationId: connectionOrganizations.organizationId })
    .from(connectionOrganizations)
    .where(eq(connectionOrganizations.grantId, grantId));
  return row?.organizationId ?? null;
}

/** How a connection was made: the consent page, or an identity assertion from the organization's IdP. */
export type ConnectionVia = "consent" | "id-jag";

/**
 * Binds a new connection (an OAuth grant the person just consented to, or one an organization's
 * identity provider asserted: docs/enterprise-mcp.md) to the organization it will act for, and
 * records it in that organization's audit trail, in one transaction. Consent binds it to the
 * person's active organization, and to none when they have no organization yet (the grant then
 * acts for their active one, whichever it is at each call); an identity assertion names its
 * organization (`organizationId`). The grant is saved by oidc-provider's adapter before this
 * runs, so the grant and its binding are not one transaction (docs/accounts.md).
 *
 * Answers the grant that acts: this one, or — for an identity assertion, when another exchange
 * already bound this person's connection with this client to the organization — that one. The
 * unique index (migration 0022) decides between exchanges that arrive together: the insert is an
 * upsert, so the one that loses reads the winner's grant in the same statement, and records nothing.
 */
export async function bindConnection(
  db: Database,
  userId: string,
  connection: { grantId: string; clientId: string; scopes: string[] },
  where: Pick<AuditActor, "clientAddress" | "userAgent">,
  options: { organizationId?: string; via?: ConnectionVia; details?: Record<string, string> } = {},
): Promise<string> {
  const organizationId = options.organizationId ?? (await activeOrganizationOf(db, userId))?.id;
  if (!organizationId) return connection.grantId;
  const via = options.via ?? "consent";
  return db.transaction(async (tx) => {
    const binding = { grantId: connection.grantId, organizationId, userId, clientId: connection.clientId, via };
    const [bound] =
      via === "id-jag"
        ? await tx
            .insert(connectionOrganizations)
            .values(binding)
            .onConflictDoUpdate({
              target: [
                connectionOrganizations.organizationId,
                connectionOrganizations.userId,
                connectionOrganizations.clientId,
              ],
              targetWhere: sql`${connectionOrganizations.via} = 'id-jag'`,
              // Unchanged: the update only makes the statement return the binding that stands.
              set: { grantId: sql`${connectionOrganizations.grantId}` },
            })
            .returning({ grantId: connectionOrganizations.grantId })
        : await tx
            .insert(connectionOrganizations)
            .values(binding)
            .returning({ grantId: connectionOrganizations.grantId });
    if (!bound) throw new Error("the connection's binding returned nothing");
    if (bound.grantId !== connection.grantId) return bound.grantId;
    await recordAuditEvent(
      tx,
      organizationId,
      { kind: "user", userId, ...where },
      {
        action: "connection.create",
        targetType: "connection",
        targetId: connection.grantId,
        details: { clientId: connection.clientId, scopes: connection.scopes, ...options.details },
      },
    );
    return connection.grantId;
  });
}

/**
 * Releases a binding whose grant has lapsed (expired, or gone), so that the person's next
 * assertion can make the connection again; a binding whose grant is live stays.
 */
export async function releaseLapsedBinding(db: Database, grantId: string): Promise<void> {
  await db.delete(connectionOrganizations).where(
    and(
      eq(connectionOrganizations.grantId, grantId),
      notExists(
        db
          .select({ id: oauthRecords.id })
          .from(oauthRecords)
          .where(and(eq(oauthRecords.model, "Grant"), eq(oauthRecords.id, grantId), live(oauthRecords))),
      ),
    ),
  );
}
