/**
 * The active organization's webhook endpoints (docs/webhooks.md), from the dashboard: list,
 * create (the signing secret is returned once), change, rotate the secret (the old one keeps
 * signing for ROTATION_OVERLAP_HOURS), delete, read the delivery log, resend a message, send a
 * test. Not on REST or MCP: the API is read-only.
 */
import { z } from "zod";
import { ROTATION_OVERLAP_HOURS, SUBSCRIBABLE_EVENTS, WEBHOOK_EVENTS, WEBHOOK_JOB } from "../1-domain/webhook-events";
import { ApiError, invalidRequest, notFound } from "../1-errors/api-error";
import { newWebhookSecret } from "../2-http/standard-webhooks";
import { testEvent } from "../2-notifications/webhook-bodies";
import { listMarkets, readGeographies } from "../3-catalog/store";
import { seal } from "../3-keys/sealed";
import { outboundUrlProblem } from "../3-outbound/guard";
import {
  createEndpoint,
  deleteEndpoint,
  deliveryLog,
  type EndpointView,
  endpointOf,
  endpointView,
  insertMessages,
  listEndpoints,
  MAX_ENDPOINTS,
  messageOf,
  reopenMessage,
  rotateSecret,
  TooManyEndpointsError,
  updateEndpoint,
} from "../4-webhooks/webhook-endpoints";
import type { ApiContext } from "../7-procedures/context";
import { countryCode, marketIdParam } from "../7-procedures/schemas";
import { createRouter, permittedProcedure } from "../7-procedures/trpc";

/** Whether endpoints may be on this machine's network (tests only; refused in production at start). */
const privateAllowed = () => process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS === "1";

const urlInput = z
  .string()
  .trim()
  .max(2000, "At most 2,000 characters")
  .superRefine((url, ctx) => {
    const problem = outboundUrlProblem(url, privateAllowed());
    if (problem) ctx.addIssue({ code: "custom", message: `The URL ${problem}.` });
  });

const settingsInput = {
  url: urlInput,
  description: z.string().trim().max(200, "At most 200 characters").default(""),
  events: z
    .array(z.enum(SUBSCRIBABLE_EVENTS as [string, ...string[]]))
    .min(1, "Choose at least one event")
    .transform((events) => [...new Set(events)]),
  marketIds: z
    .array(marketIdParam)
    .max(100)
    .default([])
    .transform((ids) => [...new Set(ids)]),
  countries: z
    .array(countryCode)
    .max(100)
    .default([])
    .transform((codes) => [...new Set(codes)]),
};

const endpointIdInput = z.string().min(1).max(64);

const SETTINGS = ["url", "description", "events", "marketIds", "countries", "enabled"] as const;

/** What the audit trail keeps of an endpoint's settings: those named, never its secret. */
const settingsDetails = (endpoint: EndpointView, keys: readonly (typeof SETTINGS)[number][]) =>
  Object.fromEntries(keys.map((key) => [key, key === "url" ? urlWithoutCredentials(endpoint.url) : endpoint[key]]));

