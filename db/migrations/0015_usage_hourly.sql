-- Usage without reading every ledger row (docs/performance.md): debits summed per organization,
-- UTC hour, operation and token in usage_hourly, kept by a trigger on credit_ledger in the debit's
-- own transaction, so a sum is never ahead of or behind the ledger. Filled from the ledger as it
-- stands; the index by time serves the hour not yet over, which usage reads from the ledger.
CREATE TABLE "usage_hourly" (
	"organization_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"operation" text DEFAULT '' NOT NULL,
	"token_id" text DEFAULT '' NOT NULL,
	"credits" bigint NOT NULL,
	"calls" integer NOT NULL,
	CONSTRAINT "usage_hourly_organization_id_hour_operation_token_id_pk" PRIMARY KEY("organization_id","hour","operation","token_id")
);
--> statement-breakpoint
ALTER TABLE "usage_hourly" ADD CONSTRAINT "usage_hourly_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_ledger_organization_created" ON "credit_ledger" USING btree ("organization_id","created_at");
--> statement-breakpoint
INSERT INTO "usage_hourly" ("organization_id", "hour", "operation", "token_id", "credits", "calls")
  SELECT organization_id, date_trunc('hour', created_at, 'UTC'), coalesce(operation, ''), coalesce(token_id, ''),
         sum(-amount), count(*)
    FROM credit_ledger WHERE kind = 'debit'
    GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE FUNCTION "usage_hourly_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_hourly (organization_id, hour, operation, token_id, credits, calls)
    VALUES (NEW.organization_id, date_trunc('hour', NEW.created_at, 'UTC'), coalesce(NEW.operation, ''),
            coalesce(NEW.token_id, ''), -NEW.amount, 1)
    ON CONFLICT (organization_id, hour, operation, token_id)
    DO UPDATE SET credits = usage_hourly.credits + EXCLUDED.credits, calls = usage_hourly.calls + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "credit_ledger_usage_hourly" AFTER INSERT ON "credit_ledger"
  FOR EACH ROW WHEN (NEW.kind = 'debit') EXECUTE FUNCTION usage_hourly_add();
