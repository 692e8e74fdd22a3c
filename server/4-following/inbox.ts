/** A person's in-app notifications: the newest first, read or not. Only ever their own. */
import { and, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { notifications } from "../../db/schema";

export const INBOX_PAGE = 50;

export function notificationsOf(db: Database, userId: string, before?: number) {
  return db
    .select({
      id: notifications.id,
      content: notifications.content,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), before ? lt(notifications.id, before) : undefined))
    .orderBy(desc(notifications.id))
    .limit(INBOX_PAGE);
}

export async function unreadCount(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ unread: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.unread ?? 0;
}

/** Marks some of the person's notifications read; returns how many changed. */
export async function markRead(db: Database, userId: string, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const changed = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), inArray(notifications.id, [...ids]), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return changed.length;
}

export async function markAllRead(db: Database, userId: string): Promise<number> {
  const changed = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return changed.length;
}
