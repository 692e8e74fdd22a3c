/**
 * Webhook endpoints and the messages owed to them (docs/webhooks.md). An organization's endpoints
 * are managed from the dashboard; the fan-out writes one message per endpoint and event
 * (`webhook_messages_once`), the delivery job claims a message for one attempt at a time (a lease,
 * as mail deliveries have), records each attempt, and marks it delivered, or failed once its
 * retries are spent. Secrets arrive and leave sealed (server/3-keys/sealed.ts): this module never
 * sees one in the clear.
 */
import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { queryRows } from "../../db/rows";
import { memberships, organizations, users, webhookAttempts, webhookEndpoints, webhookMessages } from "../../db/schema";
import type { WebhookDisabledContent } from "../1-domain/notification-content";
import type { WebhookEventType } from "../1-domain/webhook-events";

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookMessageRow = typeof webhookMessages.$inferSelect;
type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** How long an attempt holds its message: longer than any attempt (timeout included), short enough to retry a crash soon. */
export const MESSAGE_LEASE_SECONDS = 120;
/** An organization's endpoints at most: each costs a request per event. */
export const MAX_ENDPOINTS = 20;

/** An endpoint as its owners see it: everything but the secrets. */
export interface EndpointView {
  id: string;
  url: string;
  description: string;
  events: string[];
  marketIds: string[];
  countries: string[];
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  consecutiveFailures: number;
  /** Until when the secret before the last rotation still signs; null: none does. */
  previousSecretUntil: Date | null;
  createdAt: Date;
  /** Who added it (their e-mail); null for one whose maker is gone. Lists only. */
  createdBy?: string | null;
}

export const endpointView = (row: WebhookEndpointRow): EndpointView => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  marketIds: row.marketIds,
  countries: row.countries,
  enabled: row.disabledAt === null,
  disabledAt: row.disabledAt,
  disabledReason: row.disabledReason,
  failingSince: row.failingSince,
  consecutiveFailures: row.consecutiveFailures,
  previousSecretUntil: row.previousSecretUntil && row.previousSecretUntil > new Date() ? row.previousSecretUntil : null,
  createdAt: row.createdAt,
});

export interface EndpointSettings {
  url: string;
  description: string;
  events: string[];
  marketIds: string[];
  countries: string[];
}

export class TooManyEndpointsError extends Error {
  constructor() {
    super(`an organization has at most ${MAX_ENDPOINTS} webhook endpoints`);
    this.name = "TooManyEndpointsError";
  }
}

export async function createEndpoint(
  db: Database,
  input: EndpointSettings & { organizationId: string; sealedSecret: string; createdByUserId: string | null },
): Promise<EndpointView> {
  return db.transaction(async (tx) => {
    // Counted under the organization's row lock, so two creations cannot both pass the limit.
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, input.organizationId))
      .for("update");
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organizationId, input.organizationId));
    if ((count?.n ?? 0) >= MAX_ENDPOINTS) throw new TooManyEndpointsError();
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        organizationId: input.organizationId,
        url: input.url,
        description: input.description,
        events: input.events,
        marketIds: input.marketIds,
        countries: input.countries,
        secret: input.sealedSecret,
        createdByUserId: input.createdByUserId,
      })
      .returning();
    return endpointView(row as WebhookEndpointRow);
  });
}

export async function listEndpoints(db: Database, organizationId: string): Promise<EndpointView[]> {
  const rows = await db
    .select({ endpoint: webhookEndpoints, createdBy: users.email })
    .from(webhookEndpoints)
    .leftJoin(users, eq(users.id, webhookEndpoints.createdByUserId))
    .where(eq(webhookEndpoints.organizationId, organizationId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  return rows.map((row) => ({ ...endpointView(row.endpoint), createdBy: row.createdBy }));
}

/** One endpoint of the organization (another organization's is "none"). */
export async function endpointOf(
  db: Database,
  organizationId: string,
  endpointId: string,
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.organizationId, organizationId)));
  return row;
}

