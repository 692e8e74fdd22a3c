-- The audit trail (docs/accounts.md, "Audit trail"): one row per change, written in the change's
-- own transaction. organization_id is no foreign key on purpose: the trail outlives the
-- organization (a cascade would also meet the trigger below). Append-only at the database itself,
-- whatever the client: UPDATE, DELETE and TRUNCATE are refused.
CREATE TYPE "public"."audit_actor_kind" AS ENUM('user', 'token', 'operator', 'system');--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_kind" "audit_actor_kind" NOT NULL,
	"actor_user_id" text,
	"actor_token_id" text,
	"actor_label" text,
	"client_address" text,
	"user_agent" text,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_events_organization" ON "audit_events" USING btree ("organization_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE FUNCTION "refuse_audit_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP
    USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "refuse_audit_change"();--> statement-breakpoint
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "refuse_audit_change"();
