/** The signed-in person's in-app notifications (dashboard only; not on REST or MCP). */
import { z } from "zod";
import { notificationLines } from "../2-notifications/render";
import { markAllRead, markRead, notificationsOf, unreadCount } from "../4-following/inbox";
import { MAX_INTEGER } from "../7-procedures/schemas";
import { createRouter, userProcedure } from "../7-procedures/trpc";

/** A notification's id (a PostgreSQL serial). */
const notificationId = z.number().int().positive().max(MAX_INTEGER);

export const notificationsRouter = createRouter({
  list: userProcedure.input(z.object({ before: notificationId.optional() }).strict()).query(async ({ ctx, input }) =>
    (await notificationsOf(ctx.db, ctx.userId, input.before)).map((n) => ({
      id: n.id,
      content: n.content,
      ...notificationLines(n.content),
      createdAt: n.createdAt.toISOString(),
      read: n.readAt !== null,
    })),
  ),

  unreadCount: userProcedure.query(async ({ ctx }) => ({ unread: await unreadCount(ctx.db, ctx.userId) })),

  markRead: userProcedure
    .input(z.object({ ids: z.array(notificationId).min(1).max(100) }).strict())
    .mutation(async ({ ctx, input }) => ({ marked: await markRead(ctx.db, ctx.userId, input.ids) })),

  markAllRead: userProcedure.mutation(async ({ ctx }) => ({ marked: await markAllRead(ctx.db, ctx.userId) })),
});
