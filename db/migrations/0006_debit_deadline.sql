-- Debits with a deadline: the batch waits at most lock_timeout_ms for each organization row it
-- updates (a row held by a long transaction or a stuck script), then fails as a whole with
-- lock_not_available (55P03) and writes nothing; 0 waits as long as it takes (the CLI, tests).
-- set_config(…, true) lasts until the end of this statement's transaction, and PostgreSQL reads
-- lock_timeout when a lock wait begins, so it bounds the waits inside this very statement.
DROP FUNCTION "debit_batch"(jsonb);
--> statement-breakpoint
CREATE FUNCTION "debit_batch"("calls" jsonb, "lock_timeout_ms" integer)
RETURNS TABLE ("position" integer, "debited" boolean, "balance" integer) LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  call jsonb;
  after integer;
BEGIN
  IF lock_timeout_ms > 0 THEN
    PERFORM set_config('lock_timeout', lock_timeout_ms || 'ms', true);
  END IF;
  FOR i IN 1 .. jsonb_array_length(calls) LOOP
    call := calls -> (i - 1);
    UPDATE organizations SET credit_balance = credit_balance - (call ->> 'cost')::integer
      WHERE id = call ->> 'organizationId' AND credit_balance >= (call ->> 'cost')::integer
      RETURNING credit_balance INTO after;
    position := i;
    IF FOUND THEN
      INSERT INTO credit_ledger (organization_id, kind, amount, balance_after, operation, token_id, request_id)
        VALUES (call ->> 'organizationId', 'debit', -(call ->> 'cost')::integer, after, call ->> 'operation',
                call ->> 'tokenId', call ->> 'requestId');
      debited := true;
      balance := after;
    ELSE
      debited := false;
      SELECT credit_balance INTO balance FROM organizations WHERE id = call ->> 'organizationId';
    END IF;
    RETURN NEXT;
  END LOOP;
END;
$$;
