"use client";
/**
 * The active organization's settings on the members page: its name and home country (for
 * organization.settings: owners, admins) and deleting it (organization.delete: owners), which
 * asks for the name typed again. The server checks both powers and the name anyway.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { byCountryName, credits } from "../format";
import { useTRPC } from "../trpc";
import { ProblemAlert } from "./account-list";

export function OrganizationSettings({
  name,
  homeCountry,
  balance,
  canChange,
  canDelete,
}: {
  name: string;
  homeCountry: string;
  balance: number;
  canChange: boolean;
  canDelete: boolean;
}) {
  const trpc = useTRPC();
  const countries = useQuery({ ...trpc.organizations.countries.queryOptions(), enabled: canChange });
  const [newName, setNewName] = useState(name);
  const [country, setCountry] = useState(homeCountry);
  const [confirmName, setConfirmName] = useState("");
  // The header and every page name the organization: a fresh page shows the change everywhere.
  const update = useMutation(trpc.organizations.updateSettings.mutationOptions({ onSuccess: () => location.reload() }));
  const remove = useMutation(trpc.organizations.delete.mutationOptions({ onSuccess: () => location.assign("/") }));
  if (!canChange && !canDelete) return null;

  const save = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({
      ...(newName.trim() !== name ? { name: newName } : {}),
      ...(country !== homeCountry ? { homeCountry: country } : {}),
    });
  };
  const unchanged = newName.trim() === name && country === homeCountry;
  return (
    <>
      {canChange ? (
        <section aria-labelledby="organization-settings">
          <h2 id="organization-settings">Organization settings</h2>
          <form onSubmit={save} className="inline-form">
            <label>
              Name
              <input value={newName} onChange={(e) => setNewName(e.target.value)} required maxLength={100} />
            </label>
            <label>
              Home country
              <select value={country} onChange={(e) => setCountry(e.target.value)} disabled={countries.isPending}>
                {countries.data ? null : <option value={homeCountry}>{homeCountry}</option>}
                {byCountryName(countries.data ?? []).map((c) => (
                  <option key={c.country} value={c.country}>
                    {c.name} ({c.country})
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" disabled={unchanged || update.isPending}>
              Save settings
            </button>
          </form>
          <p className="hint">The home country is the one readings engage when a call names none.</p>
          <ProblemAlert errors={[countries.error, update.error]} />
        </section>
      ) : null}
      {canDelete ? (
        <section aria-labelledby="delete-organization">
          <h2 id="delete-organization">Delete this organization</h2>
          <p>
            Deleting <strong>{name}</strong> removes every member, API token, webhook endpoint, invitation and MCP
            connection of it, and its remaining {credits(balance)}, at once and for good. Its audit trail is kept. Type
            its name to confirm.
          </p>
          <form
            className="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              remove.mutate({ confirmName });
            }}
          >
            <label>
              Organization name
              <input value={confirmName} onChange={(e) => setConfirmName(e.target.value)} autoComplete="off" />
            </label>
            <button type="submit" className="danger" disabled={confirmName !== name || remove.isPending}>
              Delete organization
            </button>
          </form>
          <ProblemAlert errors={[remove.error]} />
        </section>
      ) : null}
    </>
  );
}
