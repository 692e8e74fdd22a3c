CREATE TABLE "oauth_records" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oauth_records_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE TABLE "oauth_signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "oauth_records_grant" ON "oauth_records" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_records_uid" ON "oauth_records" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "oauth_records_user_code" ON "oauth_records" USING btree ("user_code");--> statement-breakpoint
CREATE INDEX "oauth_records_expires" ON "oauth_records" USING btree ("expires_at");