-- Debits in batches (group commit): one statement debits many calls, each exactly as if alone and
-- in order: a call is debited only if the balance, after the calls before it, still covers it, and
-- each debit writes its ledger row with the balance after it. One statement, one transaction:
-- all of a batch's rows commit together or none do. `calls` is a JSON array of
-- {"organizationId", "cost", "operation", "tokenId", "requestId"}; rows come back by position (1…).
CREATE FUNCTION "debit_batch"("calls" jsonb)
RETURNS TABLE ("position" integer, "debited" boolean, "balance" integer) LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  call jsonb;
  after integer;
BEGIN
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
