"use client";
/**
 * The active organization's audit trail (owners and admins): who changed what, when and from
 * where, newest first, filtered by action, actor and period, a page at a time, and the same
 * filters as a CSV download. Every recorded text is hostile: React escapes it, and it is shown,
 * never used as a link or markup.
 */
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useCursorPages } from "@/components/ui/cursor-pages";
import { TableWrap } from "@/components/ui/table-wrap";
import type { AuditAction } from "@/server/domain/audit";
import { AUDIT_EXPORT_PATH } from "@/server/http/paths";
import { utcMinute } from "../format";
import { useTRPC } from "../trpc";
import { AccountList } from "./account-list";

type Action = "" | AuditAction;

interface Filters {
  action: Action;
  actor: string;
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { action: "", actor: "", from: "", to: "" };
const PAGE = 50;

/** The filters as the query's input: only those set. */
function filterInput(filters: Filters) {
  return {
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.actor.trim() ? { actor: filters.actor.trim() } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
}

/** What an event's details say, on one line (JSON, so nothing in it is read as markup). */
const detailsText = (details: Record<string, unknown>) => (Object.keys(details).length ? JSON.stringify(details) : "");

export function AuditLog({ actions }: { actions: readonly AuditAction[] }) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const pages = useCursorPages<number>();
  const cursor = pages.cursor;
  const events = useQuery(
    trpc.audit.list.queryOptions({ ...filterInput(applied), limit: PAGE, ...(cursor ? { cursor } : {}) }),
  );
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setApplied(draft);
    pages.reset();
  };
  const csvHref = `${AUDIT_EXPORT_PATH}?${new URLSearchParams(filterInput(applied) as Record<string, string>)}`;
  const nextCursor = events.data?.nextCursor ?? null;

  return (
    <>
      <section aria-labelledby="audit-filters">
        <h2 id="audit-filters">Filters</h2>
        <form onSubmit={apply} className="inline-form" data-testid="audit-filters">
          <label>
            Action
            <select
              value={draft.action}
              onChange={(e) => setDraft({ ...draft, action: e.target.value as Action })}
              name="action"
            >
              <option value="">Any</option>
              {actions.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </select>
          </label>
          <label>
            Actor
            <input
              name="actor"
              value={draft.actor}
              maxLength={128}
              placeholder="usr_… or tok_…"
              onChange={(e) => setDraft({ ...draft, actor: e.target.value })}
            />
          </label>
          <label>
            From
            <input
              type="date"
              name="from"
              value={draft.from}
              onChange={(e) => setDraft({ ...draft, from: e.target.value })}
            />
          </label>
          <label>
            To
            <input
              type="date"
              name="to"
              value={draft.to}
              onChange={(e) => setDraft({ ...draft, to: e.target.value })}
            />
          </label>
          <button type="submit">Apply filters</button>
        </form>
        <p>
          <a href={csvHref} download data-testid="audit-csv">
            Download CSV
          </a>{" "}
          <span className="hint">(these filters, at most the 10,000 newest events)</span>
        </p>
      </section>

      <section aria-labelledby="audit-events">
        <h2 id="audit-events">Events</h2>
        <AccountList
          items={events.data?.events}
          pending={events.isPending}
          errors={[events.error]}
          empty="No events match. Changes to tokens, webhooks, credits, members and settings appear here as they happen."
        >
          {(list) => (
            <TableWrap label="Audit events, newest first">
              <table>
                <thead>
                  <tr>
                    <th scope="col">When (UTC)</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Target</th>
                    <th scope="col">From where</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((e) => (
                    <tr key={e.id} data-testid="audit-row" data-action={e.action}>
                      <td data-label="When (UTC)">{utcMinute(e.occurredAt)}</td>
                      <td data-label="Who">
                        {e.actorLabel ?? e.actorUserId ?? e.actorTokenId ?? "—"}
                        <br />
                        <small>
                          {e.actorKind}
                          {e.actorTokenId ? ` ${e.actorTokenId}` : e.actorUserId ? ` ${e.actorUserId}` : ""}
                        </small>
                      </td>
                      <td data-label="Action">
                        <code>{e.action}</code>
                        {detailsText(e.details) ? (
                          <>
                            <br />
                            <small className="audit-details">{detailsText(e.details).slice(0, 300)}</small>
                          </>
                        ) : null}
                      </td>
                      <td data-label="Target">{e.targetType ? `${e.targetType} ${e.targetId ?? ""}` : "—"}</td>
                      <td data-label="From where">
                        {e.clientAddress ?? "—"}
                        {e.userAgent ? (
                          <>
                            <br />
                            <small>{e.userAgent.slice(0, 120)}</small>
                          </>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
        </AccountList>
        {pages.nav(nextCursor, "Audit pages")}
      </section>
    </>
  );
}
