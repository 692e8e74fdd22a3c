/**
 * The one database schema, for PostgreSQL and embedded PGlite alike.
 *
 * Controls and geographies are the live catalogue. A release is immutable: it keeps the market
 * definition it was scored from, the controls and geographies as they were, and the computed
 * results (a trigger in the migrations refuses UPDATE and DELETE on releases and their results).
 */

import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { AdapterAccountType } from "next-auth/adapters";
import type { StoredShape } from "./stored-shapes";

/** 96 random bits: ids that reveal neither counts nor creation order. */
const randomId = () => randomBytes(12).toString("hex");

export const controls = pgTable("controls", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull(),
  framework: text("framework").notNull(),
  /** The sovereignty objectives satisfying it evidences (docs/sovereignty.md); null: none mapped. */
  sov: jsonb("sov").$type<StoredShape<"controlSov">>(),
});

export const geographies = pgTable(
  "geographies",
  {
    country: text("country").primaryKey(),
    name: text("name").notNull(),
  },
  (t) => [check("geographies_country_iso", sql`${t.country} ~ '^[A-Z]{2}$'`)],
);

export const geographyControls = pgTable(
  "geography_controls",
  {
    country: text("country")
      .notNull()
      .references(() => geographies.country, { onDelete: "cascade" }),
    controlId: text("control_id")
      .notNull()
      .references(() => controls.id),
  },
  (t) => [primaryKey({ columns: [t.country, t.controlId] })],
);

export const marketStatus = pgEnum("market_status", ["listed", "archived"]);

export const markets = pgTable("markets", {
  marketId: text("market_id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull(),
  status: marketStatus("status").notNull().default("listed"),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  archivedAt: timestamp("archived_at", { withTimezone: true, mode: "date" }),
});

export const releases = pgTable(
  "releases",
  {
    id: serial("id").primaryKey(),
    marketId: text("market_id")
      .notNull()
      .references(() => markets.marketId),
    release: integer("release").notNull(),
    /** Publish time; `lastUpdated` in every payload of this release. */
    publishedAt: timestamp("published_at", { withTimezone: true, mode: "date" }).notNull(),
    methodologyVersion: text("methodology_version").notNull(),
    methodology: text("methodology").notNull(),
    material: boolean("material").notNull(),
    notes: text("notes").notNull(),
    /** SHA-256 of the canonical definition JSON: what exactly was scored. */
    definitionSha256: text("definition_sha256").notNull(),
    definition: jsonb("definition").$type<StoredShape<"marketFile">>().notNull(),
    controls: jsonb("controls").$type<StoredShape<"controls">>().notNull(),
    geographies: jsonb("geographies").$type<StoredShape<"geographies">>().notNull(),
    dimensions: jsonb("dimensions").$type<StoredShape<"dimensions">>().notNull(),
    products: jsonb("products").$type<StoredShape<"productScores">>().notNull(),
    /**
     * How sure each score and rank is (server/2-scoring/sensitivity.ts), analysed at publish time;
     * null for releases published before the analysis existed (the readings analyse those once, on
     * first read, with the same seed, so the answer is the same).
     */
    sensitivity: jsonb("sensitivity").$type<StoredShape<"sensitivity">>(),
  },
  (t) => [
    unique("releases_market_release").on(t.marketId, t.release),
    check("releases_release_positive", sql`${t.release} > 0`),
  ],
);

export const releaseCountryResults = pgTable(
  "release_country_results",
  {
    releaseId: integer("release_id")
      .notNull()
      .references(() => releases.id),
    country: text("country").notNull(),
    result: jsonb("result").$type<StoredShape<"countryResult">>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.country] })],
);

// ------------------------------------------------------------------------------------------------
// Accounts: people (next-auth's tables, through @auth/drizzle-adapter), organizations, API tokens
// and the credits ledger.

