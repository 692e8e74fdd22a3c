/**
 * The webhook events (docs/webhooks.md): their names, what each says, and the envelope every
 * body has, as the Standard Webhooks specification recommends: `{ type, timestamp, data }`.
 */
export const WEBHOOK_EVENTS = {
  "release.published": "A market published a release: what it changed against the release before it.",
  "market.archived": "A market was archived: it is no longer listed; its releases are kept.",
  "market.changed":
    "A release changed a product's availability or band under one of the endpoint's countries: one event per country with changes.",
  "webhook.test": "Sent when someone asks for a test from the dashboard: the endpoint, nothing else.",
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;

export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

/** The events an endpoint may subscribe to (a test is sent when asked, whatever it subscribes to). */
export const SUBSCRIBABLE_EVENTS = WEBHOOK_EVENT_TYPES.filter((t) => t !== "webhook.test");

export interface WebhookEnvelope<Data> {
  type: WebhookEventType;
  /** ISO 8601 time of the event (not of the attempt: the `webhook-timestamp` header says that). */
  timestamp: string;
  data: Data;
}

/** The queue's job that delivers one message (server/8-jobs/webhook-delivery.ts); named here so the dashboard can queue a resend. */
export const WEBHOOK_JOB = "webhook-deliver";

/** How long the secret before a rotation keeps signing beside the new one. */
export const ROTATION_OVERLAP_HOURS = 24;
