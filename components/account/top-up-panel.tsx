"use client";
/**
 * Automatic top-up on the credits page (docs/billing.md, "Automatic top-up"): the saved card or
 * "Save a card", the settings (threshold, pack, times a month, on/off) for owners and billing
 * members and read-only for others, whether it is armed or paused and why, the last failure with
 * what to do, and this month's top-ups.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { moneyText } from "@/server/2-formats/money";
import { count, utcMinute } from "../format";
import { useTRPC } from "../trpc";
import { ProblemAlert } from "./account-list";

interface Draft {
  enabled: boolean;
  threshold: string;
  pack: string;
  maxPerMonth: string;
}

export function TopUpPanel({ cardReturn }: { cardReturn: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const topUp = useQuery(trpc.billing.topUp.queryOptions());
  const packs = useQuery(trpc.billing.packs.queryOptions());
  const [draft, setDraft] = useState<Draft | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.billing.topUp.queryKey() });
  const save = useMutation(
    trpc.billing.setTopUp.mutationOptions({
      onSuccess: async () => {
        setDraft(null);
        await refresh();
      },
    }),
  );
  const saveCard = useMutation(
    trpc.billing.saveCard.mutationOptions({ onSuccess: (begun) => window.location.assign(begun.url) }),
  );
  const data = topUp.data;
  if (!data || !packs.data) return <ProblemAlert errors={[topUp.error, packs.error]} />;
  if (!data.available) return null;
  const firstPack = packs.data.packs[0]?.id ?? "";
  const shown: Draft = draft ?? {
    enabled: data.settings?.enabled ?? false,
    threshold: String(data.settings?.threshold ?? 1000),
    pack: data.settings?.packId ?? firstPack,
    maxPerMonth: String(data.settings?.maxPerMonth ?? 3),
  };
  const change = (patch: Partial<Draft>) => setDraft({ ...shown, ...patch });
  const pack = packs.data.packs.find((candidate) => candidate.id === shown.pack);
  const state = data.pausedReason
    ? `Paused: ${data.pausedReason}. Save the settings to turn it back on.`
    : data.armed
      ? `On: when the balance falls to ${count(data.settings?.threshold ?? 0)} credits or below, ${pack ? `${count(pack.credits)} credits are bought for ${moneyText(pack.amount, pack.currency)}` : "a pack is bought"}.`
      : !data.card
        ? "Off until a card is saved."
        : "Off.";
  return (
    <section aria-labelledby="top-up">
      <h2 id="top-up">Automatic top-up</h2>
      {cardReturn === "saved" ? (
        <p role="status" className="note">
          Card saved. It shows here as soon as Stripe confirms it.
        </p>
      ) : null}
      <p data-testid="top-up-card">
        {data.card ? `Card: ${data.card.brand ?? "card"} •••• ${data.card.last4 ?? "????"}` : "No card saved."}{" "}
        {data.canManage ? (
          <button type="button" disabled={saveCard.isPending} onClick={() => saveCard.mutate()} data-testid="save-card">
            {data.card ? "Replace the card" : "Save a card"}
          </button>
        ) : null}
      </p>
      <p data-testid="top-up-state" className={data.pausedReason ? "error" : undefined}>
        {state}
      </p>
      {data.lastFailure ? (
        <p className="note" data-testid="top-up-last-failure">
          Last failure: {data.lastFailure}
        </p>
      ) : null}
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({
            enabled: shown.enabled,
            threshold: Number(shown.threshold),
            pack: shown.pack,
            maxPerMonth: Number(shown.maxPerMonth),
          });
        }}
      >
        <fieldset disabled={!data.canManage || save.isPending}>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={shown.enabled}
              onChange={(event) => change({ enabled: event.target.checked })}
              data-testid="top-up-enabled"
            />
            On
          </label>
          <label>
            When the balance falls to (credits)
            <input
              type="number"
              min={0}
              max={1_000_000_000}
              step={1}
              required
              value={shown.threshold}
              onChange={(event) => change({ threshold: event.target.value })}
              data-testid="top-up-threshold"
            />
          </label>
          <label>
            buy
            <select value={shown.pack} onChange={(event) => change({ pack: event.target.value })}>
              {packs.data.packs.map((option) => (
                <option key={option.id} value={option.id}>
                  {count(option.credits)} credits, {moneyText(option.amount, option.currency)}
                </option>
              ))}
            </select>
          </label>
          <label>
            at most (times a month)
            <input
              type="number"
              min={1}
              max={100}
              step={1}
              required
              value={shown.maxPerMonth}
              onChange={(event) => change({ maxPerMonth: event.target.value })}
              data-testid="top-up-max"
            />
          </label>
          {data.canManage ? <button type="submit">{save.isPending ? "Saving…" : "Save"}</button> : null}
        </fieldset>
      </form>
      {data.canManage ? null : (
        <p className="hint">Only {packs.data.buyers.join(" and ")} members of the organization can change it.</p>
      )}
      <ProblemAlert errors={[save.error, saveCard.error]} />
      <p className="hint" data-testid="top-up-month">
        This month: {data.succeededThisMonth} top-up{data.succeededThisMonth === 1 ? "" : "s"}
        {data.attemptsThisMonth.length > data.succeededThisMonth
          ? `; ${data.attemptsThisMonth.length - data.succeededThisMonth} not made`
          : ""}
        .
      </p>
      {data.attemptsThisMonth.length > 0 ? (
        <ul data-testid="top-up-attempts">
          {data.attemptsThisMonth.slice(0, 10).map((attempt) => (
            <li key={attempt.id}>
              {utcMinute(attempt.createdAt)} UTC: {attempt.state}
              {attempt.outcome ? ` (${attempt.outcome})` : ""}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