export const users = pgTable("users", {
  id: text("id")
    .primaryKey()
    .$defaultFn(() => `usr_${randomId()}`),
  name: text("name"),
  email: text("email").unique(),
  emailVerified: timestamp("email_verified", { withTimezone: true, mode: "date" }),
  image: text("image"),
  /** The organization the dashboard and OAuth connections act for; null until the user has one. */
  activeOrganizationId: text("active_organization_id").references((): AnyPgColumn => organizations.id, {
    onDelete: "set null",
  }),
  /**
   * When this person's first organization got the starting grant: the grant is once per person,
   * however many organizations they create (docs/accounts.md, "Starting credits").
   */
  startingGrantAt: timestamp("starting_grant_at", { withTimezone: true, mode: "date" }),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

export const authAccounts = pgTable(
  "auth_accounts",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").$type<AdapterAccountType>().notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] })],
);

export const authSessions = pgTable(
  "auth_sessions",
  {
    sessionToken: text("session_token").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expires: timestamp("expires", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("auth_sessions_user").on(t.userId)],
);

export const authVerificationTokens = pgTable(
  "auth_verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: timestamp("expires", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);

/** Mail that would have been sent when no SMTP server is configured: the dev outbox. */
export const mailOutbox = pgTable("mail_outbox", {
  id: serial("id").primaryKey(),
  recipient: text("recipient").notNull(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  /** The sign-in link of a magic-link mail. */
  url: text("url"),
  /** The HTML part, when the mail has one (notifications, the weekly summary). */
  html: text("html"),
  /** Extra headers as sent (List-Unsubscribe, List-Unsubscribe-Post, Message-ID). */
  headers: jsonb("headers").$type<Record<string, string>>(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

export const organizations = pgTable(
  "organizations",
  {
    id: text("id")
      .primaryKey()
      .$defaultFn(() => `org_${randomId()}`),
    name: text("name").notNull(),
    /** The country readings engage when a call names none. */
    homeCountry: text("home_country").notNull(),
    /**
     * Always the sum of this organization's ledger; changed only together with a ledger row. Below
     * zero only after a refund or dispute took back credits already spent (docs/billing.md); a paid
     * call then answers 402 as at zero, since a debit needs balance >= cost.
     */
    creditBalance: integer("credit_balance").notNull().default(0),
    /** Requests per rate-limit window; null: the service default. */
    rateLimit: integer("rate_limit"),
    /**
     * The balance at or below which the header warns and a debit that crosses it e-mails the
     * owners (docs/accounts.md, "Low-balance warning"); 0: off.
     */
    lowBalanceThreshold: integer("low_balance_threshold").notNull().default(100),
    /**
     * The balance at or below which a debit that crosses it schedules an automatic top-up
     * (docs/billing.md, "Automatic top-up"); null: not armed (off, paused or no card saved). A copy
     * of top_up_settings.threshold kept here so debit_batch sees it in the row it already updates.
     */
    topUpThreshold: integer("top_up_threshold"),
    /** The most credits an owner lets the organization buy in a month; null: the operator's cap alone. */
    purchaseCapCredits: integer("purchase_cap_credits"),
    /** Who created it from the dashboard (null: the operator CLI): bounds how many one person makes. */
    createdByUserId: text("created_by_user_id").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("organizations_created_by").on(t.createdByUserId),
    check("organizations_home_country_iso", sql`${t.homeCountry} ~ '^[A-Z]{2}$'`),
    check("organizations_rate_limit_positive", sql`${t.rateLimit} is null or ${t.rateLimit} > 0`),
    check("organizations_low_balance_threshold_range", sql`${t.lowBalanceThreshold} between 0 and 1000000000`),
    check(
      "organizations_top_up_threshold_range",
      sql`${t.topUpThreshold} is null or ${t.topUpThreshold} between 0 and 1000000000`,
    ),
    check("organizations_purchase_cap_range", sql`${t.purchaseCapCredits} is null or ${t.purchaseCapCredits} >= 0`),
  ],
);

export const membershipRole = pgEnum("membership_role", ["owner", "member", "admin", "billing"]);

export const memberships = pgTable(
  "memberships",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: membershipRole("role").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] }), index("memberships_user").on(t.userId)],
);

/**
 * An invitation to join an organization with a role (docs/accounts.md, "Invitations"). Only the
 * SHA-256 of its link's token is kept; resending replaces it, so an earlier link stops working.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id")
      .primaryKey()
      .$defaultFn(() => `inv_${randomId()}`),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Lower case: acceptance compares it with the signed-in address, case-insensitively. */
    email: text("email").notNull(),
    role: membershipRole("role").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedByUserId: text("invited_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** When the current link was sent (a resend moves it). */
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true, mode: "date" }),
    acceptedByUserId: text("accepted_by_user_id").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("invitations_organization").on(t.organizationId, t.email)],
);

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: text("id")
      .primaryKey()
      .$defaultFn(() => `tok_${randomId()}`),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the secret, hex. The secret itself is never stored. */
    secretHash: text("secret_hash").notNull().unique(),
    /** The first characters of the secret, to recognise it in lists. */
    displayPrefix: text("display_prefix").notNull(),
    scopes: text("scopes").array().notNull(),
    createdByUserId: text("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("api_tokens_organization").on(t.organizationId)],
);

export const ledgerKind = pgEnum("ledger_kind", ["grant", "debit", "adjustment", "purchase", "refund", "dispute"]);

/** Every change of an organization's balance; the balance is always the sum of `amount`. */
export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    kind: ledgerKind("kind").notNull(),
    /** Signed: positive for grants, negative for debits. */
    amount: integer("amount").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    /** Debits: the operation (e.g. readings.snapshot), the token or OAuth client, the request id. */
    operation: text("operation"),
    tokenId: text("token_id"),
    requestId: text("request_id"),
    note: text("note"),
    /** Purchases, refunds and disputes: the credit purchase (docs/billing.md) the entry belongs to. */
    purchaseId: text("purchase_id"),
    /** Purchases, refunds and disputes: the Stripe object that moved it (cs_…, ch_…, dp_…). */
    stripeId: text("stripe_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("credit_ledger_organization_id").on(t.organizationId, t.id),
    // The current hour of usage is read from here (the rest from usage_hourly): by time, not by id.
    index("credit_ledger_organization_created").on(t.organizationId, t.createdAt),
    // Compared as text: enum values may not be used in the transaction that adds them (0023).
    check(
      "credit_ledger_sign",
      sql`(${t.kind}::text in ('debit', 'refund', 'dispute') and ${t.amount} < 0) or (${t.kind}::text in ('grant', 'purchase') and ${t.amount} > 0) or ${t.kind}::text = 'adjustment'`,
    ),
  ],
);