/** A receiver's URL without what may be a credential in it (user info, query, fragment). */
function urlWithoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search ? "?…" : ""}`;
  } catch {
    return "(not a URL)";
  }
}

/** The markets and countries an endpoint names must exist: a typo would silently never fire. */
async function checkNames(ctx: ApiContext, settings: { marketIds?: string[]; countries?: string[] }) {
  if (settings.marketIds?.length) {
    const known = new Set((await listMarkets(ctx.db, { listedOnly: true })).map((m) => m.marketId));
    const unknown = settings.marketIds.filter((id) => !known.has(id));
    if (unknown.length)
      throw invalidRequest(`No listed market ${unknown.map((id) => `"${id}"`).join(", ")}.`, [
        { path: "marketIds", message: `unknown: ${unknown.join(", ")}` },
      ]);
  }
  if (settings.countries?.length) {
    const known = new Set((await readGeographies(ctx.db)).map((g) => g.country));
    const unknown = settings.countries.filter((code) => !known.has(code));
    if (unknown.length)
      throw invalidRequest(`No geography ${unknown.join(", ")}.`, [
        { path: "countries", message: `unknown: ${unknown.join(", ")}` },
      ]);
  }
}

/** The queue, which only a request from a running app has (docs/webhooks.md). */
function queueOf(ctx: ApiContext) {
  if (!ctx.queue) throw new ApiError("unavailable", "The job queue is not reachable from here; try again shortly.");
  return ctx.queue;
}

const page = (entries: Awaited<ReturnType<typeof deliveryLog>>, limit: number) => ({
  entries,
  nextCursor: entries.length === limit ? (entries.at(-1)?.id ?? null) : null,
});

/** Every webhook procedure needs the one power (owners, admins). */
const webhookProcedure = permittedProcedure("webhooks.manage");

export const webhooksRouter = createRouter({
  list: webhookProcedure.query(async ({ ctx }) => ({
    endpoints: await listEndpoints(ctx.db, ctx.organization.id),
    events: SUBSCRIBABLE_EVENTS.map((type) => ({ type, description: WEBHOOK_EVENTS[type] })),
    maxEndpoints: MAX_ENDPOINTS,
    homeCountry: ctx.organization.homeCountry,
  })),

  create: webhookProcedure
    .meta({
      audit: {
        action: "webhook.create",
        target: (_: unknown, out: { endpoint: { id: string } }) => ({ type: "webhook_endpoint", id: out.endpoint.id }),
        details: (_: unknown, out: { endpoint: EndpointView }) => settingsDetails(out.endpoint, SETTINGS),
      },
    })
    .input(z.object(settingsInput))
    .mutation(async ({ ctx, input }) => {
      await checkNames(ctx, input);
      const secret = newWebhookSecret();
      try {
        const endpoint = await createEndpoint(ctx.db, {
          ...input,
          organizationId: ctx.organization.id,
          sealedSecret: seal(secret),
          createdByUserId: ctx.userId,
        });
        return { endpoint, secret };
      } catch (error) {
        if (error instanceof TooManyEndpointsError)
          throw invalidRequest(error.message, [{ path: "url", message: error.message }]);
        throw error;
      }
    }),

  update: webhookProcedure
    .meta({
      audit: {
        action: "webhook.update",
        target: (input: { endpointId: string }) => ({ type: "webhook_endpoint", id: input.endpointId }),
        // The settings the call named, as they now are.
        details: (input: Record<string, unknown>, out: EndpointView) =>
          settingsDetails(
            out,
            SETTINGS.filter((key) => input[key] !== undefined),
          ),
      },
    })
    .input(
      z.object({
        endpointId: endpointIdInput,
        url: settingsInput.url.optional(),
        description: z.string().trim().max(200).optional(),
        events: settingsInput.events.optional(),
        marketIds: z.array(marketIdParam).max(100).optional(),
        countries: z.array(countryCode).max(100).optional(),
        enabled: z.boolean().optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { endpointId, ...settings } = input;
      await checkNames(ctx, settings);
      const updated = await updateEndpoint(ctx.db, ctx.organization.id, endpointId, settings);
      if (!updated) throw notFound("No such webhook endpoint in this organization.");
      return updated;
    }),

  rotateSecret: webhookProcedure
    .meta({
      audit: {
        action: "webhook.rotate_secret",
        target: (input: { endpointId: string }) => ({ type: "webhook_endpoint", id: input.endpointId }),
        details: (_: unknown, out: { previousSecretUntil: Date }) => ({
          previousSecretUntil: out.previousSecretUntil.toISOString(),
        }),
      },
    })
    .input(z.object({ endpointId: endpointIdInput }))
    .mutation(async ({ ctx, input }) => {
      const secret = newWebhookSecret();
      const until = new Date(Date.now() + ROTATION_OVERLAP_HOURS * 3_600_000);
      const endpoint = await rotateSecret(ctx.db, ctx.organization.id, input.endpointId, seal(secret), until);
      if (!endpoint) throw notFound("No such webhook endpoint in this organization.");
      return { endpoint, secret, previousSecretUntil: until };
    }),

  remove: webhookProcedure
    .meta({
      audit: {
        action: "webhook.delete",
        target: (input: { endpointId: string }) => ({ type: "webhook_endpoint", id: input.endpointId }),
      },
    })
    .input(z.object({ endpointId: endpointIdInput }))
    .mutation(async ({ ctx, input }) => {
      if (!(await deleteEndpoint(ctx.db, ctx.organization.id, input.endpointId)))
        throw notFound("No such webhook endpoint in this organization.");
      return { removed: input.endpointId };
    }),

  deliveries: webhookProcedure
    .input(
      z.object({
        endpointId: endpointIdInput,
        /** The `nextCursor` of the previous page (a message id); omitted: the newest. */
        cursor: z.string().max(64).optional(),
        limit: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(async ({ ctx, input }) => {
      const endpoint = await endpointOf(ctx.db, ctx.organization.id, input.endpointId);
      if (!endpoint) throw notFound("No such webhook endpoint in this organization.");
      const before = input.cursor ? await messageOf(ctx.db, input.cursor) : undefined;
      if (input.cursor && before?.endpointId !== endpoint.id)
        throw invalidRequest("cursor is not one this log gave", [{ path: "cursor", message: "unknown cursor" }]);
      const entries = await deliveryLog(ctx.db, endpoint.id, {
        limit: input.limit,
        before: before ? { createdAt: before.createdAt, id: before.id } : undefined,
      });
      return { endpoint: endpointView(endpoint), ...page(entries, input.limit) };
    }),

  resend: webhookProcedure
    .input(z.object({ messageId: z.string().min(1).max(64) }))
    .mutation(async ({ ctx, input }) => {
      const queue = queueOf(ctx);
      if (!(await reopenMessage(ctx.db, ctx.organization.id, input.messageId)))
        throw notFound("No such webhook message in this organization.");
      await queue.send(
        WEBHOOK_JOB,
        { messageId: input.messageId, trigger: "resend" },
        { singletonKey: `webhook:${input.messageId}` },
      );
      return { queued: input.messageId };
    }),

  sendTest: webhookProcedure.input(z.object({ endpointId: endpointIdInput })).mutation(async ({ ctx, input }) => {
    const queue = queueOf(ctx);
    const endpoint = await endpointOf(ctx.db, ctx.organization.id, input.endpointId);
    if (!endpoint) throw notFound("No such webhook endpoint in this organization.");
    const at = new Date().toISOString();
    const [messageId] = await insertMessages(ctx.db, [
      {
        endpointId: endpoint.id,
        eventType: "webhook.test",
        dedupeKey: `test:${ctx.requestId}`,
        body: JSON.stringify(testEvent(endpoint.id, at)),
      },
    ]);
    if (!messageId) throw new Error("the test message was not written");
    await queue.send(WEBHOOK_JOB, { messageId, trigger: "queue" }, { singletonKey: `webhook:${messageId}` });
    return { messageId };
  }),
});
