-- Automatic top-up and the owner's purchase cap (docs/billing.md): the settings and each attempt
-- (at most one open per organization), the saved card, the armed threshold on the organization row
-- (debit_batch reads it from the row it already updates), purchases paid by a PaymentIntent alone.
CREATE TYPE "public"."top_up_state" AS ENUM('scheduled', 'charging', 'succeeded', 'failed', 'skipped');--> statement-breakpoint
ALTER TYPE "public"."mail_kind" ADD VALUE 'top_up_failed';--> statement-breakpoint
CREATE TABLE "top_up_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"state" "top_up_state" DEFAULT 'scheduled' NOT NULL,
	"payment_intent_id" text,
	"outcome" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "top_up_settings" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"threshold" integer NOT NULL,
	"pack_id" text NOT NULL,
	"max_per_month" integer NOT NULL,
	"failures_in_row" integer DEFAULT 0 NOT NULL,
	"paused_reason" text,
	"last_failure" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "top_up_settings_threshold_range" CHECK ("top_up_settings"."threshold" between 0 and 1000000000),
	CONSTRAINT "top_up_settings_max_range" CHECK ("top_up_settings"."max_per_month" between 1 and 100)
);
--> statement-breakpoint
DROP INDEX "credit_purchases_payment_intent";--> statement-breakpoint
ALTER TABLE "credit_purchases" ALTER COLUMN "checkout_session_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_customers" ADD COLUMN "payment_method_id" text;--> statement-breakpoint
ALTER TABLE "billing_customers" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "billing_customers" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "credit_purchases" ADD COLUMN "top_up_id" uuid;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "top_up_threshold" integer;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "purchase_cap_credits" integer;--> statement-breakpoint
ALTER TABLE "top_up_attempts" ADD CONSTRAINT "top_up_attempts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "top_up_settings" ADD CONSTRAINT "top_up_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "top_up_attempts_one_open" ON "top_up_attempts" USING btree ("organization_id") WHERE "top_up_attempts"."state" in ('scheduled', 'charging');--> statement-breakpoint
CREATE INDEX "top_up_attempts_organization" ON "top_up_attempts" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_purchases_payment_intent" ON "credit_purchases" USING btree ("payment_intent_id");--> statement-breakpoint
ALTER TABLE "credit_purchases" ADD CONSTRAINT "credit_purchases_top_up_id_unique" UNIQUE("top_up_id");--> statement-breakpoint
ALTER TABLE "credit_purchases" ADD CONSTRAINT "credit_purchases_source" CHECK ("credit_purchases"."checkout_session_id" is not null or "credit_purchases"."top_up_id" is not null or "credit_purchases"."state" = 'pending');--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_top_up_threshold_range" CHECK ("organizations"."top_up_threshold" is null or "organizations"."top_up_threshold" between 0 and 1000000000);--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_purchase_cap_range" CHECK ("organizations"."purchase_cap_credits" is null or "organizations"."purchase_cap_credits" >= 0);--> statement-breakpoint
-- debit_batch as 0018 left it, and: the debit that crosses the armed top-up threshold (the row it
-- updates carries it, so the metered path reads nothing more) schedules an attempt and returns its id.
DROP FUNCTION "debit_batch"(jsonb, integer);
--> statement-breakpoint
CREATE FUNCTION "debit_batch"("calls" jsonb, "lock_timeout_ms" integer)
RETURNS TABLE ("position" integer, "debited" boolean, "balance" integer, "mails" integer[], "top_up" uuid) LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  call jsonb;
  cost integer;
  org text;
  after integer;
  threshold integer;
  top_up_at integer;
  org_name text;
  ledger_id bigint;
  -- What the batch debited, to add to the hours' sums at the end (created_at is now(): one hour).
  spent_org text[] := '{}';
  spent_operation text[] := '{}';
  spent_token text[] := '{}';
  spent_cost integer[] := '{}';
