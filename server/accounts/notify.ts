/**
 * From catalogue events to what each follower gets. Publishing a release or archiving a market
 * writes a catalogue event in its own transaction (server/catalog/store.ts); fanning one out
 * writes, in one transaction, an in-app notification per follower and an e-mail owed per follower
 * who chose e-mail, then marks the event done. The unique keys (person × event) make a second
 * fan-out of the same event — another instance, a retried job — write nothing.
 */
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { queryRows } from "../../db/rows";
import { catalogueEvents, markets, releases } from "../../db/schema";
import { loadRelease } from "../catalog/releases";
import type { NotificationContent } from "../domain/notifications";
import { archiveNotification, releaseNotification } from "../notifications/compose";
import { changes, type ReleaseComparison } from "../readings/changes";

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
  return use ? changes(a.data, b.data, use) : null;
}

type CatalogueEvent = typeof catalogueEvents.$inferSelect;

/** What an event says; computed before the fan-out's transaction (pure work, safe to repeat). */
async function contentOf(db: Database, event: CatalogueEvent): Promise<NotificationContent> {
  const [market] = await db.select().from(markets).where(eq(markets.marketId, event.marketId)).limit(1);
  const marketName = market?.name ?? event.marketId;
  if (event.kind === "market_archived") {
    const [last] = await db
      .select({ release: releases.release })
      .from(releases)
      .where(eq(releases.marketId, event.marketId))
      .orderBy(desc(releases.release))
      .limit(1);
    return archiveNotification({
      marketId: event.marketId,
      marketName,
      archivedAt: event.occurredAt.toISOString(),
      lastRelease: last?.release ?? null,
    });
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
  return releaseNotification(
    {
      marketId: event.marketId,
      marketName,
      release: number,
      publishedAt: row.publishedAt.toISOString(),
      methodologyVersion: row.methodologyVersion,
      material: row.material,
      notes: row.notes,
      productNames: row.products.map((p) => p.name),
    },
    comparison,
  );
}

export interface FanOutResult {
  events: number;
  notifications: number;
  /** The e-mails now owed, to be sent by the mail job. */
  deliveries: number[];
}

/** Fans out every pending catalogue event, oldest first. Safe to run anywhere, any number of times. */
export async function fanOutPendingEvents(db: Database, batch = 50): Promise<FanOutResult> {
  const result: FanOutResult = { events: 0, notifications: 0, deliveries: [] };
  const pending = await db
    .select()
    .from(catalogueEvents)
    .where(isNull(catalogueEvents.fannedOutAt))
    .orderBy(asc(catalogueEvents.id))
    .limit(batch);
  for (const event of pending) {
    const content = JSON.stringify(await contentOf(db, event));
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
      await tx.update(catalogueEvents).set({ fannedOutAt: sql`now()` }).where(eq(catalogueEvents.id, event.id));
      result.events += 1;
      result.notifications += inApp.length;
      result.deliveries.push(...mails.map((m) => m.id));
    });
  }
  return result;
}