export async function updateEndpoint(
  db: Database,
  organizationId: string,
  endpointId: string,
  settings: Partial<EndpointSettings> & { enabled?: boolean },
): Promise<EndpointView | undefined> {
  const { enabled, ...rest } = settings;
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      ...rest,
      // Enabled again: its record of failures starts over. Disabled by its owner: said so.
      ...(enabled === true
        ? { disabledAt: null, disabledReason: null, failingSince: null, consecutiveFailures: 0 }
        : {}),
      ...(enabled === false
        ? { disabledAt: sql`coalesce(${webhookEndpoints.disabledAt}, now())`, disabledReason: "Disabled by its owner." }
        : {}),
    })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.organizationId, organizationId)))
    .returning();
  return row ? endpointView(row) : undefined;
}

/** A new secret; the current one keeps signing beside it until `overlapUntil`. */
export async function rotateSecret(
  db: Database,
  organizationId: string,
  endpointId: string,
  sealedSecret: string,
  overlapUntil: Date,
): Promise<EndpointView | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ previousSecret: sql`${webhookEndpoints.secret}`, previousSecretUntil: overlapUntil, secret: sealedSecret })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.organizationId, organizationId)))
    .returning();
  return row ? endpointView(row) : undefined;
}

export async function deleteEndpoint(db: Database, organizationId: string, endpointId: string): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.organizationId, organizationId)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** An enabled endpoint that wants this event of this market, with the countries it follows (its organization's home when it names none). */
export interface SubscribedEndpoint {
  id: string;
  events: WebhookEventType[];
  countries: string[];
}

export async function subscribedEndpoints(
  db: Database,
  marketId: string,
  events: readonly WebhookEventType[],
  /** Only endpoints created by then: an endpoint, like a follow, is a promise about what comes after it. */
  occurredAt: Date,
): Promise<SubscribedEndpoint[]> {
  const rows = await db
    .select({
      id: webhookEndpoints.id,
      events: webhookEndpoints.events,
      countries: webhookEndpoints.countries,
      homeCountry: organizations.homeCountry,
    })
    .from(webhookEndpoints)
    .innerJoin(organizations, eq(organizations.id, webhookEndpoints.organizationId))
    .where(
      and(
        isNull(webhookEndpoints.disabledAt),
        lt(webhookEndpoints.createdAt, sql`${occurredAt.toISOString()}::timestamptz + interval '1 millisecond'`),
        or(...events.map((event) => sql`${event} = any(${webhookEndpoints.events})`)),
        or(sql`cardinality(${webhookEndpoints.marketIds}) = 0`, sql`${marketId} = any(${webhookEndpoints.marketIds})`),
      ),
    )
    .orderBy(asc(webhookEndpoints.id));
  return rows.map((r) => ({
    id: r.id,
    events: r.events.filter((e): e is WebhookEventType => events.includes(e as WebhookEventType)),
    countries: r.countries.length > 0 ? r.countries : [r.homeCountry],
  }));
}

export interface OwedMessage {
  endpointId: string;
  eventType: WebhookEventType;
  dedupeKey: string;
  body: string;
}

/** Writes messages owed (once per endpoint and key: a second write of the same is nothing); the new ids. */
export async function insertMessages(tx: Transaction | Database, owed: readonly OwedMessage[]): Promise<string[]> {
  if (owed.length === 0) return [];
  const rows = await tx
    .insert(webhookMessages)
    .values(
      owed.map((m) => ({ endpointId: m.endpointId, eventType: m.eventType, dedupeKey: m.dedupeKey, body: m.body })),
    )
    .onConflictDoNothing()
    .returning({ id: webhookMessages.id });
  return rows.map((r) => r.id);
}

/** A message claimed for one attempt, with what sending it needs of its endpoint. */
export interface ClaimedMessage {
  message: WebhookMessageRow;
  endpoint: WebhookEndpointRow;
}

/**
 * Claims a message for one attempt (counted); undefined when it was delivered or given up, another
 * attempt holds it, or its endpoint is gone. Two senders can never send one message at once.
 */
export async function claimMessage(db: Database, messageId: string): Promise<ClaimedMessage | undefined> {
  const [message] = await db
    .update(webhookMessages)
    .set({ attempts: sql`${webhookMessages.attempts} + 1`, claimedAt: sql`now()` })
    .where(
      and(
        eq(webhookMessages.id, messageId),
        isNull(webhookMessages.deliveredAt),
        isNull(webhookMessages.failedAt),
        or(
          isNull(webhookMessages.claimedAt),
          lt(webhookMessages.claimedAt, sql`now() - make_interval(secs => ${MESSAGE_LEASE_SECONDS})`),
        ),
      ),
    )
    .returning();
  if (!message) return undefined;
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, message.endpointId));
  return endpoint ? { message, endpoint } : undefined;
}