BEGIN
  IF lock_timeout_ms > 0 THEN
    PERFORM set_config('lock_timeout', lock_timeout_ms || 'ms', true);
  END IF;
  FOR i IN 1 .. jsonb_array_length(calls) LOOP
    call := calls -> (i - 1);
    cost := (call ->> 'cost')::integer;
    org := call ->> 'organizationId';
    UPDATE organizations o SET credit_balance = o.credit_balance - cost
      WHERE o.id = org AND o.credit_balance >= cost
      RETURNING o.credit_balance, o.low_balance_threshold, o.name, o.top_up_threshold
        INTO after, threshold, org_name, top_up_at;
    position := i;
    mails := '{}';
    top_up := NULL;
    IF FOUND THEN
      INSERT INTO credit_ledger (organization_id, kind, amount, balance_after, operation, token_id, request_id)
        VALUES (org, 'debit', -cost, after, call ->> 'operation', call ->> 'tokenId', call ->> 'requestId')
        RETURNING credit_ledger.id INTO ledger_id;
      spent_org := spent_org || org;
      spent_operation := spent_operation || (call ->> 'operation');
      spent_token := spent_token || (call ->> 'tokenId');
      spent_cost := spent_cost || cost;
      debited := true;
      balance := after;
      -- From above the threshold to at or below it: this debit, and no other, crossed.
      IF threshold > 0 AND after <= threshold AND after + cost > threshold THEN
        WITH owed AS (
          INSERT INTO mail_deliveries (user_id, dedupe_key, recipient, kind, content)
          SELECT m.user_id, 'low-balance:' || org || ':' || ledger_id, u.email, 'low_balance',
                 jsonb_build_object('kind', 'low_balance', 'organizationId', org, 'organizationName', org_name,
                                    'balance', after, 'threshold', threshold, 'crossedAt',
                                    to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
            FROM memberships m JOIN users u ON u.id = m.user_id
            WHERE m.organization_id = org AND m.role::text IN ('owner', 'billing') AND u.email IS NOT NULL
          ON CONFLICT DO NOTHING
          RETURNING mail_deliveries.id)
        SELECT coalesce(array_agg(owed.id ORDER BY owed.id), '{}') INTO mails FROM owed;
      END IF;
      -- The same crossing of the armed top-up threshold schedules one attempt. The partial unique
      -- index keeps one open per organization, so a crossing while one is open (another batch's, or
      -- another instance's) schedules nothing: the open one will buy the pack.
      IF top_up_at IS NOT NULL AND after <= top_up_at AND after + cost > top_up_at THEN
        INSERT INTO top_up_attempts (organization_id) VALUES (org)
          ON CONFLICT (organization_id) WHERE state IN ('scheduled', 'charging') DO NOTHING
          RETURNING top_up_attempts.id INTO top_up;
      END IF;
    ELSE
      debited := false;
      SELECT o.credit_balance INTO balance FROM organizations o WHERE o.id = org;
    END IF;
    RETURN NEXT;
  END LOOP;
  -- The batch's debits added to their hours' sums at once: one statement per batch. Only the
  -- holder of an organization's row lock (taken above) writes its sums, so batches never deadlock here.
  IF cardinality(spent_org) > 0 THEN
    INSERT INTO usage_hourly (organization_id, hour, operation, token_id, credits, calls)
      SELECT x.org, date_trunc('hour', now(), 'UTC'), coalesce(x.operation, ''), coalesce(x.token, ''),
             sum(x.cost), count(*)
        FROM unnest(spent_org, spent_operation, spent_token, spent_cost) AS x(org, operation, token, cost)
        GROUP BY 1, 2, 3, 4
    ON CONFLICT (organization_id, hour, operation, token_id)
    DO UPDATE SET credits = usage_hourly.credits + EXCLUDED.credits, calls = usage_hourly.calls + EXCLUDED.calls;
  END IF;
END;
$$;
