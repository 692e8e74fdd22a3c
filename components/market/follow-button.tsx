"use client";
/** Follow or unfollow a market from its page; the header's bell counts what following brings. */
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { NOTIFICATION_SETTINGS_PATH } from "@/server/2-http/paths";
import { problemText, useTRPC } from "../trpc";

export function FollowButton({ marketId, initiallyFollowing }: { marketId: string; initiallyFollowing: boolean }) {
  const trpc = useTRPC();
  const [following, setFollowing] = useState(initiallyFollowing);
  const follow = useMutation(trpc.following.follow.mutationOptions({ onSuccess: () => setFollowing(true) }));
  const unfollow = useMutation(trpc.following.unfollow.mutationOptions({ onSuccess: () => setFollowing(false) }));
  const busy = follow.isPending || unfollow.isPending;
  const error = follow.error ?? unfollow.error;
  return (
    <p className="inline-form">
      <button
        type="button"
        data-testid="follow-button"
        aria-pressed={following}
        disabled={busy}
        onClick={() => (following ? unfollow.mutate({ marketId }) : follow.mutate({ marketId }))}
      >
        {following ? (
          <>
            Following ✓<span className="wide-only"> (unfollow)</span>
          </>
        ) : (
          <>
            Follow<span className="wide-only"> this market</span>
          </>
        )}
      </button>{" "}
      <small className="wide-only">
        Followers are notified of each release. <Link href={NOTIFICATION_SETTINGS_PATH}>Notification settings</Link>
      </small>
      {error ? (
        <span role="alert" className="error">
          {" "}
          {problemText(error)}
        </span>
      ) : null}
    </p>
  );
}
