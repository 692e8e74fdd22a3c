"use client";
/** Mark one notification, or all of them, read; the page and the header's count then refresh. */
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { problemText, useTRPC } from "../trpc";

export function MarkReadButton({ id }: { id: number }) {
  const trpc = useTRPC();
  const router = useRouter();
  const mark = useMutation(trpc.notifications.markRead.mutationOptions({ onSuccess: () => router.refresh() }));
  return (
    <button
      type="button"
      className="link-button"
      data-testid="mark-read"
      disabled={mark.isPending}
      onClick={() => mark.mutate({ ids: [id] })}
    >
      Mark read{mark.error ? ` — ${problemText(mark.error)}` : ""}
    </button>
  );
}

export function MarkAllReadButton() {
  const trpc = useTRPC();
  const router = useRouter();
  const mark = useMutation(trpc.notifications.markAllRead.mutationOptions({ onSuccess: () => router.refresh() }));
  return (
    <p>
      <button type="button" data-testid="mark-all-read" disabled={mark.isPending} onClick={() => mark.mutate()}>
        Mark all read
      </button>
      {mark.error ? (
        <span role="alert" className="error">
          {" "}
          {problemText(mark.error)}
        </span>
      ) : null}
    </p>
  );
}
