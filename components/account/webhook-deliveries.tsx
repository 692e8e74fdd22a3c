"use client";
/**
 * One endpoint's delivery log: each message, newest first, with every attempt's status code,
 * time and the start of the receiver's answer; a message can be resent (same webhook-id).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCursorPages } from "@/components/ui/cursor-pages";
import { TableWrap } from "@/components/ui/table-wrap";
import { utcMinute } from "../format";
import { problemText, useTRPC } from "../trpc";
import { ProblemAlert } from "./account-list";

function outcome(entry: { deliveredAt: string | Date | null; failedAt: string | Date | null; attempts: number }) {
  if (entry.deliveredAt) return "Delivered";
  if (entry.failedAt) return "Failed";
  return entry.attempts === 0 ? "Queued" : "Retrying";
}

export function WebhookDeliveries({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pages = useCursorPages<string>();
  const cursor = pages.cursor;
  const log = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ endpointId, ...(cursor ? { cursor } : {}) }),
    refetchInterval: 5000,
  });
  const resend = useMutation(
    trpc.webhooks.resend.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey() }),
    }),
  );

  if (log.error)
    return (
      <p role="alert" className="error">
        {problemText(log.error)}
      </p>
    );
  if (!log.data) return <p>Loading…</p>;
  const { endpoint, entries, nextCursor } = log.data;
  return (
    <>
      <p>
        <code>{endpoint.url}</code> · {endpoint.enabled ? "enabled" : `disabled: ${endpoint.disabledReason ?? ""}`} ·
        events {endpoint.events.join(", ")}
      </p>
      {entries.length === 0 ? <p>No deliveries yet.</p> : null}
      {pages.nav(nextCursor ?? null, "Delivery pages")}
      {entries.length ? (
        <TableWrap label="Deliveries">
          <table>
            <thead>
              <tr>
                <th scope="col">Message</th>
                <th scope="col">Event</th>
                <th scope="col">Created</th>
                <th scope="col">Outcome</th>
                <th scope="col">Attempts</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} data-testid="delivery-row" data-message-id={entry.id}>
                  <td data-label="Message">
                    <code>{entry.id}</code>
                  </td>
                  <td data-label="Event">{entry.eventType}</td>
                  <td data-label="Created">{utcMinute(entry.createdAt)}</td>
                  <td data-label="Outcome" data-testid="delivery-outcome">
                    {outcome(entry)}
                  </td>
                  <td data-label="Attempts">
                    <ol className="attempts">
                      {entry.tries.map((t) => (
                        <li key={String(t.attemptedAt)} data-testid="delivery-attempt">
                          {utcMinute(t.attemptedAt)}: {t.status === null ? "no answer" : `HTTP ${t.status}`}
                          {t.error && t.status === null ? ` (${t.error})` : ""}, {t.durationMs} ms
                          {t.trigger === "resend" ? ", resent" : ""}
                          {t.responseExcerpt ? <div className="hint">{t.responseExcerpt.slice(0, 200)}</div> : null}
                        </li>
                      ))}
                    </ol>
                  </td>
                  <td>
                    <button
                      type="button"
                      disabled={resend.isPending}
                      onClick={() => resend.mutate({ messageId: entry.id })}
                    >
                      Resend<span className="sr-only"> {entry.id}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      <ProblemAlert errors={[resend.error]} />
      {pages.nav(nextCursor ?? null, "Delivery pages", true)}
    </>
  );
}
