import { z } from "zod";
import { AUDIT_ACTIONS, AUDIT_ACTOR_ID, AUDIT_ACTOR_KINDS } from "../../1-domain/audit";
import { auditPage } from "../../4-organizations/audit";
import { cursorInput, decodeCursor, encodeCursor } from "../cursor";
import { declareLive } from "../declaration";
import { timestamp, wholeNumber } from "../schemas";

/** Epoch ms from 1970 up to the end of year 9999 (NaN is not). */
const withinYears = (ms: number) => ms >= 0 && ms < Date.UTC(10_000, 0, 1);

const instant = (name: "from" | "to") =>
  z
    .string()
    .max(40, `${name} must be an ISO 8601 timestamp`)
    // From 1970 to 9999: the database keeps no year 0 nor a five-digit year, and no event is older than the service.
    .refine((text) => /^(19[7-9]\d|[2-9]\d{3})-\d{2}-\d{2}/.test(text) && withinYears(Date.parse(text)), {
      message: `${name} must be an ISO 8601 timestamp, e.g. 2026-05-04T09:00:00Z`,
    })
    .optional();

export const auditEventsInput = z.object({
  limit: wholeNumber("limit", 1, 200).default(50).meta({ description: "Events per page, newest first." }),
  cursor: cursorInput,
  action: z
    .enum(AUDIT_ACTIONS, { error: `action must be one of ${AUDIT_ACTIONS.join(", ")}` })
    .optional()
    .meta({ description: "Only events of this action." }),
  actor: z
    .string()
    .regex(AUDIT_ACTOR_ID, "actor must be a user or token id: letters, digits, _ and -, at most 128")
    .optional()
    .meta({ description: "Only events of this actor: a user id (`usr_…`) or a token id (`tok_…`)." }),
  from: instant("from").meta({ description: "Only events at or after this instant (ISO 8601)." }),
  to: instant("to").meta({ description: "Only events at or before this instant (ISO 8601)." }),
});

export const auditEventSchema = z
  .object({
    id: z.number().int().positive().meta({ description: "The event's id: later events have larger ids." }),
    occurredAt: timestamp,
    actor: z.object({
      kind: z.enum(AUDIT_ACTOR_KINDS),
      userId: z.string().nullable(),
      tokenId: z.string().nullable().meta({ description: "The API token or OAuth grant that acted." }),
      label: z.string().nullable().meta({ description: "The e-mail, token name or operator at the time." }),
    }),
    clientAddress: z.string().nullable().meta({ description: "The client's network address as the service saw it." }),
    userAgent: z.string().nullable(),
    action: z.string().meta({ description: "A stable dotted name, e.g. `token.create`." }),
    target: z
      .object({ type: z.string(), id: z.string().nullable() })
      .nullable()
      .meta({ description: "What was changed." }),
    details: z.record(z.string(), z.unknown()).meta({ description: "What changed; never a secret." }),
  })
  .meta({ id: "AuditEvent" });

export const auditEventsSchema = z
  .object({
    events: z.array(auditEventSchema),
    nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last." }),
  })
  .meta({ id: "AuditEvents", description: "The organization's audit trail, newest first." });

/** An audit cursor is the id of the last event of the previous page, opaque to callers. */
const cursorOf = (id: number) => encodeCursor("a", String(id));
const idOf = (cursor: string) => Number(decodeCursor("a", cursor, /^(\d{1,15})$/)[0]);

export const accountAuditEvents = declareLive({
  group: "account",
  name: "auditEvents",
  scope: null,
  credits: 0,
  path: "/audit-events",
  summary: "Audit trail",
  description:
    "Every change to the organization's membership, roles, tokens, webhooks, connections, balance and settings, newest first: who, when, from where and what. Filters by `action`, `actor` and period; pages with `cursor`. Any valid token of the organization may call it, whatever its scopes.",
  input: auditEventsInput,
  output: auditEventsSchema,
  example: { limit: 10 },
  caching: "live",
  answer: async (ctx, input) => {
    const organization = ctx.caller?.organization;
    if (!organization) return { events: [], nextCursor: null };
    const page = await auditPage(ctx.db, organization.id, {
      before: input.cursor === undefined ? undefined : idOf(input.cursor),
      limit: input.limit,
      action: input.action,
      actor: input.actor,
      from: input.from ? new Date(input.from) : undefined,
      to: input.to ? new Date(input.to) : undefined,
    });
    return {
      events: page.events.map((e) => ({
        id: e.id,
        occurredAt: e.occurredAt.toISOString(),
        actor: { kind: e.actorKind, userId: e.actorUserId, tokenId: e.actorTokenId, label: e.actorLabel },
        clientAddress: e.clientAddress,
        userAgent: e.userAgent,
        action: e.action,
        target: e.targetType ? { type: e.targetType, id: e.targetId } : null,
        details: e.details,
      })),
      nextCursor: page.nextBefore === null ? null : cursorOf(page.nextBefore),
    };
  },
});
