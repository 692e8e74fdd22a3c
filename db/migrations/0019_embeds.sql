-- Embeds (docs/embeds.md): an organization's public charts of one reading, and each release an
-- embed has shown, paid for once (embed_charges: one row per embed and release).
CREATE TABLE "embed_charges" (
	"embed_id" text NOT NULL,
	"release" integer NOT NULL,
	"credits" integer NOT NULL,
	"charged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "embed_charges_embed_id_release_pk" PRIMARY KEY("embed_id","release")
);
--> statement-breakpoint
CREATE TABLE "embeds" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"market_id" text NOT NULL,
	"reading" text NOT NULL,
	"country" text,
	"release" integer,
	"view" text NOT NULL,
	"theme" text DEFAULT 'light' NOT NULL,
	"allowed_origins" text[] DEFAULT '{}'::text[] NOT NULL,
	"views" bigint DEFAULT 0 NOT NULL,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "embeds_reading" CHECK ("embeds"."reading" in ('delta', 'servicemax', 'capaindex', 'availability')),
	CONSTRAINT "embeds_view" CHECK ("embeds"."view" in ('map', 'bars', 'grid')),
	CONSTRAINT "embeds_theme" CHECK ("embeds"."theme" in ('light', 'dark'))
);
--> statement-breakpoint
ALTER TABLE "embed_charges" ADD CONSTRAINT "embed_charges_embed_id_embeds_id_fk" FOREIGN KEY ("embed_id") REFERENCES "public"."embeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "embeds" ADD CONSTRAINT "embeds_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "embeds" ADD CONSTRAINT "embeds_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "embeds_organization" ON "embeds" USING btree ("organization_id","created_at");