-- Credit packs bought by card through Stripe Checkout (docs/billing.md): each organization's Stripe
-- customer, each checkout session as a purchase, and the ledger kinds purchase (> 0), refund and
-- dispute (< 0), which name the purchase and the Stripe object. A refund or dispute may take back
-- credits already spent, so the balance may now go below zero; debits still need balance >= cost.
-- The sign check compares the kind as text: new enum values may not be used in this transaction.
CREATE TYPE "public"."purchase_state" AS ENUM('pending', 'paid', 'failed', 'refunded', 'partially_refunded', 'disputed');--> statement-breakpoint
ALTER TYPE "public"."ledger_kind" ADD VALUE 'purchase';--> statement-breakpoint
ALTER TYPE "public"."ledger_kind" ADD VALUE 'refund';--> statement-breakpoint
ALTER TYPE "public"."ledger_kind" ADD VALUE 'dispute';--> statement-breakpoint
ALTER TYPE "public"."mail_kind" ADD VALUE 'credits_purchased';--> statement-breakpoint
CREATE TABLE "billing_customers" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"stripe_customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_customers_stripe_customer_id_unique" UNIQUE("stripe_customer_id")
);
--> statement-breakpoint
CREATE TABLE "credit_purchases" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"checkout_session_id" text NOT NULL,
	"payment_intent_id" text,
	"charge_id" text,
	"credits" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"state" "purchase_state" DEFAULT 'pending' NOT NULL,
	"credits_removed" integer DEFAULT 0 NOT NULL,
	"invoice_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "credit_purchases_checkout_session_id_unique" UNIQUE("checkout_session_id"),
	CONSTRAINT "credit_purchases_positive" CHECK ("credit_purchases"."credits" > 0 and "credit_purchases"."amount" > 0),
	CONSTRAINT "credit_purchases_removed_range" CHECK ("credit_purchases"."credits_removed" between 0 and "credit_purchases"."credits")
);
--> statement-breakpoint
ALTER TABLE "credit_ledger" DROP CONSTRAINT "credit_ledger_sign";--> statement-breakpoint
ALTER TABLE "organizations" DROP CONSTRAINT "organizations_balance_not_negative";--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "purchase_id" text;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "stripe_id" text;--> statement-breakpoint
ALTER TABLE "billing_customers" ADD CONSTRAINT "billing_customers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_purchases" ADD CONSTRAINT "credit_purchases_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_purchases_organization" ON "credit_purchases" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_purchases_payment_intent" ON "credit_purchases" USING btree ("payment_intent_id");--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_sign" CHECK (("credit_ledger"."kind"::text in ('debit', 'refund', 'dispute') and "credit_ledger"."amount" < 0) or ("credit_ledger"."kind"::text in ('grant', 'purchase') and "credit_ledger"."amount" > 0) or "credit_ledger"."kind"::text = 'adjustment');