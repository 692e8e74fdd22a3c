/**
 * From catalogue events to what each follower gets. Publishing a release or archiving a market
 * writes a catalogue event in its own transaction (server/3-catalog/store.ts); fanning one out
 * writes, in one transaction, an in-app notification per follower, an e-mail owed per follower
 * who chose e-mail and a webhook message per endpoint (and country) it concerns, then marks the
 * event done. The unique keys (person × event) make a second
 * fan-out of the same event — another instance, a retried job — write nothing.
 */
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { queryRows } from "../../db/rows";
import { catalogueEvents, markets, releases } from "../../db/schema";
import type { NotificationContent } from "../1-domain/notification-content";
import type { ReleaseComparison } from "../2-comparisons/release-comparison";
import { mailLinkOrigin } from "../2-http/origin";
import { archiveNotification, releaseNotification } from "../2-notifications/compose";
import {
  marketArchivedEvent,
  marketChangedEvent,
  type ReleaseFacts,
  releasePublishedEvent,
} from "../2-notifications/webhook-bodies";
import { loadRelease } from "../3-catalog/releases";
import { compareReleases } from "../3-workers/comparison";
import { insertMessages, type OwedMessage, subscribedEndpoints } from "../4-webhooks/webhook-endpoints";

/**
 * Release `from` against `to` of a listed market, under `country` when both releases were scored
 * for it, else under the first country they share; null when either release is not readable.
 */
export async function comparisonOf(
  db: Database,
  marketId: string,
  from: number,
  to: number,
  country?: string | null,
): Promise<ReleaseComparison | null> {
  const [a, b] = await Promise.all([loadRelease(db, marketId, from), loadRelease(db, marketId, to)]);
  if (!a || !b) return null;
  const shared = [...b.data.countries.keys()].filter((c) => a.data.countries.has(c)).sort();
  const use = country && shared.includes(country) ? country : shared[0];
  return use ? compareReleases(a.data, b.data, use) : null;
}

type CatalogueEvent = typeof catalogueEvents.$inferSelect;

/** What an event says to people and to programs; computed before the fan-out's transaction (safe to repeat). */
interface EventStory {
  content: NotificationContent;
  /** The webhook messages it owes, per endpoint subscribed to it. */
  webhooks: OwedMessage[];
}

/** What an event says; computed before the fan-out's transaction (pure work, safe to repeat). */
async function storyOf(db: Database, event: CatalogueEvent): Promise<EventStory> {
  const [market] = await db.select().from(markets).where(eq(markets.marketId, event.marketId)).limit(1);
  const marketName = market?.name ?? event.marketId;
  if (event.kind === "market_archived") {
    const [last] = await db
      .select({ release: releases.release })
      .from(releases)
      .where(eq(releases.marketId, event.marketId))
      .orderBy(desc(releases.release))
      .limit(1);
    const archived = {
      marketId: event.marketId,
      marketName,
      archivedAt: event.occurredAt.toISOString(),
      lastRelease: last?.release ?? null,
    };
    const endpoints = await subscribedEndpoints(db, event.marketId, ["market.archived"], event.occurredAt);
    const body = JSON.stringify(marketArchivedEvent(archived));
    return {
      content: archiveNotification(archived),
      webhooks: endpoints.map((e) => ({
        endpointId: e.id,
        eventType: "market.archived",
        dedupeKey: `event:${event.id}`,
        body,
      })),
    };
  }
  const number = event.release as number;
  const [row] = await db
    .select({
      publishedAt: releases.publishedAt,
      methodologyVersion: releases.methodologyVersion,
      material: releases.material,
      notes: releases.notes,
      products: releases.products,
    })
    .from(releases)
    .where(and(eq(releases.marketId, event.marketId), eq(releases.release, number)))
    .limit(1);
  if (!row) throw new Error(`catalogue event ${event.id}: no release ${number} of ${event.marketId}`);
  const comparison = number > 1 ? await comparisonOf(db, event.marketId, number - 1, number) : null;
  const facts = {
    marketId: event.marketId,
    marketName,
    release: number,
    publishedAt: row.publishedAt.toISOString(),
    methodologyVersion: row.methodologyVersion,
    material: row.material,
    notes: row.notes,
  };
  return {
    content: releaseNotification({ ...facts, productNames: row.products.map((p) => p.name) }, comparison),
    webhooks: await releaseWebhooks(db, event, { ...facts, products: row.products }, comparison),
  };
}

/**
 * A release's webhook messages: `release.published` to every endpoint that wants it, and
 * `market.changed` per country an endpoint follows where the release moved a product's
 * availability or band (nothing for a country it moved nothing in, or that either release lacks).
 */
