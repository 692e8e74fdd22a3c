-- The low-balance warning (docs/accounts.md): each organization's threshold (0: off), and the
-- debit that takes the balance from above it to at or below it owes each owner one e-mail, written
-- by the same statement, in the same transaction, as the debit itself. Debits of one organization
-- queue on its row, so of any number of concurrent debits exactly one crosses; topping up above
-- the threshold lets the next debit cross again. Each e-mail is keyed by the crossing debit's
-- ledger row (mail_deliveries_once), and its id comes back in `mails` for the caller to queue.
ALTER TYPE "public"."mail_kind" ADD VALUE 'low_balance';--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "low_balance_threshold" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_low_balance_threshold_range" CHECK ("organizations"."low_balance_threshold" between 0 and 1000000000);--> statement-breakpoint
DROP FUNCTION "debit_batch"(jsonb, integer);
--> statement-breakpoint
CREATE FUNCTION "debit_batch"("calls" jsonb, "lock_timeout_ms" integer)
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
            WHERE m.organization_id = org AND m.role = 'owner' AND u.email IS NOT NULL
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
END;
$$;
