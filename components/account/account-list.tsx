"use client";
/**
 * The one shell of every list on the account pages (tokens, webhook endpoints, deliveries, MCP
 * connections, followed markets): loading, the problem in words, the empty state that names the
 * next step, then the list. Failures of actions on the list show in the same place.
 */
import type { ReactNode } from "react";
import { problemText } from "../trpc";

/** The first of these failures, in plain words, as an alert; nothing when all are null. */
export function ProblemAlert({ errors }: { errors: readonly unknown[] }) {
  const error = errors.find(Boolean);
  return error ? (
    <p role="alert" className="error">
      {problemText(error)}
    </p>
  ) : null;
}

export function AccountList<T>({
  items,
  pending,
  errors,
  empty,
  children,
}: {
  /** The list once loaded; undefined while loading or after a failure. */
  items: readonly T[] | undefined;
  pending: boolean;
  /** The list's own failure and its actions' (revoke, resend…). */
  errors: readonly unknown[];
  /** What to say, and what to do next, when there is nothing yet. */
  empty: ReactNode;
  children: (items: readonly T[]) => ReactNode;
}) {
  return (
    <>
      {pending ? <p>Loading…</p> : null}
      <ProblemAlert errors={errors} />
      {items?.length === 0 ? <p data-testid="account-list-empty">{empty}</p> : null}
      {items?.length ? children(items) : null}
    </>
  );
}
