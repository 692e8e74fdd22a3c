"use client";
/** The active organization's credits: balance, prices, usage per day and the ledger, page by page. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type ReactNode, useState } from "react";
import { TableWrap } from "@/components/ui/table-wrap";
import { count, creditChange, credits, windowText } from "../format";
import { useTRPC } from "../trpc";
import { ProblemAlert } from "./account-list";
import { UsageChart } from "./usage-chart";

const PAGE = 25;

/**
 * The low-balance warning's threshold: what it does, and a form to change it (for an owner). The
 * server judges the value; a refused one shows its problem. Saving refreshes the header.
 */
function LowBalanceSettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const current = useQuery(trpc.credits.lowBalance.queryOptions());
  const [draft, setDraft] = useState<string | null>(null);
  const save = useMutation(
    trpc.credits.setLowBalanceThreshold.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.credits.lowBalance.queryKey(), saved);
        setDraft(null);
        router.refresh();
      },
    }),
  );
  const value = draft ?? (current.data ? String(current.data.threshold) : "");
  return (
    <section aria-labelledby="low-balance">
      <h2 id="low-balance">Low-balance warning</h2>
      <p className="note">
        When the balance is at or below this many credits, the header shows a warning next to it, and each owner and
        billing member of the organization gets one e-mail when a call takes the balance down to it — one per crossing:
        another only after the balance has been above it again. 0 turns the warning off.
      </p>
      {current.data ? (
        <p data-testid="low-balance-state">
          {current.data.threshold === 0
            ? "The warning is off."
            : current.data.low
              ? `The balance is low: ${credits(current.data.balance)}, at or below ${credits(current.data.threshold)}.`
              : `Warning at ${credits(current.data.threshold)} or less.`}
        </p>
      ) : null}
      {current.data?.canChange ? (
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate({ threshold: value.trim() === "" ? Number.NaN : Number(value) });
          }}
        >
          <label>
            Warn at or below (credits)
            <input
              type="number"
              name="threshold"
              min={0}
              max={1_000_000_000}
              step={1}
              inputMode="numeric"
              required
              value={value}
              onChange={(event) => setDraft(event.target.value)}
              data-testid="low-balance-threshold"
            />
          </label>
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save"}
          </button>
        </form>
      ) : current.data ? (
        <p className="hint">Only owners and billing members of the organization can change it.</p>
      ) : null}
      <ProblemAlert errors={[save.error]} />
      {save.isSuccess && draft === null ? (
        <p role="status" className="hint">
          Saved.
        </p>
      ) : null}
    </section>
  );
}

/** `buying`: how more credits come (packs, purchases), shown right under the balance it tops up. */
export function CreditsView({ buying }: { buying?: ReactNode }) {
  const trpc = useTRPC();
  const summary = useQuery(trpc.credits.summary.queryOptions());
  const usage = useQuery(trpc.credits.usage.queryOptions({ days: 30 }));
  const ledger = useInfiniteQuery(
    trpc.credits.ledger.infiniteQueryOptions(
      { limit: PAGE },
      { initialCursor: undefined, getNextPageParam: (page) => page.nextBefore ?? undefined },
    ),
  );
  const error = summary.error ?? usage.error ?? ledger.error;
  return (
    <>
      <ProblemAlert errors={[error]} />
      <section className="cards">
        <div className="card">
          <span className="label">Balance</span>
          <span className="figure" data-testid="credit-balance">
            {summary.data ? count(summary.data.balance) : "…"}
          </span>
          <span className="hint">credits</span>
        </div>
        <div className="card">
          <span className="label">Rate limit</span>
          <span className="figure">{summary.data ? count(summary.data.rateLimit) : "…"}</span>
          <span className="hint">
            requests per {summary.data ? windowText(summary.data.rateLimitWindowSeconds) : "window"}, for the whole
            organization
          </span>
        </div>
      </section>
      <p className="note">
        Reading market data in the dashboard does not use credits; credits meter the API and MCP. A call that fails, or
        answers 304 Not Modified, costs nothing.
      </p>

      {buying}

      <LowBalanceSettings />

      <section aria-labelledby="prices">
        <h2 id="prices">Prices</h2>
        <TableWrap label="Prices">
          <table>
            <thead>
              <tr>
                <th scope="col">Operation</th>
                <th scope="col" className="num">
                  Credits per call
                </th>
                <th scope="col">Scope</th>
              </tr>
            </thead>
            <tbody>
              {summary.data?.prices.map((p) => (
                <tr key={p.operation}>
                  <td data-label="Operation">
                    <code>{p.operation}</code>
                  </td>
                  <td className="num" data-label="Credits per call">
                    {p.credits}
                  </td>
                  <td data-label="Scope">{p.scope ?? "any valid token"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </section>

      <section aria-labelledby="usage">
        <h2 id="usage">Usage, last 30 days</h2>
        {usage.data ? <UsageChart days={usage.data} /> : <p>Loading…</p>}
      </section>

      <section aria-labelledby="ledger">
        <h2 id="ledger">Ledger</h2>
        <TableWrap label="Ledger">
          <table>
            <thead>
              <tr>
                <th scope="col">Time (UTC)</th>
                <th scope="col">Kind</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col" className="num">
                  Balance after
                </th>
                <th scope="col">Operation</th>
                <th scope="col">Token</th>
                <th scope="col">Request</th>
                <th scope="col">Note</th>
              </tr>
            </thead>
            <tbody>
              {ledger.data?.pages
                .flatMap((page) => page.entries)
                .map((entry) => (
                  <tr key={entry.id} data-testid="ledger-row" data-kind={entry.kind}>
                    <td data-label="Time (UTC)">
                      {new Date(entry.createdAt).toISOString().slice(0, 19).replace("T", " ")}
                    </td>
                    <td data-label="Kind">{entry.kind}</td>
                    <td className="num" data-label="Amount">
                      {creditChange(entry.amount)}
                    </td>
                    <td className="num" data-label="Balance after">
                      {entry.balanceAfter}
                    </td>
                    <td data-label="Operation">{entry.operation ? <code>{entry.operation}</code> : null}</td>
                    <td data-label="Token">{entry.tokenId ? <code>{entry.tokenId}</code> : null}</td>
                    <td data-label="Request">
                      {entry.requestId ? <code className="small">{entry.requestId}</code> : null}
                    </td>
                    <td data-label="Note">{entry.note}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </TableWrap>
        {ledger.isPending ? <p>Loading…</p> : null}
        {ledger.hasNextPage ? (
          <button
            type="button"
            className="secondary"
            onClick={() => ledger.fetchNextPage()}
            disabled={ledger.isFetchingNextPage}
          >
            {ledger.isFetchingNextPage ? "Loading…" : "Older entries"}
          </button>
        ) : null}
      </section>
    </>
  );
}