async function releaseWebhooks(
  db: Database,
  event: CatalogueEvent,
  facts: ReleaseFacts,
  comparison: ReleaseComparison | null,
): Promise<OwedMessage[]> {
  const endpoints = await subscribedEndpoints(
    db,
    event.marketId,
    ["release.published", "market.changed"],
    event.occurredAt,
  );
  if (endpoints.length === 0) return [];
  const origin = mailLinkOrigin();
  const published = JSON.stringify(releasePublishedEvent(facts, comparison, origin));
  const [earlier, later] =
    facts.release > 1
      ? await Promise.all([
          loadRelease(db, event.marketId, facts.release - 1),
          loadRelease(db, event.marketId, facts.release),
        ])
      : [undefined, undefined];
  // One body per country any endpoint follows, compared once (off the event loop for a large market).
  const changedUnder = new Map<string, string | null>();
  const followed = endpoints.filter((endpoint) => endpoint.events.includes("market.changed"));
  for (const country of new Set(followed.flatMap((endpoint) => endpoint.countries))) {
    const shared = earlier?.data.countries.has(country) && later?.data.countries.has(country);
    const changed =
      shared && earlier && later
        ? marketChangedEvent(facts, await compareReleases(earlier.data, later.data, country), origin)
        : null;
    changedUnder.set(country, changed ? JSON.stringify(changed) : null);
  }
  const changedBody = (country: string) => changedUnder.get(country) ?? null;
  return endpoints.flatMap((endpoint) => [
    ...(endpoint.events.includes("release.published")
      ? [
          {
            endpointId: endpoint.id,
            eventType: "release.published" as const,
            dedupeKey: `event:${event.id}`,
            body: published,
          },
        ]
      : []),
    ...(endpoint.events.includes("market.changed")
      ? endpoint.countries.flatMap((country) => {
          const body = changedBody(country);
          return body
            ? [
                {
                  endpointId: endpoint.id,
                  eventType: "market.changed" as const,
                  dedupeKey: `event:${event.id}:changed:${country}`,
                  body,
                },
              ]
            : [];
        })
      : []),
  ]);
}

export interface FanOutResult {
  events: number;
  notifications: number;
  /** The e-mails now owed, to be sent by the mail job. */
  deliveries: number[];
  /** The webhook messages now owed, to be sent by the webhook job. */
  webhooks: string[];
}

/** Fans out every pending catalogue event, oldest first. Safe to run anywhere, any number of times. */
export async function fanOutPendingEvents(db: Database, batch = 50): Promise<FanOutResult> {
  const result: FanOutResult = { events: 0, notifications: 0, deliveries: [], webhooks: [] };
  const pending = await db
    .select()
    .from(catalogueEvents)
    .where(isNull(catalogueEvents.fannedOutAt))
    .orderBy(asc(catalogueEvents.id))
    .limit(batch);
  for (const event of pending) {
    const story = await storyOf(db, event);
    const content = JSON.stringify(story.content);
    await db.transaction(async (tx) => {
      // Another instance fanning it out holds the row: leave it to them.
      const [claimed] = await tx
        .select({ id: catalogueEvents.id })
        .from(catalogueEvents)
        .where(and(eq(catalogueEvents.id, event.id), isNull(catalogueEvents.fannedOutAt)))
        .for("update", { skipLocked: true });
      if (!claimed) return;
      // Those who followed before the event: a follow is a promise about what comes after it.
      const followedBefore = sql`f.market_id = ${event.marketId}
        and f.created_at <= ${event.occurredAt.toISOString()}::timestamptz`;
      const inApp = await queryRows<{ id: number }>(
        tx,
        sql`insert into notifications (user_id, event_id, content)
          select f.user_id, ${event.id}, ${content}::jsonb from market_follows f where ${followedBefore}
          on conflict do nothing returning id`,
      );
      const mails = await queryRows<{ id: number }>(
        tx,
        sql`insert into mail_deliveries (user_id, dedupe_key, recipient, kind, content)
          select f.user_id, ${`event:${event.id}`}, u.email, 'notification', ${content}::jsonb
          from market_follows f
          join users u on u.id = f.user_id
          join notification_preferences p on p.user_id = f.user_id and p.release_emails
          where ${followedBefore} and u.email is not null
          on conflict do nothing returning id`,
      );
      const webhooks = await insertMessages(tx, story.webhooks);
      await tx.update(catalogueEvents).set({ fannedOutAt: sql`now()` }).where(eq(catalogueEvents.id, event.id));
      result.webhooks.push(...webhooks);
      result.events += 1;
      result.notifications += inApp.length;
      result.deliveries.push(...mails.map((m) => m.id));
    });
  }
  return result;
}
