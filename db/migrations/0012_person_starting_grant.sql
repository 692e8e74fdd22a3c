-- The starting grant once per person, and who created each organization (docs/accounts.md).
ALTER TABLE "organizations" ADD COLUMN "created_by_user_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "starting_grant_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organizations_created_by" ON "organizations" USING btree ("created_by_user_id");--> statement-breakpoint
-- Organizations made before this: their owner made them, and got the grant if one was written.
UPDATE "organizations" o SET "created_by_user_id" = m."user_id" FROM "memberships" m WHERE m."organization_id" = o."id" AND m."role" = 'owner' AND o."created_by_user_id" IS NULL;--> statement-breakpoint
UPDATE "users" u SET "starting_grant_at" = g."at" FROM (SELECT o."created_by_user_id" AS "user_id", min(l."created_at") AS "at" FROM "credit_ledger" l JOIN "organizations" o ON o."id" = l."organization_id" WHERE l."kind" = 'grant' AND l."note" = 'starting grant' AND o."created_by_user_id" IS NOT NULL GROUP BY 1) g WHERE g."user_id" = u."id";
