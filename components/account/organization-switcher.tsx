"use client";
/** Switches the organization the dashboard acts for; the page then reloads its server data. */
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { problemText, useTRPC } from "../trpc";

export function OrganizationSwitcher({
  organizations,
  activeId,
  testId = "organization-switcher",
}: {
  organizations: { id: string; name: string }[];
  activeId: string;
  testId?: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const change = useMutation(trpc.organizations.switch.mutationOptions({ onSuccess: () => router.refresh() }));
  return (
    <label className="switcher">
      <span className="sr-only">Organization</span>
      <select
        value={activeId}
        disabled={change.isPending}
        onChange={(event) => change.mutate({ organizationId: event.target.value })}
        data-testid={testId}
      >
        {organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      {change.error ? <span role="alert">{problemText(change.error)}</span> : null}
    </label>
  );
}
