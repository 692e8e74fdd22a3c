-- debit_batch as 0024 left it, with the same answers and the same rows written, doing less per
-- call: an organization's row is locked and read once for each run of its calls in the batch (a
-- batch is one organization's: server/accounts/credits.ts), every call judged against the balance
-- the calls before it left, the balance written once at the end of the run, and the ledger rows
-- written in one statement, in the calls' order (so their ids follow the calls, as before). Before,
-- each call updated the row (a new row version per call) and inserted its ledger row alone.
--
-- The lock is FOR NO KEY UPDATE, what the UPDATE took: inserts elsewhere that reference the
-- organization (a grant's ledger row, a membership) are not blocked by it. A crossing of the
-- low-balance threshold names its mail by its ledger row's id, so the rows so far are written
-- first; a crossing is rare (once per threshold crossed).
DROP FUNCTION "debit_batch"(jsonb, integer);
--> statement-breakpoint
CREATE FUNCTION "debit_batch"("calls" jsonb, "lock_timeout_ms" integer)
RETURNS TABLE ("position" integer, "debited" boolean, "balance" integer, "mails" integer[], "top_up" uuid) LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  call jsonb;
  cost integer;
  org text;
  -- The organization whose row this transaction holds, and its balance as the calls so far left it.
  held text := NULL;
  held_found boolean := false;
  held_balance integer;
  held_start integer;
  threshold integer;
  top_up_at integer;
  org_name text;
  after integer;
  ledger_id bigint;
  -- Ledger rows not yet written, in the calls' order.
  owed_org text[] := '{}';
  owed_cost integer[] := '{}';
  owed_after integer[] := '{}';
  owed_operation text[] := '{}';
  owed_token text[] := '{}';
  owed_request text[] := '{}';
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
    IF held IS DISTINCT FROM org THEN
      IF held_found AND held_balance <> held_start THEN
        UPDATE organizations o SET credit_balance = held_balance WHERE o.id = held;
      END IF;
      SELECT o.credit_balance, o.low_balance_threshold, o.name, o.top_up_threshold
        INTO held_balance, threshold, org_name, top_up_at
        FROM organizations o WHERE o.id = org
        FOR NO KEY UPDATE;
      held_found := FOUND;
      held_start := held_balance;
      held := org;
    END IF;
    position := i;
    mails := '{}';
    top_up := NULL;
    IF held_found AND held_balance >= cost THEN
      held_balance := held_balance - cost;
      after := held_balance;
      owed_org := owed_org || org;
      owed_cost := owed_cost || cost;
      owed_after := owed_after || after;
      owed_operation := owed_operation || (call ->> 'operation');
      owed_token := owed_token || (call ->> 'tokenId');
      owed_request := owed_request || (call ->> 'requestId');
      spent_org := spent_org || org;
      spent_operation := spent_operation || (call ->> 'operation');
      spent_token := spent_token || (call ->> 'tokenId');
      spent_cost := spent_cost || cost;
      debited := true;
      balance := after;
      -- From above the threshold to at or below it: this debit, and no other, crossed.
      IF threshold > 0 AND after <= threshold AND after + cost > threshold THEN
        -- Its mail is named by its ledger row: the rows so far (this one last) are written now.
        WITH written AS (
          INSERT INTO credit_ledger (organization_id, kind, amount, balance_after, operation, token_id, request_id)
          SELECT x.org, 'debit', -x.cost, x.after, x.operation, x.token, x.request
            FROM unnest(owed_org, owed_cost, owed_after, owed_operation, owed_token, owed_request)
                 WITH ORDINALITY AS x(org, cost, after, operation, token, request, n)
            ORDER BY x.n
          RETURNING credit_ledger.id)
        SELECT max(written.id) INTO ledger_id FROM written;
        owed_org := '{}'; owed_cost := '{}'; owed_after := '{}';
        owed_operation := '{}'; owed_token := '{}'; owed_request := '{}';
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
      -- The same crossing of the armed top-up threshold schedules one attempt. The partial unique
      -- index keeps one open per organization, so a crossing while one is open (another batch's, or
      -- another instance's) schedules nothing: the open one will buy the pack.
      IF top_up_at IS NOT NULL AND after <= top_up_at AND after + cost > top_up_at THEN
        INSERT INTO top_up_attempts (organization_id) VALUES (org)
          ON CONFLICT (organization_id) WHERE state IN ('scheduled', 'charging') DO NOTHING
          RETURNING top_up_attempts.id INTO top_up;
      END IF;
    ELSE
      debited := false;
      -- The balance the calls before it left (null: no such organization), as a read of the row would say.
      balance := held_balance;
    END IF;
    RETURN NEXT;
  END LOOP;
  IF held_found AND held_balance <> held_start THEN
    UPDATE organizations o SET credit_balance = held_balance WHERE o.id = held;
  END IF;
  IF cardinality(owed_org) > 0 THEN
    INSERT INTO credit_ledger (organization_id, kind, amount, balance_after, operation, token_id, request_id)
    SELECT x.org, 'debit', -x.cost, x.after, x.operation, x.token, x.request
      FROM unnest(owed_org, owed_cost, owed_after, owed_operation, owed_token, owed_request)
           WITH ORDINALITY AS x(org, cost, after, operation, token, request, n)
      ORDER BY x.n;
  END IF;
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
