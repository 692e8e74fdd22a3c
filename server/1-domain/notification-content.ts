/**
 * What notifications and notification e-mails say, as data: composed from release comparisons
 * (server/2-notifications/compose.ts), stored with each notification and e-mail owed, and rendered
 * (server/2-notifications/render.ts) only when shown or sent. Names in here are catalogue text:
 * every renderer treats them as hostile.
 */
import type { Axis } from "./market-definition";

export interface Attributed {
  ownValues: number;
  field: number;
  method: number;
}

/** One product's score move on one axis between two releases. */
export interface ScoreMove {
  /** Absent from notifications stored before it was added. */
  productId?: string;
  product: string;
  vendor: string;
  axis: Axis;
  from: number;
  to: number;
  change: number;
  attribution: Attributed;
}

export interface BandMove {
  product: string;
  axis: Axis;
  from: string;
  to: string;
}

/** A release published, or a market archived: one in-app notification and, if chosen, one e-mail. */
export interface NotificationContent {
  kind: "release_published" | "market_archived";
  marketId: string;
  marketName: string;
  /** ISO 8601 time of the event. */
  occurredAt: string;
  /** The release published; for an archiving, the market's last release (null if none). */
  release: number | null;
  /** The release it is compared against; null for a market's first release or an archiving. */
  comparedWith: number | null;
  methodologyVersion: string | null;
  methodologyChanged: boolean;
  material: boolean;
  /** The release's changelog entry. */
  notes: string | null;
  productsEntered: string[];
  productsLeft: string[];
  /** The biggest score moves, biggest first. */
  topMoves: ScoreMove[];
  bandMoves: BandMove[];
}

export type AvailabilityMove = "became_available" | "became_unavailable" | "offering_changed";

/** One followed market in a weekly summary. */
export interface WeeklyMarket {
  marketId: string;
  marketName: string;
  /** Releases published in the week, oldest first. */
  releases: { release: number; publishedAt: string; material: boolean; methodologyVersion: string }[];
  /** The market was archived in the week. */
  archived: boolean;
  /** The comparison the movers come from: the last release before the week against the week's last. */
  compared: { from: number; to: number } | null;
  /** The biggest moves per axis (up to three each), biggest first. */
  movers: ScoreMove[];
  bandMoves: BandMove[];
  /** Availability changes under the organization's home country. */
  availability: { product: string; change: AvailabilityMove; offeringFrom: string | null; offeringTo: string | null }[];
  productsEntered: string[];
  productsLeft: string[];
}

export interface WeeklyContent {
  /** ISO week of the sending, `YYYY-Www`. */
  week: string;
  /** The period covered: the seven days before the sending slot. */
  periodStart: string;
  periodEnd: string;
  /** The home country of the person's active organization, which availability is read under. */
  country: string | null;
  /** Followed markets with something to say; empty: a quiet week. */
  markets: WeeklyMarket[];
}

/** An organization's webhook endpoint was disabled after sustained failure: the e-mail to its owners. */
export interface WebhookDisabledContent {
  kind: "webhook_disabled";
  organizationName: string;
  endpointId: string;
  /** The endpoint's URL and description, as its owner wrote them: hostile text. */
  url: string;
  description: string;
  /** ISO 8601: since when every attempt failed, and when it was disabled. */
  failingSince: string;
  disabledAt: string;
  consecutiveFailures: number;
  /** The last attempt's outcome in words ("HTTP 500", "timed out after 10 s"). */
  lastError: string;
}

/**
 * A debit took an organization's balance from above its low-balance threshold to at or below it:
 * the e-mail to its owners (written by the debit itself, db/migrations/0013).
 */
export interface LowBalanceContent {
  kind: "low_balance";
  organizationId: string;
  /** As its owner wrote it: hostile text. */
  organizationName: string;
  /** The balance right after the crossing debit, and the threshold it crossed. */
  balance: number;
  threshold: number;
  /** ISO 8601, UTC. */
  crossedAt: string;
}

/**
 * A credit pack was paid (docs/billing.md): the e-mail to the organization's owners and billing
 * members, written by the webhook that granted the credits, in its transaction.
 */
export interface CreditsPurchasedContent {
  kind: "credits_purchased";
  organizationId: string;
  /** As its owner wrote it: hostile text. */
  organizationName: string;
  credits: number;
  /** The price paid, in the currency's minor units, and the currency (ISO 4217, lower case). */
  amount: number;
  currency: string;
  /** The balance right after the purchase. */
  balance: number;
  /** Stripe's hosted invoice, when Stripe has made it yet; only an https address is kept. */
  invoiceUrl: string | null;
  /** ISO 8601, UTC. */
  paidAt: string;
}

/**
 * An automatic top-up failed (docs/billing.md, "Automatic top-up"): the e-mail to the
 * organization's owners and billing members, written with the failure, in its transaction.
 */
export interface TopUpFailedContent {
  kind: "top_up_failed";
  organizationId: string;
  /** As its owner wrote it: hostile text. */
  organizationName: string;
  /** The pack it tried to buy. */
  credits: number;
  amount: number;
  currency: string;
  /** What happened, in words ("The card was declined (insufficient funds)."). */
  reason: string;
  /** What to do about it, in words. */
  remedy: string;
  failuresInRow: number;
  /** Why automatic top-up is now paused; null: it will try again at the next crossing. */
  pausedReason: string | null;
  /** ISO 8601, UTC. */
  failedAt: string;
}

/** What one e-mail owed says, whichever of the kinds above it is (mail_deliveries.content). */
export type MailContent =
  | NotificationContent
  | WeeklyContent
  | WebhookDisabledContent
  | LowBalanceContent
  | CreditsPurchasedContent
  | TopUpFailedContent;
