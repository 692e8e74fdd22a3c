"use client";
/** What a person follows and what they want by e-mail. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { readingHref } from "@/server/2-http/reading-context";
import { useTRPC } from "../trpc";
import { AccountList, ProblemAlert } from "./account-list";

type Preference = "releaseEmails" | "weeklySummary" | "weeklyQuietNote";

const CHOICES: { key: Preference; label: string; hint: string }[] = [
  {
    key: "releaseEmails",
    label: "E-mail me each release of a market I follow",
    hint: "Names the release, whether the methodology changed materially, and the top changes.",
  },
  {
    key: "weeklySummary",
    label: "Send me the weekly summary",
    hint: "Releases, biggest movers per axis, band changes and availability in your organization's home country.",
  },
  {
    key: "weeklyQuietNote",
    label: "…and a one-line note when nothing changed that week",
    hint: "Otherwise a quiet week sends nothing.",
  },
];

export function NotificationSettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const follows = useQuery(trpc.following.list.queryOptions());
  const preferences = useQuery(trpc.following.preferences.queryOptions());
  const unfollow = useMutation(
    trpc.following.unfollow.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.following.list.queryKey() }),
    }),
  );
  const update = useMutation(
    trpc.following.updatePreferences.mutationOptions({
      onSuccess: (saved) => queryClient.setQueryData(trpc.following.preferences.queryKey(), saved),
    }),
  );
  return (
    <>
      <ProblemAlert errors={[preferences.error, update.error]} />
      <section aria-labelledby="followed">
        <h2 id="followed">Markets you follow</h2>
        <AccountList
          items={follows.data}
          pending={follows.isPending}
          errors={[follows.error, unfollow.error]}
          empty="You follow no market yet. Open a market and choose “Follow this market”."
        >
          {(followed) => (
            <ul data-testid="followed-markets">
              {followed.map((market) => (
                <li key={market.marketId} data-market-id={market.marketId}>
                  <Link href={readingHref({ to: "market", marketId: market.marketId })}>{market.name}</Link>
                  {market.status === "archived" ? " (archived)" : ""}{" "}
                  <button
                    type="button"
                    className="link-button"
                    data-testid="unfollow"
                    disabled={unfollow.isPending}
                    onClick={() => unfollow.mutate({ marketId: market.marketId })}
                  >
                    Unfollow
                  </button>
                </li>
              ))}
            </ul>
          )}
        </AccountList>
      </section>
      <section aria-labelledby="email">
        <h2 id="email">E-mail</h2>
        {preferences.data ? (
          <fieldset disabled={update.isPending}>
            {CHOICES.map(({ key, label, hint }) => (
              <p key={key}>
                <label className="check">
                  <input
                    type="checkbox"
                    name={key}
                    data-testid={`preference-${key}`}
                    checked={preferences.data[key]}
                    disabled={key === "weeklyQuietNote" && !preferences.data.weeklySummary}
                    onChange={(event) => update.mutate({ [key]: event.target.checked })}
                  />{" "}
                  {label}
                </label>
                <br />
                <small className="hint">{hint}</small>
              </p>
            ))}
          </fieldset>
        ) : null}
        <p className="hint">Every e-mail has a one-click unsubscribe link that works without signing in.</p>
      </section>
    </>
  );
}