export interface AttemptRecord {
  messageId: string;
  status: number | null;
  error: string | null;
  durationMs: number;
  responseExcerpt: string | null;
  trigger: "queue" | "resend";
}

/** The attempt recorded, and the message and its endpoint told how it went, in one transaction. */
export async function recordAttempt(
  db: Database,
  attempt: AttemptRecord,
  outcome: "delivered" | "failed" | "gave up",
): Promise<{ consecutiveFailures: number; failingSince: Date | null }> {
  return db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      messageId: attempt.messageId,
      status: attempt.status,
      error: attempt.error?.slice(0, 500) ?? null,
      durationMs: Math.round(attempt.durationMs),
      responseExcerpt: attempt.responseExcerpt?.slice(0, 500) ?? null,
      trigger: attempt.trigger,
    });
    const [message] = await tx
      .update(webhookMessages)
      .set({
        claimedAt: null,
        ...(outcome === "delivered" ? { deliveredAt: sql`now()` } : {}),
        ...(outcome === "gave up" ? { failedAt: sql`now()` } : {}),
      })
      .where(eq(webhookMessages.id, attempt.messageId))
      .returning({ endpointId: webhookMessages.endpointId });
    if (!message) return { consecutiveFailures: 0, failingSince: null };
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set(
        outcome === "delivered"
          ? { consecutiveFailures: 0, failingSince: null }
          : {
              consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
              failingSince: sql`coalesce(${webhookEndpoints.failingSince}, now())`,
            },
      )
      .where(eq(webhookEndpoints.id, message.endpointId))
      .returning({
        consecutiveFailures: webhookEndpoints.consecutiveFailures,
        failingSince: webhookEndpoints.failingSince,
      });
    return endpoint ?? { consecutiveFailures: 0, failingSince: null };
  });
}

/**
 * Disables an endpoint that keeps failing, and owes each owner of its organization an e-mail
 * saying so, in one transaction; the e-mails' ids (none when it was disabled already).
 */
export async function disableFailingEndpoint(db: Database, endpointId: string, lastError: string): Promise<number[]> {
  return db.transaction(async (tx) => {
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({
        disabledAt: sql`now()`,
        disabledReason: `Disabled by the service: every delivery failed for too long (last: ${lastError.slice(0, 200)}).`,
      })
      .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.disabledAt)))
      .returning();
    if (!endpoint?.disabledAt) return [];
    const [organization] = await tx
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, endpoint.organizationId));
    const content: WebhookDisabledContent = {
      kind: "webhook_disabled",
      organizationName: organization?.name ?? endpoint.organizationId,
      endpointId: endpoint.id,
      url: endpoint.url,
      description: endpoint.description,
      failingSince: (endpoint.failingSince ?? endpoint.disabledAt).toISOString(),
      disabledAt: endpoint.disabledAt.toISOString(),
      consecutiveFailures: endpoint.consecutiveFailures,
      lastError,
    };
    const mails = await queryRows<{ id: number }>(
      tx,
      sql`insert into mail_deliveries (user_id, dedupe_key, recipient, kind, content)
        select m.user_id, ${`webhook-disabled:${endpoint.id}:${endpoint.disabledAt.toISOString()}`}, u.email,
          'webhook_disabled', ${JSON.stringify(content)}::jsonb
        from ${memberships} m join ${users} u on u.id = m.user_id
        where m.organization_id = ${endpoint.organizationId} and m.role = 'owner' and u.email is not null
        on conflict do nothing returning id`,
    );
    return mails.map((m) => m.id);
  });
}

