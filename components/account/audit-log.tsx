"use client";
/**
 * The active organization's audit trail (owners and admins): who changed what, when and from
 * where, newest first, filtered by action, actor and period, a page at a time, and the same
 * filters as a CSV download. Every recorded text is hostile: React escapes it, and it is shown,
 * never used as a link or markup.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { type FormEvent, useEffect, useState } from "react";
import { useCursorPages } from "@/components/ui/cursor-pages";
import { TableWrap } from "@/components/ui/table-wrap";
import { AUDIT_ACTOR_ID, type AuditAction } from "@/server/1-domain/audit";
import { AUDIT_EXPORT_PATH } from "@/server/2-http/paths";
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

const PAGE = 50;
/** A day as the server takes it (server/7-routers/audit.ts): YYYY-MM-DD, from 1970. */
const DAY = /^(19[7-9]\d|[2-9]\d{3})-\d{2}-\d{2}$/;

/**
 * The filters the address holds (`?action=…&actor=…&from=…&to=…`), so a filtered trail can be
 * shared and the back button goes to the filters before. What is no filter the page gives (an
 * unknown action, a date not YYYY-MM-DD, an actor that is no id) is left out, as if not there.
 */
function filtersOf(params: URLSearchParams, actions: readonly AuditAction[]): Filters {
  const action = params.get("action") ?? "";
  const actor = (params.get("actor") ?? "").trim();
  const day = (name: string) => {
    const value = params.get(name) ?? "";
    return DAY.test(value) ? value : "";
  };
  return {
    action: (actions as readonly string[]).includes(action) ? (action as AuditAction) : "",
    actor: AUDIT_ACTOR_ID.test(actor) ? actor : "",
    from: day("from"),
    to: day("to"),
  };
}

/** The filters as the query's input and the address's parameters: only those set. */
function filterInput(filters: Filters) {
  return {
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.actor.trim() ? { actor: filters.actor.trim() } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
}

/** The filters in words, for an empty result: "action token.create, from 2026-05-01". */
function filtersText(filters: Filters): string {
  return [
    filters.action ? `action ${filters.action}` : null,
    filters.actor ? `actor ${filters.actor}` : null,
    filters.from ? `from ${filters.from}` : null,
    filters.to ? `to ${filters.to}` : null,
  ]
    .filter(Boolean)
    .join(", ");
}

/** What an event's details say, on one line (JSON, so nothing in it is read as markup). */
const detailsText = (details: Record<string, unknown>) => (Object.keys(details).length ? JSON.stringify(details) : "");

export function AuditLog({ actions }: { actions: readonly AuditAction[] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const applied = filtersOf(new URLSearchParams(params.toString()), actions);
  const appliedKey = JSON.stringify(applied);
  const [draft, setDraft] = useState<Filters>(applied);
  const pages = useCursorPages<number>();
  // Filters changed in the address (applied here, or the back button): the form shows them and
  // the trail starts again at its newest page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: appliedKey is the filters' value
  useEffect(() => {
    setDraft(JSON.parse(appliedKey) as Filters);
    pages.reset();
  }, [appliedKey]);
  // A period that ends before it starts holds no day: said as such, and nothing is asked for.
  const inverted = applied.from !== "" && applied.to !== "" && applied.from > applied.to;
  const cursor = pages.cursor;
  const events = useQuery({
    ...trpc.audit.list.queryOptions({ ...filterInput(applied), limit: PAGE, ...(cursor ? { cursor } : {}) }),
    enabled: !inverted,
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const query = new URLSearchParams(filterInput(draft) as Record<string, string>).toString();
    router.push(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };
  const csvHref = `${AUDIT_EXPORT_PATH}?${new URLSearchParams(filterInput(applied) as Record<string, string>)}`;
  const nextCursor = events.data?.nextCursor ?? null;
  const filtered = filtersText(applied);

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
          {filtered ? (
            <Link href={pathname} data-testid="audit-clear-filters">
              Clear the filters
            </Link>
          ) : null}
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
        {inverted ? (
          <p role="alert" className="error" data-testid="audit-inverted-range">
            From ({applied.from}) is after To ({applied.to}): no day is in that period. Swap the two dates, or clear one
            of them.
          </p>
        ) : null}
        {inverted ? null : pages.nav(nextCursor, "Audit pages")}
        <AccountList
          items={inverted ? undefined : events.data?.events}
          pending={!inverted && events.isPending}
          errors={[events.error]}
          empty={
            filtered
              ? `No events match these filters (${filtered}). Clear or widen them to see more.`
              : "No events yet. Changes to tokens, webhooks, credits, members and settings appear here as they happen."
          }
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
        {inverted ? null : pages.nav(nextCursor, "Audit pages", true)}
      </section>
    </>
  );
}
