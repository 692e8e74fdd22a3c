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
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_purchase_cap_range" CHECK ("organizations"."purchase_cap_credits" is null or "organizations"."purchase_cap_credits" >= 0);