// ------------------------------------------------------------------------------------------------
// Credit packs bought by card through Stripe Checkout (docs/billing.md, server/4-billing/).

/** Each organization's customer at Stripe, made on its first purchase: one per organization. */
export const billingCustomers = pgTable("billing_customers", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  stripeCustomerId: text("stripe_customer_id").notNull().unique(),
  /** The card saved for automatic top-up (a PaymentMethod id), with what the page shows of it. */
  paymentMethodId: text("payment_method_id"),
  cardBrand: text("card_brand"),
  cardLast4: text("card_last4"),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * Automatic top-up of one organization (docs/billing.md): when the balance falls to `threshold` or
 * below, buy `pack_id`, at most `max_per_month` times a calendar month (UTC). Three failures in a
 * row pause it (`paused_reason`) until someone changes it; so does a dispute.
 */
export const topUpSettings = pgTable(
  "top_up_settings",
  {
    organizationId: text("organization_id")
      .primaryKey()
      .references(() => organizations.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(false),
    threshold: integer("threshold").notNull(),
    packId: text("pack_id").notNull(),
    maxPerMonth: integer("max_per_month").notNull(),
    failuresInRow: integer("failures_in_row").notNull().default(0),
    /** Why it is paused (three failures, a dispute); null: not paused. */
    pausedReason: text("paused_reason"),
    /** What the last failure was, in words the page and the e-mail show; null after a success. */
    lastFailure: text("last_failure"),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    check("top_up_settings_threshold_range", sql`${t.threshold} between 0 and 1000000000`),
    check("top_up_settings_max_range", sql`${t.maxPerMonth} between 1 and 100`),
  ],
);

export const topUpState = pgEnum("top_up_state", ["scheduled", "charging", "succeeded", "failed", "skipped"]);

/**
 * One automatic top-up, scheduled by the debit that crossed the threshold (debit_batch). At most one
 * is open (scheduled or charging) per organization: the partial unique index makes the crossing
 * schedule exactly one however many instances debit at once. Its id is the queue job's and the
 * PaymentIntent's idempotency key.
 */
export const topUpAttempts = pgTable(
  "top_up_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    state: topUpState("state").notNull().default("scheduled"),
    paymentIntentId: text("payment_intent_id"),
    /** Why it failed or was skipped, in words. */
    outcome: text("outcome"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("top_up_attempts_one_open").on(t.organizationId).where(sql`${t.state} in ('scheduled', 'charging')`),
    index("top_up_attempts_organization").on(t.organizationId, t.createdAt),
  ],
);

export const purchaseState = pgEnum("purchase_state", [
  "pending",
  "paid",
  "failed",
  "refunded",
  "partially_refunded",
  "disputed",
]);

/**
 * One Checkout Session of a credit pack. Written pending when the session is made, paid by the
 * webhook that grants its credits (the unique session id decides which delivery grants: one).
 * `credits_removed` is what refunds and disputes took back so far, so each takes only its new part.
 */
export const creditPurchases = pgTable(
  "credit_purchases",
  {
    id: text("id")
      .primaryKey()
      .$defaultFn(() => `pur_${randomId()}`),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /**
     * The Checkout Session bought; null for an automatic top-up (paid by a PaymentIntent alone) and
     * for a checkout reserved under the monthly cap whose session Stripe has not made yet.
     */
    checkoutSessionId: text("checkout_session_id").unique(),
    paymentIntentId: text("payment_intent_id"),
    /** The automatic top-up that bought it; null for a purchase through Checkout. */
    topUpId: uuid("top_up_id").unique(),
    chargeId: text("charge_id"),
    credits: integer("credits").notNull(),
    /** The price paid, in the currency's minor units (cents). */
    amount: integer("amount").notNull(),
    /** ISO 4217, lower case as Stripe writes it. */
    currency: text("currency").notNull(),
    state: purchaseState("state").notNull().default("pending"),
    creditsRemoved: integer("credits_removed").notNull().default(0),
    invoiceUrl: text("invoice_url"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("credit_purchases_organization").on(t.organizationId, t.createdAt),
    uniqueIndex("credit_purchases_payment_intent").on(t.paymentIntentId),
    // A pending purchase may lack both for a moment: reserved under the cap before Stripe is asked.
    check(
      "credit_purchases_source",
      sql`${t.checkoutSessionId} is not null or ${t.topUpId} is not null or ${t.state} = 'pending'`,
    ),
    check("credit_purchases_positive", sql`${t.credits} > 0 and ${t.amount} > 0`),
    check("credit_purchases_removed_range", sql`${t.creditsRemoved} between 0 and ${t.credits}`),
  ],
);

/**
 * Debits summed per organization, UTC hour, operation and token, added by debit_batch with every debit
 * written to the ledger, in its transaction (db/migrations/0015). Usage over any period reads
 * these few rows instead of every ledger row of the period; the hour not yet over is read from the
 * ledger itself, so every sum stays exactly the ledger's. '' stands for no operation or no token.
 */
export const usageHourly = pgTable(
  "usage_hourly",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    hour: timestamp("hour", { withTimezone: true, mode: "date" }).notNull(),
    operation: text("operation").notNull().default(""),
    tokenId: text("token_id").notNull().default(""),
    credits: bigint("credits", { mode: "number" }).notNull(),
    calls: integer("calls").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.hour, t.operation, t.tokenId] })],
);

