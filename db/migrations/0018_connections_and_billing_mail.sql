-- Two parts of organizations as teams.
--
-- MCP connections belong to an organization (docs/accounts.md, "MCP connections"): each OAuth
-- grant made on the consent page is bound to the organization the person had active then, and
-- acts for it alone. Grants are oidc-provider's rows in oauth_records (no foreign key to them:
-- their key is (model, id)); a binding whose grant is gone binds nothing. Removing a person from
-- an organization deletes the grants bound to it.
CREATE TABLE "connection_organizations" (
	"grant_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connection_organizations" ADD CONSTRAINT "connection_organizations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_organizations" ADD CONSTRAINT "connection_organizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connection_organizations_organization" ON "connection_organizations" USING btree ("organization_id","user_id");--> statement-breakpoint
-- The low-balance warning goes to those who look after credits: owners and, since 0017, billing
-- members (docs/accounts.md, "Roles"). debit_batch as 0015 left it, but for whom it writes to.
-- The role is compared as text: 0017's enum values may not be used in the transaction adding them.
CREATE OR REPLACE FUNCTION "debit_batch"("calls" jsonb, "lock_timeout_ms" integer)
RETURNS TABLE ("position" integer, "debited" boolean, "balance" integer, "mails" integer[]) LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  call jsonb;
  cost integer;
  org text;
  after integer;
  threshold integer;
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
      RETURNING o.credit_balance, o.low_balance_threshold, o.name INTO after, threshold, org_name;
    position := i;
    mails := '{}';
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