/** Messages never attempted and older than `olderThanSeconds`: their job was lost, so the sweep queues one again. */
export async function unsentMessages(db: Database, olderThanSeconds: number, limit = 500): Promise<string[]> {
  const rows = await db
    .select({ id: webhookMessages.id })
    .from(webhookMessages)
    .where(
      and(
        isNull(webhookMessages.deliveredAt),
        isNull(webhookMessages.failedAt),
        eq(webhookMessages.attempts, 0),
        lt(webhookMessages.createdAt, sql`now() - make_interval(secs => ${olderThanSeconds})`),
      ),
    )
    .orderBy(asc(webhookMessages.createdAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** A message of the organization sent again, as asked: open for delivery once more (its id stays). */
export async function reopenMessage(db: Database, organizationId: string, messageId: string): Promise<boolean> {
  const rows = await db
    .update(webhookMessages)
    .set({ deliveredAt: null, failedAt: null, claimedAt: null })
    .where(
      and(
        eq(webhookMessages.id, messageId),
        inArray(
          webhookMessages.endpointId,
          db
            .select({ id: webhookEndpoints.id })
            .from(webhookEndpoints)
            .where(eq(webhookEndpoints.organizationId, organizationId)),
        ),
      ),
    )
    .returning({ id: webhookMessages.id });
  return rows.length > 0;
}

export interface DeliveryLogEntry {
  id: string;
  eventType: string;
  createdAt: Date;
  attempts: number;
  deliveredAt: Date | null;
  failedAt: Date | null;
  /** Newest first. */
  tries: {
    attemptedAt: Date;
    status: number | null;
    error: string | null;
    durationMs: number;
    responseExcerpt: string | null;
    trigger: string;
  }[];
}

/** An endpoint's messages, newest first, each with its attempts; a page ends before `before` (a message id). */
export async function deliveryLog(
  db: Database,
  endpointId: string,
  { limit, before }: { limit: number; before?: { createdAt: Date; id: string } },
): Promise<DeliveryLogEntry[]> {
  const messages = await db
    .select()
    .from(webhookMessages)
    .where(
      and(
        eq(webhookMessages.endpointId, endpointId),
        before
          ? or(
              lt(webhookMessages.createdAt, before.createdAt),
              and(eq(webhookMessages.createdAt, before.createdAt), lt(webhookMessages.id, before.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(webhookMessages.createdAt), desc(webhookMessages.id))
    .limit(limit);
  if (messages.length === 0) return [];
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(
      inArray(
        webhookAttempts.messageId,
        messages.map((m) => m.id),
      ),
    )
    .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.id));
  return messages.map((m) => ({
    id: m.id,
    eventType: m.eventType,
    createdAt: m.createdAt,
    attempts: m.attempts,
    deliveredAt: m.deliveredAt,
    failedAt: m.failedAt,
    tries: attempts
      .filter((a) => a.messageId === m.id)
      .map(({ attemptedAt, status, error, durationMs, responseExcerpt, trigger }) => ({
        attemptedAt,
        status,
        error,
        durationMs,
        responseExcerpt,
        trigger,
      })),
  }));
}

export async function messageOf(db: Database, messageId: string): Promise<WebhookMessageRow | undefined> {
  const [row] = await db.select().from(webhookMessages).where(eq(webhookMessages.id, messageId));
  return row;
}

/** A claimed message not sent because its endpoint was disabled meanwhile: given up, without an attempt (a resend opens it again). */
export async function giveUpMessage(db: Database, messageId: string): Promise<void> {
  await db
    .update(webhookMessages)
    .set({ failedAt: sql`now()`, claimedAt: null })
    .where(eq(webhookMessages.id, messageId));
}