// ------------------------------------------------------------------------------------------------
// OAuth for MCP clients (oidc-provider's storage): one table for every model it keeps (clients,
// grants, codes, tokens, sessions, interactions), and the signing keys of its access tokens.

export const oauthRecords = pgTable(
  "oauth_records",
  {
    /** oidc-provider's model name: Client, Grant, AuthorizationCode, AccessToken, RefreshToken, … */
    model: text("model").notNull(),
    id: text("id").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    grantId: text("grant_id"),
    userCode: text("user_code"),
    uid: text("uid"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    consumedAt: timestamp("consumed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index("oauth_records_grant").on(t.grantId),
    index("oauth_records_uid").on(t.uid),
    index("oauth_records_user_code").on(t.userCode),
    index("oauth_records_expires").on(t.expiresAt),
  ],
);

/**
 * The organization each MCP connection (an OAuth grant in oauth_records) acts for: the one the
 * person had active when they consented. No foreign key to the grant (oidc-provider's rows are
 * keyed by model and id); a binding whose grant is gone binds nothing.
 */
export const connectionOrganizations = pgTable(
  "connection_organizations",
  {
    grantId: text("grant_id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The client the grant is for (the grant's own clientId, kept here for the index below). */
    clientId: text("client_id"),
    /** How it was made: `consent` (the consent page) or `id-jag` (an identity assertion). */
    via: text("via").notNull().default("consent"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("connection_organizations_organization").on(t.organizationId, t.userId),
    // One connection per person, client and organization through identity assertions
    // (docs/enterprise-mcp.md): exchanges at once race on this index, not on a read.
    uniqueIndex("connection_organizations_id_jag")
      .on(t.organizationId, t.userId, t.clientId)
      .where(sql`${t.via} = 'id-jag'`),
    check("connection_organizations_via", sql`${t.via} in ('consent', 'id-jag')`),
  ],
);

export const oauthSigningKeys = pgTable("oauth_signing_keys", {
  kid: text("kid").primaryKey(),
  /** The private JWK (RS256). Never leaves the server; its public half is served as JWKS. */
  privateJwk: jsonb("private_jwk").$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

// ------------------------------------------------------------------------------------------------
// Abuse throttles counted across instances when there is no Redis (rate-limiter-flexible's
// Drizzle store): sign-in mails per address and per client, client registrations per client.

export const throttleCounters = pgTable("throttle_counters", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: timestamp("expire", { withTimezone: true, mode: "date" }),
});

// ------------------------------------------------------------------------------------------------
// Following markets: who follows what, what they want by e-mail, the catalogue events that notify
// them (written in the transaction that publishes or archives), in-app notifications and the
// e-mails owed. Unique keys make each notification and each e-mail exist once per person, however
// many instances fan an event out and however often a job is retried.

export const marketFollows = pgTable(
  "market_follows",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    marketId: text("market_id")
      .notNull()
      .references(() => markets.marketId),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.marketId] }), index("market_follows_market").on(t.marketId)],
);

export const notificationPreferences = pgTable("notification_preferences", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** An e-mail for each release or archiving of a followed market. */
  releaseEmails: boolean("release_emails").notNull().default(false),
  /** The weekly summary e-mail. */
  weeklySummary: boolean("weekly_summary").notNull().default(false),
  /** A one-line weekly e-mail when nothing happened (else a quiet week sends nothing). */
  weeklyQuietNote: boolean("weekly_quiet_note").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

export const catalogueEventKind = pgEnum("catalogue_event_kind", ["release_published", "market_archived"]);

export const catalogueEvents = pgTable(
  "catalogue_events",
  {
    id: serial("id").primaryKey(),
    kind: catalogueEventKind("kind").notNull(),
    marketId: text("market_id")
      .notNull()
      .references(() => markets.marketId),
    /** The release published (release_published only). */
    release: integer("release"),
    occurredAt: timestamp("occurred_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** When its followers' notifications and e-mails were written; null: still to do. */
    fannedOutAt: timestamp("fanned_out_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("catalogue_events_pending").on(t.id).where(sql`${t.fannedOutAt} is null`)],
);

export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    eventId: integer("event_id")
      .notNull()
      .references(() => catalogueEvents.id),
    content: jsonb("content").$type<StoredShape<"notificationContent">>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [unique("notifications_once").on(t.userId, t.eventId), index("notifications_user").on(t.userId, t.id)],
);

export const mailKind = pgEnum("mail_kind", [
  "notification",
  "weekly",
  "webhook_disabled",
  "low_balance",
  "credits_purchased",
  "top_up_failed",
]);

export const mailDeliveries = pgTable(
  "mail_deliveries",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** What makes the mail one per person: `event:<id>` or `weekly:<slot ISO time>`. */
    dedupeKey: text("dedupe_key").notNull(),
    recipient: text("recipient").notNull(),
    kind: mailKind("kind").notNull(),
    content: jsonb("content").$type<StoredShape<"mailContent">>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    /** An attempt in progress holds the row until this lease runs out (a crashed sender's expires). */
    claimedAt: timestamp("claimed_at", { withTimezone: true, mode: "date" }),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    unique("mail_deliveries_once").on(t.userId, t.dedupeKey),
    index("mail_deliveries_pending").on(t.id).where(sql`${t.sentAt} is null`),
  ],
);

/**
 * Webhook endpoints (Standard Webhooks): where an organization wants events sent, which events,
 * for which markets and countries. The signing secret is sealed (server/6-auth/sealed.ts): shown
 * once, readable only by this service. After a rotation the previous secret still signs until
 * `previous_secret_until`, so a receiver can switch over without losing a message.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id")
      .primaryKey()
      .$defaultFn(() => `ep_${randomId()}`),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** The event types sent here (server/1-domain/webhook-events.ts). */
    events: text("events").array().notNull(),
    /** Markets whose events are sent; empty: every market. */
    marketIds: text("market_ids").array().notNull().default(sql`'{}'::text[]`),
    /** Countries a `market.changed` event is sent for; empty: the organization's home country. */
    countries: text("countries").array().notNull().default(sql`'{}'::text[]`),
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretUntil: timestamp("previous_secret_until", { withTimezone: true, mode: "date" }),
    /** Null: enabled. Set by the owner, or by the service after sustained failure. */
    disabledAt: timestamp("disabled_at", { withTimezone: true, mode: "date" }),
    disabledReason: text("disabled_reason"),
    /** Since when every attempt has failed (null: the last attempt succeeded, or none yet). */
    failingSince: timestamp("failing_since", { withTimezone: true, mode: "date" }),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdByUserId: text("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_organization").on(t.organizationId)],
);

/**
 * One event for one endpoint: the body as signed and sent (the same bytes on every attempt, with
 * the same `webhook-id`), written once per endpoint and event by the fan-out (`dedupe_key`),
 * delivered by the queue. Claimed for an attempt like a mail delivery, so two attempts never overlap.
 */
export const webhookMessages = pgTable(
  "webhook_messages",
  {
    /** The `webhook-id`: msg_ and random characters, the receiver's key for idempotence. */
    id: text("id")
      .primaryKey()
      .$defaultFn(() => `msg_${randomId()}`),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** What makes it one per endpoint: `event:<id>`, `event:<id>:changed:<country>`, `test:<id>`. */
    dedupeKey: text("dedupe_key").notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: timestamp("claimed_at", { withTimezone: true, mode: "date" }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    /** Every retry was spent (or the endpoint was disabled) without a 2xx. */
    failedAt: timestamp("failed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    unique("webhook_messages_once").on(t.endpointId, t.dedupeKey),
    index("webhook_messages_endpoint").on(t.endpointId, t.createdAt),
    index("webhook_messages_pending").on(t.createdAt).where(sql`${t.deliveredAt} is null and ${t.failedAt} is null`),
  ],
);

/** Each attempt to deliver a message: what the receiver answered, for the delivery log. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    messageId: text("message_id")
      .notNull()
      .references(() => webhookMessages.id, { onDelete: "cascade" }),
    attemptedAt: timestamp("attempted_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** The receiver's HTTP status; null when there was none (refused address, timeout, connection). */
    status: integer("status"),
    /** Why it failed, in words (never the secret or the body). */
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    /** The first bytes of the receiver's answer, as text, for the log. */
    responseExcerpt: text("response_excerpt"),
    /** `queue` (first try and retries) or `resend` (someone asked). */
    trigger: text("trigger").notNull(),
  },
  (t) => [index("webhook_attempts_message").on(t.messageId, t.attemptedAt)],
);

export const auditActorKind = pgEnum("audit_actor_kind", ["user", "token", "operator", "system"]);

/**
 * The audit trail (docs/accounts.md, "Audit trail"): one row per change to an organization's
 * membership, roles, tokens, webhooks, connections, credits and settings, written in the change's
 * own transaction. Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE. `organization_id`
 * is deliberately no foreign key, so the trail outlives the organization it tells about.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: text("organization_id").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    actorKind: auditActorKind("actor_kind").notNull(),
    actorUserId: text("actor_user_id"),
    actorTokenId: text("actor_token_id"),
    /** The e-mail, token name or operator as they were at the time. */
    actorLabel: text("actor_label"),
    clientAddress: text("client_address"),
    userAgent: text("user_agent"),
    /** A stable dotted name (server/1-domain/audit.ts), e.g. `token.create`. */
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    /** What changed; never a secret. */
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("audit_events_organization").on(t.organizationId, t.id.desc())],
);

