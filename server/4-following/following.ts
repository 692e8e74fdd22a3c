/**
 * Who follows which market, and what each person wants by e-mail. Following needs no
 * organization: it is a person's choice, like the e-mails it brings.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { marketFollows, markets, notificationPreferences } from "../../db/schema";
import { notFound } from "../1-errors/api-error";

export interface NotificationPreferences {
  releaseEmails: boolean;
  weeklySummary: boolean;
  weeklyQuietNote: boolean;
}

/** Nothing by e-mail until the person asks: in-app notifications only. */
export const DEFAULT_PREFERENCES: NotificationPreferences = {
  releaseEmails: false,
  weeklySummary: false,
  weeklyQuietNote: false,
};

/** Follows a listed market (again is fine); 404 for a market that is unknown or archived. */
export async function followMarket(db: Database, userId: string, marketId: string): Promise<void> {
  const [market] = await db
    .select({ status: markets.status })
    .from(markets)
    .where(eq(markets.marketId, marketId))
    .limit(1);
  if (market?.status !== "listed") throw notFound(`No market "${marketId}".`);
  await db.insert(marketFollows).values({ userId, marketId }).onConflictDoNothing();
}

export async function unfollowMarket(db: Database, userId: string, marketId: string): Promise<boolean> {
  const removed = await db
    .delete(marketFollows)
    .where(and(eq(marketFollows.userId, userId), eq(marketFollows.marketId, marketId)))
    .returning({ marketId: marketFollows.marketId });
  return removed.length > 0;
}

export async function isFollowing(db: Database, userId: string, marketId: string): Promise<boolean> {
  const [row] = await db
    .select({ marketId: marketFollows.marketId })
    .from(marketFollows)
    .where(and(eq(marketFollows.userId, userId), eq(marketFollows.marketId, marketId)))
    .limit(1);
  return row !== undefined;
}

/** The markets a person follows, by name; archived ones stay listed here until unfollowed. */
export function followedMarkets(db: Database, userId: string) {
  return db
    .select({
      marketId: markets.marketId,
      name: markets.name,
      status: markets.status,
      followedAt: marketFollows.createdAt,
    })
    .from(marketFollows)
    .innerJoin(markets, eq(markets.marketId, marketFollows.marketId))
    .where(eq(marketFollows.userId, userId))
    .orderBy(asc(markets.name), asc(markets.marketId));
}

export async function preferencesOf(db: Database, userId: string): Promise<NotificationPreferences> {
  const [row] = await db
    .select({
      releaseEmails: notificationPreferences.releaseEmails,
      weeklySummary: notificationPreferences.weeklySummary,
      weeklyQuietNote: notificationPreferences.weeklyQuietNote,
    })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId))
    .limit(1);
  return row ?? DEFAULT_PREFERENCES;
}

/** Changes some preferences; the others keep their value. */
export async function updatePreferences(
  db: Database,
  userId: string,
  change: Partial<NotificationPreferences>,
): Promise<NotificationPreferences> {
  const [row] = await db
    .insert(notificationPreferences)
    .values({ ...DEFAULT_PREFERENCES, ...change, userId })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...change, updatedAt: sql`now()` } })
    .returning({
      releaseEmails: notificationPreferences.releaseEmails,
      weeklySummary: notificationPreferences.weeklySummary,
      weeklyQuietNote: notificationPreferences.weeklyQuietNote,
    });
  return row as NotificationPreferences;
}
