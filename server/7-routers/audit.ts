/**
 * The active organization's audit trail in the dashboard (docs/accounts.md, "Audit trail"): a page
 * of events, newest first, filtered by action, actor and period. Owners and admins only; anyone
 * else gets `404 not_found`. Over the API it is `GET /v1/audit-events` (operations/).
 */
import { z } from "zod";
import { AUDIT_ACTIONS, AUDIT_ACTOR_ID } from "../1-domain/audit";
import { notFound } from "../1-errors/api-error";
import { auditPage, dayBound, mayReadAudit } from "../4-organizations/audit";
import { createRouter, organizationProcedure } from "../7-procedures/trpc";

const day = z
  .string()
  .regex(/^(19[7-9]\d|[2-9]\d{3})-\d{2}-\d{2}$/, "A day as YYYY-MM-DD, from 1970")
  .optional();

/** The dashboard's filters, shared with the CSV download (app/audit/export.csv). */
export const auditFilterInput = z
  .object({
    action: z.enum(AUDIT_ACTIONS).optional(),
    actor: z
      .string()
      .trim()
      .regex(AUDIT_ACTOR_ID, "A user id (usr_…) or a token id (tok_…)")
      .or(z.literal(""))
      .optional(),
    /** The period's first and last day (UTC), both included. */
    from: day,
    to: day,
  })
  .strict();

export const auditRouter = createRouter({
  list: organizationProcedure
    .input(
      auditFilterInput.extend({
        /** The `nextCursor` of the previous page (an event id); omitted: the newest. */
        cursor: z.number().int().positive().optional(),
        limit: z.number().int().min(1).max(100).default(50),
      }),
    )
    .query(async ({ ctx, input }) => {
      if (!(await mayReadAudit(ctx.db, ctx.userId, ctx.organization.id)))
        throw notFound("Only owners and admins of the organization can read its audit trail.");
      const page = await auditPage(ctx.db, ctx.organization.id, {
        before: input.cursor,
        limit: input.limit,
        action: input.action,
        actor: input.actor || undefined,
        from: dayBound(input.from, "start"),
        to: dayBound(input.to, "end"),
      });
      return {
        events: page.events.map((e) => ({ ...e, occurredAt: e.occurredAt.toISOString() })),
        nextCursor: page.nextBefore,
        actions: AUDIT_ACTIONS,
      };
    }),
});
