/**
 * The audit trail (docs/accounts.md, "Audit trail"): writing one event, in the transaction of the
 * change it records, and reading an organization's events newest first, page by page, filtered,
 * or as CSV. The table is append-only (a trigger refuses UPDATE, DELETE and TRUNCATE).
 */

import { and, desc, eq, gte, lt, lte, or, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "../../db/client";
import { apiTokens, auditEvents, users } from "../../db/schema";
import { sharedRead } from "../../db/shared-read";
import {
  AUDIT_ADDRESS_MAX,
  AUDIT_LABEL_MAX,
  AUDIT_READER_ROLES,
  AUDIT_USER_AGENT_MAX,
  type AuditActor,
  type AuditChange,
  auditText,
} from "../1-domain/audit";
import { type Column, toCsv } from "../2-formats/csv";
import { plainAddress } from "../2-http/client-address";
import { organizationsOf } from "./organizations";

/** One event as it is read back. */
export interface AuditEvent {
  id: number;
  occurredAt: Date;
  actorKind: "user" | "token" | "operator" | "system";
  actorUserId: string | null;
  actorTokenId: string | null;
  actorLabel: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  details: Record<string, unknown>;
}

/**
 * Writes one event for `organizationId`. Call it with the transaction of the change, after the
 * change, so the event exists exactly when the change does. Without a label, the actor's e-mail
 * (a person) or token name is looked up as it is now.
 */
export async function recordAuditEvent(
  db: Database | Transaction,
  organizationId: string,
  actor: AuditActor,
  change: AuditChange,
): Promise<number> {
  let label = actor.label ?? null;
  if (label === null && actor.kind === "user" && actor.userId) {
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, actor.userId));
    label = user?.email ?? null;
  } else if (label === null && actor.kind === "token" && actor.tokenId) {
    const [token] = await db.select({ name: apiTokens.name }).from(apiTokens).where(eq(apiTokens.id, actor.tokenId));
    label = token?.name ?? null;
  }
  const [row] = await db
    .insert(auditEvents)
    .values({
      organizationId,
      actorKind: actor.kind,
      actorUserId: actor.userId ?? null,
      actorTokenId: actor.tokenId ?? null,
      actorLabel: auditText(label, AUDIT_LABEL_MAX),
      clientAddress: auditText(actor.clientAddress, AUDIT_ADDRESS_MAX),
      userAgent: auditText(actor.userAgent, AUDIT_USER_AGENT_MAX),
      action: change.action,
      targetType: change.targetType ?? null,
      targetId: change.targetId ?? null,
      details: change.details ?? {},
    })
    .returning({ id: auditEvents.id });
  if (!row) throw new Error("the audit event was not written");
  return row.id;
}

export interface AuditFilter {
  /** Only this action. */
  action?: string;
  /** Only this actor: a user id or a token id. */
  actor?: string;
  /** Only events at or after / before this instant. */
  from?: Date;
  to?: Date;
}

/** Newest first; `before` is the id of the last event of the previous page (keyset paging). */
export function auditPage(
  db: Database | Transaction,
  organizationId: string,
  page: AuditFilter & { before?: number; limit: number },
): Promise<{ events: AuditEvent[]; nextBefore: number | null }> {
  // Identical page reads in one turn share a statement (db/shared-read.ts); the answer is not mutated.
  const key = `audit ${organizationId} ${JSON.stringify([page.before, page.limit, page.action, page.actor, page.from?.getTime(), page.to?.getTime()])}`;
  return sharedRead(db as Database, key, () => readAuditPage(db, organizationId, page));
}

async function readAuditPage(
  db: Database | Transaction,
  organizationId: string,
  { before, limit, ...filter }: AuditFilter & { before?: number; limit: number },
): Promise<{ events: AuditEvent[]; nextBefore: number | null }> {
  const conditions: SQL[] = [eq(auditEvents.organizationId, organizationId)];
  if (before !== undefined) conditions.push(lt(auditEvents.id, before));
  if (filter.action) conditions.push(eq(auditEvents.action, filter.action));
  if (filter.actor) {
    const byActor = or(eq(auditEvents.actorUserId, filter.actor), eq(auditEvents.actorTokenId, filter.actor));
    if (byActor) conditions.push(byActor);
  }
  if (filter.from) conditions.push(gte(auditEvents.occurredAt, filter.from));
  if (filter.to) conditions.push(lte(auditEvents.occurredAt, filter.to));
  const rows = await db
    .select({
      id: auditEvents.id,
      occurredAt: auditEvents.occurredAt,
      actorKind: auditEvents.actorKind,
      actorUserId: auditEvents.actorUserId,
      actorTokenId: auditEvents.actorTokenId,
      actorLabel: auditEvents.actorLabel,
      clientAddress: auditEvents.clientAddress,
      userAgent: auditEvents.userAgent,
      action: auditEvents.action,
      targetType: auditEvents.targetType,
      targetId: auditEvents.targetId,
      details: auditEvents.details,
    })
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(desc(auditEvents.id))
    .limit(limit + 1);
  // Events recorded before addresses were written plainly show them plainly too.
  const events = rows.slice(0, limit).map((e) => ({ ...e, clientAddress: plainAddress(e.clientAddress) }));
  return { events, nextBefore: rows.length > limit ? (events.at(-1)?.id ?? null) : null };
}

/** The most events one CSV export holds (newest first); a longer trail is exported by period. */
export const AUDIT_CSV_MAX_ROWS = 10_000;

const CSV_COLUMNS: readonly Column<AuditEvent>[] = [
  { label: "id", value: (e) => e.id, numeric: true },
  { label: "occurred_at", value: (e) => e.occurredAt.toISOString() },
  { label: "actor_kind", value: (e) => e.actorKind },
  { label: "actor_user_id", value: (e) => e.actorUserId ?? "" },
  { label: "actor_token_id", value: (e) => e.actorTokenId ?? "" },
  { label: "actor_label", value: (e) => e.actorLabel ?? "" },
  { label: "client_address", value: (e) => e.clientAddress ?? "" },
  { label: "user_agent", value: (e) => e.userAgent ?? "" },
  { label: "action", value: (e) => e.action },
  { label: "target_type", value: (e) => e.targetType ?? "" },
  { label: "target_id", value: (e) => e.targetId ?? "" },
  { label: "details", value: (e) => JSON.stringify(e.details) },
];

/** Events as CSV (RFC 4180, every text cell neutralised against formula injection: server/2-formats/csv.ts). */
export const auditCsv = (events: readonly AuditEvent[]): string => toCsv(CSV_COLUMNS, events);

/** An organization's events for a CSV export: newest first, filtered, at most AUDIT_CSV_MAX_ROWS. */
export async function auditEventsForExport(
  db: Database,
  organizationId: string,
  filter: AuditFilter,
): Promise<AuditEvent[]> {
  return (await auditPage(db, organizationId, { ...filter, limit: AUDIT_CSV_MAX_ROWS })).events;
}

/** Whether this person may read the organization's trail in the dashboard: an owner or an admin. */
export async function mayReadAudit(db: Database, userId: string, organizationId: string): Promise<boolean> {
  const membership = (await organizationsOf(db, userId)).find((m) => m.id === organizationId);
  return membership !== undefined && AUDIT_READER_ROLES.includes(membership.role);
}

/** A day (YYYY-MM-DD) as the first or last instant of it (UTC), for a period's filter; undefined when none. */
export function dayBound(day: string | null | undefined, end: "start" | "end"): Date | undefined {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const at = new Date(`${day}T${end === "start" ? "00:00:00.000" : "23:59:59.999"}Z`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
