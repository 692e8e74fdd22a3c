/** The signed-in person's in-app notifications (dashboard only; not on REST or MCP). */
import { z } from "zod";
import { markAllRead, markRead, notificationsOf, unreadCount } from "../following/inbox";
import { notificationLines } from "../notifications/render";
import { MAX_INTEGER } from "../procedures/schemas";
import { createRouter, userProcedure } from "../procedures/trpc";

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
