"use client";
/**
 * The monthly purchase cap (docs/billing.md, "Spend within limits"): what applies and what this
 * month took, for everyone who reads credits; an owner lowers it below the operator's, or gives
 * the operator's back by leaving the field empty. The server judges the value.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { count } from "../format";
import { useTRPC } from "../trpc";
import { ProblemAlert } from "./account-list";

const credits = (value: number) => `${count(value)} credits`;

export function PurchaseCap() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cap = useQuery(trpc.billing.cap.queryOptions());
  const [draft, setDraft] = useState<string | null>(null);
  const save = useMutation(
    trpc.billing.setCap.mutationOptions({
      onSuccess: () => {
        setDraft(null);
        return queryClient.invalidateQueries({ queryKey: trpc.billing.cap.queryKey() });
      },
    }),
  );
  if (!cap.data) return <ProblemAlert errors={[cap.error]} />;
  const value = draft ?? (cap.data.own === null ? "" : String(cap.data.own));
  return (
    <section aria-labelledby="purchase-cap">
      <h3 id="purchase-cap">Monthly purchase cap</h3>
      <p data-testid="purchase-cap-state">
        {cap.data.effective === 0
          ? `No cap. Bought this month: ${credits(cap.data.thisMonth)}.`
          : `At most ${credits(cap.data.effective)} a month (UTC) — ${credits(cap.data.thisMonth)} bought or being bought this month.`}{" "}
        {cap.data.own === null ? "This is the service's cap." : "The owners set it below the service's cap."}
      </p>
      {cap.data.canLower ? (
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate({ credits: value.trim() === "" ? null : Number(value) });
          }}
        >
          <label>
            Own cap (credits a month; empty: the service's)
            <input
              type="number"
              name="cap"
              min={0}
              max={cap.data.operator || 1_000_000_000}
              step={1}
              inputMode="numeric"
              value={value}
              onChange={(event) => setDraft(event.target.value)}
              data-testid="purchase-cap-input"
            />
          </label>
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save cap"}
          </button>
        </form>
      ) : (
        <p className="hint">Only an owner of the organization can lower it.</p>
      )}
      <ProblemAlert errors={[save.error]} />
    </section>
  );
}
