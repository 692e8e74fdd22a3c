"use client";
/** Accepting an invitation: joins the organization and makes it the active one, then shows its members. */
import { useMutation } from "@tanstack/react-query";
import { MEMBERS_PATH } from "@/server/2-http/paths";
import { useTRPC } from "../trpc";
import { ProblemAlert } from "./account-list";

export function InvitationAccept({ token, organizationName }: { token: string; organizationName: string }) {
  const trpc = useTRPC();
  // A full load: the header's organization and balance are the new organization's.
  const accept = useMutation(
    trpc.members.accept.mutationOptions({ onSuccess: () => window.location.assign(MEMBERS_PATH) }),
  );
  return (
    <>
      <button type="button" disabled={accept.isPending || accept.isSuccess} onClick={() => accept.mutate({ token })}>
        Join {organizationName}
      </button>
      <ProblemAlert errors={[accept.error]} />
    </>
  );
}
