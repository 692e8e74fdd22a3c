CREATE TYPE "public"."market_status" AS ENUM('listed', 'archived');--> statement-breakpoint
CREATE TABLE "controls" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"framework" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "geographies" (
	"country" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "geographies_country_iso" CHECK ("geographies"."country" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "geography_controls" (
	"country" text NOT NULL,
	"control_id" text NOT NULL,
	CONSTRAINT "geography_controls_country_control_id_pk" PRIMARY KEY("country","control_id")
);
--> statement-breakpoint
CREATE TABLE "markets" (
	"market_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"status" "market_status" DEFAULT 'listed' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "release_country_results" (
	"release_id" integer NOT NULL,
	"country" text NOT NULL,
	"result" jsonb NOT NULL,
	CONSTRAINT "release_country_results_release_id_country_pk" PRIMARY KEY("release_id","country")
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"id" serial PRIMARY KEY NOT NULL,
	"market_id" text NOT NULL,
	"release" integer NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"methodology_version" text NOT NULL,
	"methodology" text NOT NULL,
	"material" boolean NOT NULL,
	"notes" text NOT NULL,
	"definition_sha256" text NOT NULL,
	"definition" jsonb NOT NULL,
	"controls" jsonb NOT NULL,
	"geographies" jsonb NOT NULL,
	"dimensions" jsonb NOT NULL,
	"products" jsonb NOT NULL,
	CONSTRAINT "releases_market_release" UNIQUE("market_id","release"),
	CONSTRAINT "releases_release_positive" CHECK ("releases"."release" > 0)
);
--> statement-breakpoint
ALTER TABLE "geography_controls" ADD CONSTRAINT "geography_controls_country_geographies_country_fk" FOREIGN KEY ("country") REFERENCES "public"."geographies"("country") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geography_controls" ADD CONSTRAINT "geography_controls_control_id_controls_id_fk" FOREIGN KEY ("control_id") REFERENCES "public"."controls"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_country_results" ADD CONSTRAINT "release_country_results_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_market_id_markets_market_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("market_id") ON DELETE no action ON UPDATE no action;