/**
 * Embeds (docs/embeds.md): one reading's chart, owned by an organization, shown publicly at
 * /embed/{id}, framed by any site or only by the origins it lists. `release` null: the latest release, which
 * the embed follows as new ones are published (each paid for once, see embedCharges).
 */
export const embeds = pgTable(
  "embeds",
  {
    id: text("id")
      .primaryKey()
      .$defaultFn(() => `emb_${randomId()}`),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    marketId: text("market_id").notNull(),
    /** delta, servicemax, capaindex or availability. */
    reading: text("reading").notNull(),
    /** The country engaged (null for availability, which shows every country). */
    country: text("country"),
    /** The release pinned; null: the latest. */
    release: integer("release"),
    /** map or bars (delta); bars for the rankings; grid for availability. */
    view: text("view").notNull(),
    /** auto (follows the reader's light or dark setting), light or dark. */
    theme: text("theme").notNull().default("auto"),
    /** Origins (scheme://host[:port]) allowed to frame it; empty: any site may (it is public). */
    allowedOrigins: text("allowed_origins").array().notNull().default(sql`'{}'::text[]`),
    views: bigint("views", { mode: "number" }).notNull().default(0),
    createdByUserId: text("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("embeds_organization").on(t.organizationId, t.createdAt),
    check("embeds_reading", sql`${t.reading} in ('delta', 'servicemax', 'capaindex', 'availability')`),
    check("embeds_view", sql`${t.view} in ('map', 'bars', 'grid')`),
    check("embeds_theme", sql`${t.theme} in ('auto', 'light', 'dark')`),
  ],
);

/** Each release an embed has shown, paid for once (the ledger row names `embeds.<reading>`). */
export const embedCharges = pgTable(
  "embed_charges",
  {
    embedId: text("embed_id")
      .notNull()
      .references(() => embeds.id, { onDelete: "cascade" }),
    release: integer("release").notNull(),
    credits: integer("credits").notNull(),
    chargedAt: timestamp("charged_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.embedId, t.release] })],
);

/**
 * An organization's own identity provider (docs/enterprise.md): the OpenID Connect issuer its
 * people sign in with (client id and sealed secret, server/6-auth/sealed.ts) and whose ID-JAGs its
 * MCP clients exchange for access tokens (keys from `jwks` when given inline, else the issuer's
 * published `jwks_uri`). One per organization; an issuer belongs to one organization.
 */
export const identityProviders = pgTable(
  "identity_providers",
  {
    organizationId: text("organization_id")
      .primaryKey()
      .references(() => organizations.id, { onDelete: "cascade" }),
    issuer: text("issuer").notNull().unique("identity_providers_issuer_unique"),
    clientId: text("client_id"),
    clientSecretSealed: text("client_secret_sealed"),
    /** A JSON Web Key Set given inline (`ops org idp set --jwks FILE`); null: the issuer's jwks_uri. */
    jwks: jsonb("jwks").$type<{ keys: Record<string, unknown>[] }>(),
    /** The role a person joins with on first sign-in (never owner). */
    defaultRole: membershipRole("default_role").notNull().default("member"),
    /** People of the verified domains must sign in through the IdP: no e-mail link for them. */
    requireSso: boolean("require_sso").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    check("identity_providers_client_pair", sql`(${t.clientId} is null) = (${t.clientSecretSealed} is null)`),
    check("identity_providers_default_role", sql`${t.defaultRole} <> 'owner'`),
  ],
);

/**
 * An e-mail domain an organization claims for its identity provider. It counts once verified: a
 * TXT record `_market-positioning.<domain>` holding `market-positioning-verification=<token>`.
 * A verified domain belongs to one organization (the partial unique index).
 */
export const organizationDomains = pgTable(
  "organization_domains",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    verificationToken: text("verification_token").notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.domain] }),
    uniqueIndex("organization_domains_verified").on(t.domain).where(sql`${t.verifiedAt} is not null`),
    check("organization_domains_domain_lower", sql`${t.domain} = lower(${t.domain})`),
  ],
);

/**
 * Which person an IdP subject (`sub`) is in the organization: made at the first SSO sign-in, read
 * by the ID-JAG grant. The IdP's refresh token (sealed) is what a later check refreshes to learn
 * whether the person is still there (docs/enterprise.md, "De-provisioning").
 */
export const identityLinks = pgTable(
  "identity_links",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    refreshTokenSealed: text("refresh_token_sealed"),
    /** When the IdP last confirmed the person (sign-in or refresh). */
    checkedAt: timestamp("checked_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.subject] }),
    unique("identity_links_organization_user").on(t.organizationId, t.userId),
    // Each dashboard request asks for the person's links due a recheck (server/4-identity/sso.ts).
    index("identity_links_user_checked").on(t.userId, t.checkedAt),
  ],
);

/** Every ID-JAG exchanged, by issuer and `jti`, until it expires: an assertion is used once. */
export const assertionReplays = pgTable(
  "assertion_replays",
  {
    issuer: text("issuer").notNull(),
    jti: text("jti").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.jti] }), index("assertion_replays_expires").on(t.expiresAt)],
);
